/// Placeholder replaced by the field-type registry work.
public struct FieldTypesError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
