/// The one error type of Models: a machine code and a one-line human message.
public struct ModelsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is; stable, for programs and tests.
    public enum Code: String, Sendable {
        case invalidJSON = "INVALID_JSON"
        case invalidField = "INVALID_FIELD"
        case invalidSchema = "INVALID_SCHEMA"
        case invalidReference = "INVALID_REFERENCE"
        case illegalTransition = "ILLEGAL_TRANSITION"
    }

    /// The machine code.
    public let code: Code
    /// What went wrong, with the offending value quoted, and what to do next.
    public let message: String

    /// Makes an error from a code and its human message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
