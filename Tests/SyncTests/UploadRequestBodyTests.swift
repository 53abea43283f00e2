import Foundation
import Models
import Testing

@testable import Sync

@Suite("An upload announced as it is sent")
struct UploadRequestBodyTests {
    @Test(
        "the body of POST /uploads is the JSON the contract's UploadRequest encodes to, with or without its optional keys"
    )
    func sameAsEncoded() throws {
        let hash = String(repeating: "ab", count: 32)
        let requests = [
            UploadRequest(localID: UUID(), sha256: hash, byteSize: 1),
            UploadRequest(localID: UUID(), fieldID: "entrance_photo", sha256: hash, byteSize: 314_159),
            UploadRequest(localID: UUID(), issueLocalID: UUID(), sha256: hash, byteSize: Int64.max),
            UploadRequest(
                localID: UUID(), fieldID: "quote \" backslash \\ tab\t nul \u{0} 東京 🧹", issueLocalID: UUID(),
                sha256: hash, byteSize: 20_000_000),
        ]
        for request in requests {
            let body = UploadRequestBody.data(request)
            let written = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let encoded = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(request)) as? [String: Any])
            #expect(NSDictionary(dictionary: written).isEqual(to: encoded), "\(String(decoding: body, as: UTF8.self))")
            #expect(try JSONDecoder().decode(UploadRequest.self, from: body) == request)
            #expect(written["field_id"] == nil || request.fieldID != nil, "no key for a field the photo has not")
        }
    }
}
