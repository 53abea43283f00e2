import Models

/// Why a report cannot be completed yet: one field, one line.
public struct CompletionProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// A required field has no answer.
        case missingRequired
        /// A required field of a type this version does not support has no answer.
        case unsupportedRequired
        /// An answer does not match its field's type.
        case invalidAnswer
    }

    /// The field concerned.
    public var fieldID: FieldID
    /// What kind of problem it is.
    public var kind: Kind
    /// One line naming the field, what is wrong and what to do.
    public var message: String

    /// Makes a problem.
    public init(fieldID: FieldID, kind: Kind, message: String) {
        self.fieldID = fieldID
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// An answer in a submitted report that does not fit the form (for the server).
public struct AnswerProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// The answer's key is not a field of the form.
        case unknownField
        /// The field is a section or a label, which take no answer.
        case notAnswerable
        /// The answer does not match its field's type.
        case invalidAnswer
        /// The field's type cannot judge answers in this process (`FieldType.unavailableReason`).
        case unavailableType
    }

    /// The answer's key.
    public var fieldID: FieldID
    /// What kind of problem it is.
    public var kind: Kind
    /// One line naming the field and what is wrong.
    public var message: String

    /// Makes a problem.
    public init(fieldID: FieldID, kind: Kind, message: String) {
        self.fieldID = fieldID
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
