import Foundation
import Models
import Testing

@testable import ServerCore

@Suite("Photo route answers written as bytes")
struct UploadRepliesTests {
    /// Text no answer of ours carries today, but could tomorrow: every escape `JSONEncoder` knows, and none it does not.
    static let texts = [
        "/api/v1/uploads/U-0123456789abcdef0123456789abcdef", "2026-12-03T02:41:07Z", "", "quote \" and backslash \\",
        "slash / stays", "tab\tcr\rlf\nbackspace\u{8}formfeed\u{C}",
        "nul \u{0} bell \u{7} esc \u{1B} us \u{1F} del \u{7F}",
        "separators \u{2028} and \u{2029}", "é, combining e\u{301}, 東京, 🧹",
    ]

    @Test("an upload's answer is byte for byte the one JSONEncoder writes, whatever its text")
    func uploadAnswer() {
        for text in Self.texts {
            for offset: Int64 in [0, 1, 314_159, Int64.max] {
                let upload = UploadStartResponse(upload: UploadSession(url: text, offset: offset, expiresAt: text))
                #expect(
                    UploadReplies.envelope(upload) == JSONBody.encode(Envelope.success(upload)), "\(text) at \(offset)")
            }
        }
    }

    @Test("a photo's answer, alone or as the answer to a new upload, is byte for byte the one JSONEncoder writes")
    func photoAnswer() {
        for text in Self.texts {
            for size: Int64 in [0, 1, 20_000_000, Int64.max] {
                let photo = PhotoUploadResponse.UploadedPhoto(localID: UUID(), url: text, byteSize: size)
                #expect(
                    UploadReplies.envelope(PhotoUploadResponse(photo: photo))
                        == JSONBody.encode(Envelope.success(PhotoUploadResponse(photo: photo))), "\(text)")
                let start = UploadStartResponse(photo: photo)
                #expect(UploadReplies.envelope(start) == JSONBody.encode(Envelope.success(start)), "\(text)")
                let both = UploadStartResponse(
                    upload: UploadSession(url: text, offset: size, expiresAt: text), photo: photo)
                #expect(UploadReplies.envelope(both) == JSONBody.encode(Envelope.success(both)), "\(text)")
            }
        }
        #expect(
            UploadReplies.envelope(UploadStartResponse()) == JSONBody.encode(Envelope.success(UploadStartResponse())))
    }
}
