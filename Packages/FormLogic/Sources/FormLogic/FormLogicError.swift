import Models

/// The one error type of FormLogic: a logic problem of a template, with a
/// stable code, the field it belongs to and a one-line message saying what
/// is wrong and how to fix it.
public struct FormLogicError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is; stable, for programs and tests.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written in `--json` output.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// A condition or expression is not of a shape the spec allows.
        public static let malformed = Code("LOGIC_MALFORMED")
        /// An operator this build does not know (a newer template): a warning on import.
        public static let unknownOperator = Code("LOGIC_UNKNOWN_OPERATOR")
        /// A reference to a field the form does not have.
        public static let unknownField = Code("LOGIC_UNKNOWN_FIELD")
        /// A reference to a section or label, which hold no answer.
        public static let displayOnlyField = Code("LOGIC_DISPLAY_ONLY_FIELD")
        /// An operator the referenced field's type does not support.
        public static let unsupportedOperator = Code("LOGIC_UNSUPPORTED_OPERATOR")
        /// A value of another kind than the one the field compares or the operation needs.
        public static let wrongKind = Code("LOGIC_WRONG_KIND")
        /// Fields whose visibility or calculation depend on each other.
        public static let cycle = Code("LOGIC_CYCLE")
        /// A condition or expression deeper than 32 levels or larger than 256 nodes.
        public static let tooLarge = Code("LOGIC_TOO_LARGE")
        /// `calculate` on a type that cannot hold the result.
        public static let notCalculable = Code("LOGIC_NOT_CALCULABLE")

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The machine code.
    public let code: Code
    /// The field whose key holds the problem.
    public let fieldID: FieldID
    /// What is wrong and how to fix it, one line.
    public let message: String

    /// Makes a problem.
    public init(_ code: Code, field: FieldID, _ message: String) {
        self.code = code
        self.fieldID = field
        self.message = message
    }

    /// As a schema problem, so lint lists it with the others.
    public var schemaProblem: SchemaProblem { SchemaProblem(fieldID: fieldID, message: message) }

    /// "field 'q1': ...".
    public var description: String { "field \(quoted(fieldID)): \(message)" }
}
