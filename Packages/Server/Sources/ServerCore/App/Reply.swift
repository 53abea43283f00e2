import Foundation
import Models
import ServerHTTP

/// What a handler answers.
enum Reply: Sendable {
    /// An envelope already encoded.
    case json(status: Int, body: Data)
    /// A file streamed from an open descriptor, which the HTTP layer closes.
    case file(descriptor: Int32, byteSize: Int64, contentType: String)
    /// A body streamed as it is produced (chunked), with its headers.
    case stream(ResponseStream, headers: [(name: String, value: String)])
    /// A status with headers of its own and a body, maybe empty (204, `HEAD`).
    case status(Int, headers: [(name: String, value: String)], body: Data)

    /// `{"ok": true, "data": payload}` with `status`.
    static func ok<T: Encodable & Sendable>(_ payload: T, status: Int = 200) -> Reply {
        .json(status: status, body: JSONBody.encode(Envelope<T>.success(payload)))
    }

    /// `ok(payload)`, written without `JSONEncoder` (`ReviewReplies`).
    static func answer(_ payload: ReviewsResponse) -> Reply {
        .json(status: 200, body: ReviewReplies.envelope(payload))
    }

    /// `ok(payload)`, written without `JSONEncoder` (`UploadReplies`).
    static func answer(_ payload: UploadStartResponse, status: Int = 200) -> Reply {
        .json(status: status, body: UploadReplies.envelope(payload))
    }

    /// `ok(payload)`, written without `JSONEncoder` (`UploadReplies`).
    static func answer(_ payload: PhotoUploadResponse, status: Int = 200) -> Reply {
        .json(status: status, body: UploadReplies.envelope(payload))
    }
}
