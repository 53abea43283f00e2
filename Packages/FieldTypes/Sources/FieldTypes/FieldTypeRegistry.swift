import Models

/// The field types a program knows, by name.
///
/// A value, built once at the composition root (the app, the server, a test)
/// and passed down; never a global, so two registries can coexist and tests
/// choose exactly the types they need.
public struct FieldTypeRegistry: Sendable {
    private var types: [String: any FieldType] = [:]

    /// An empty registry.
    public init() {}

    /// A registry holding `types`; fails on a repeated or malformed name.
    public init(_ types: [any FieldType]) throws(FieldTypesError) {
        for type in types { try register(type) }
    }

    /// A new registry holding every built-in type.
    public static func builtIn() -> FieldTypeRegistry {
        var registry = FieldTypeRegistry()
        for type in BuiltInFieldTypes.all {
            // Built-in names are distinct and well formed (a test checks it), so this keeps them all.
            registry.types[type.name] = type
        }
        return registry
    }

    /// Adds a type. Its name must be lowercase letters, digits and underscores,
    /// and not already registered.
    public mutating func register(_ type: any FieldType) throws(FieldTypesError) {
        let name = type.name
        guard Self.isValidName(name) else {
            throw FieldTypesError(
                .invalidFieldTypeName,
                "field type name \(OneLine.quote(name)) is not valid; use lowercase letters, digits and underscores")
        }
        guard types[name] == nil else {
            throw FieldTypesError(.duplicateFieldType, "field type '\(name)' is registered twice")
        }
        types[name] = type
    }

    /// The type called `name`, or nil.
    public func type(named name: String) -> (any FieldType)? {
        types[name]
    }

    /// The type called `name`; fails with "field type 'x' is not registered".
    public func require(named name: String) throws(FieldTypesError) -> any FieldType {
        guard let type = types[name] else {
            throw FieldTypesError(.unknownFieldType, "field type \(OneLine.quote(name)) is not registered")
        }
        return type
    }

    /// The type of a field: its registered type, or `UnsupportedFieldType`
    /// for a name this registry does not know.
    public func resolve(_ field: FieldDefinition) -> any FieldType {
        types[field.type] ?? UnsupportedFieldType(name: field.type)
    }

    /// The registered names, sorted.
    public var names: [String] { types.keys.sorted() }

    /// True when `name` is a non-empty run of `a-z`, `0-9` and `_`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
            }
    }
}
