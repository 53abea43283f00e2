/// Typed input a field type could not read: one line quoting the input and
/// saying what would be accepted.
public struct AnswerInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as the person typed it.
    public let input: String
    /// One line: what was wrong, with the input quoted, and what to type instead.
    public let message: String

    /// Makes an error for `input`.
    public init(input: String, message: String) {
        self.input = input
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
