import Foundation
import ServerStore

/// `X-JQC-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>`: the
/// key the hook's secret, the message the ASCII of `t`, a `.`, and the body's
/// exact bytes. `t` is the time of each attempt, so receivers can refuse old
/// ones; the body is the same bytes on every attempt.
enum WebhookSignature {
    static let header = "X-JQC-Signature"

    /// The header's value for `body` sent at `time` under `secret`.
    static func value(secret: String, time: Int64, body: String) -> String {
        let message = Array("\(time).".utf8) + Array(body.utf8)
        return "t=\(time),v1=\(Hex.encode(Digest.hmacSHA256(key: Array(secret.utf8), message: message)))"
    }

    /// A secret file's content as the key: one trailing `\n` or `\r\n`
    /// removed; nil when it is not UTF-8 text.
    static func secret(fromFile data: Data) -> String? {
        var bytes = [UInt8](data)
        if bytes.last == 0x0A {
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
