import Foundation
import Models
import Testing

@testable import ServerCore

@Suite("The body of a new upload read without JSONDecoder")
struct UploadRequestReaderTests {
    static let id = "8A6CFA51-71BC-49D2-9E0B-3F1A2C4D5E6F"
    static let issue = "0b7b4c81-ef4d-4a11-8c2e-77e5d0c1a2b3"
    static let hash = String(repeating: "ab", count: 32)

    /// Bodies clients send, and bodies that are almost that, for each of which the reader must agree with the
    /// decoder: the same request when it reads one, and no request (the decoder then judges) otherwise.
    static let bodies: [String] = [
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":308697}"#,
        #"{"local_id":"\#(id)","field_id":"14","sha256":"\#(hash)","byte_size":1}"#,
        #"{"local_id":"\#(id)","field_id":"14","issue_local_id":"\#(issue)","sha256":"\#(hash)","byte_size":0}"#,
        #" { "byte_size" : 9223372036854775807 , "sha256" : "x" , "local_id" : "\#(id)" } "#,
        "{\n\t\"local_id\": \"\(id)\",\r\n\"sha256\": \"\(hash)\",\n\"byte_size\": 7\n}\n",
        #"{"local_id":"\#(id)","field_id":null,"issue_local_id":null,"sha256":"","byte_size":5}"#,
        #"{"local_id":"\#(id)","field_id":"","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":"\#(id)","field_id":"a \"quoted\" id","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":"\#(id)","field_id":"caf\u00e9","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":"\#(id)","field_id":"café","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":9223372036854775808}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":-5}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":-0}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":05}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5.0}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5e2}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":"5"}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":null}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5,}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5}}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5} x"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)"}"#,
        #"{"local_id":"not a uuid","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":"\#(id)","issue_local_id":"nope","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":null,"sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":"\#(id)","sha256":5,"byte_size":5}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5,"extra":[1,{"a":2}]}"#,
        #"{"local_id":"\#(id)","sha256":"\#(hash)","byte_size":5,"byte_size":6}"#,
        #"{"local_id":"\#(id)","local_id":"\#(id)","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_\u0069d":"\#(id)","sha256":"\#(hash)","byte_size":5}"#,
        #"{"local_id":"\#(id)","field_id":nul,"sha256":"\#(hash)","byte_size":5}"#,
        #"["local_id"]"#, "{}", "", "null", "{",
    ]

    @Test("for every body, the reader answers what JSONDecoder answers, or leaves the body to it")
    func agreesWithTheDecoder() throws {
        var read = 0
        for body in Self.bodies {
            let data = Data(body.utf8)
            let decoded = try? JSONDecoder().decode(UploadRequest.self, from: data)
            guard let fast = UploadRequestReader.read(data) else { continue }
            read += 1
            #expect(fast == decoded, "\(body)")
        }
        // The shapes clients send are read here, not left to the decoder.
        #expect(read == 7)
    }

    @Test("each body an agent writes is read, whatever its ids, hash and size")
    func agentBodies() {
        for size: Int64 in [0, 1, 9, 10, 308_697, 20_000_000, Int64.max] {
            for field: String? in [nil, "", "14", "photo-field"] {
                for issue: UUID? in [nil, UUID()] {
                    let request = UploadRequest(
                        localID: UUID(), fieldID: field, issueLocalID: issue, sha256: Self.hash, byteSize: size)
                    let body = try? JSONEncoder().encode(request)
                    #expect(body.flatMap(UploadRequestReader.read) == request, "\(request)")
                }
            }
        }
    }
}
