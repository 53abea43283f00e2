/// Why a document could not be made: a code and one line for a person.
public struct DocumentsError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The file could not be written (a full disk, a closed descriptor).
        case writeFailed = "DOCUMENT_WRITE_FAILED"
        /// Cairo refused to draw (out of memory, a broken surface).
        case drawingFailed = "DOCUMENT_DRAWING_FAILED"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
