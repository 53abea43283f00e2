import Foundation
import Models
import Testing
@testable import Sync

/// The answer to a batch as the engine reads it from its bytes: the same
/// `SyncResponse` Foundation's decoder makes of it, or, for anything the
/// reader does not read itself, nothing, so that the decoder reads it as
/// every answer was read before.
@Suite("A batch's answer as it is read")
struct SyncResponseReaderTests {
    static let first = "3f2a0b9c-1d4e-4f5a-8b6c-7d8e9fa0b1c2"
    static let second = "A1B2C3D4-E5F6-4789-8ABC-DEF012345678"

    /// What the decoder makes of `text`, nil when it refuses it (or it is a failure envelope).
    static func decoded(_ text: String) -> SyncResponse? {
        guard
            case .success(let response)? = try? JSONDecoder().decode(Envelope<SyncResponse>.self, from: Data(text.utf8))
        else {
            return nil
        }
        return response
    }

    static func answer(_ results: String, tail: String = #","contract_version":"1.1","server_generation":"g-7""#)
        -> String
    {
        #"{"ok":true,"data":{"results":["# + results
            + #"],"min_supported_app_version":"0.1.0","server_schema_version":1"# + tail + "}}"
    }

    static let accepted = #"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-101","revision":1}"#

    /// Answers as servers give them, every one read by the reader.
    static let usual: [String] = [
        answer(accepted),
        answer(""),
        answer(accepted + "," + #"{"revision":3,"server_id":42,"status":"ACCEPTED","local_id":"\#(second)"}"#),
        answer(
            #"{"local_id":"\#(first)","status":"REJECTED","error_code":"VALIDATION_FAILED","error":"Field 4 is required; café 🧹"}"#
        ),
        answer(
            #"{"local_id":"\#(first)","status":"CONFLICT","server_revision":5,"server_payload":null,"conflicting_fields":["3","issue:x"]}"#
        ),
        answer(
            #"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-9","revision":2,"merged":false,"merged_fields":[],"server_issues":null}"#
        ),
        answer(
            #"{"local_id":"\#(first)","status":"ACCEPTED","server_id":null,"revision":null,"error_code":null,"error":null}"#
        ),
        answer(accepted, tail: ""),
        answer(accepted, tail: #","contract_version":null,"server_generation":null"#),
        " \n\t{ \"data\" : { \"server_schema_version\" : -2 , \"results\" : [ \(accepted) ] , \"min_supported_app_version\" : \"0.0.9\" } , \"ok\" : true }\r\n",
    ]

    @Test("the answers a server gives are read exactly as the decoder reads them", arguments: usual)
    func sameAsTheDecoder(text: String) throws {
        let expected = try #require(Self.decoded(text), "the decoder reads it")
        #expect(SyncResponseReader.read(Data(text.utf8)) == expected)
    }

    /// Well-formed answers the reader leaves to the decoder.
    static let leftToTheDecoder: [String] = [
        answer(#"{"local_id":"\#(first)","status":"REJECTED","error":"a \"quoted\" reason"}"#),
        answer(
            #"{"local_id":"\#(first)","status":"CONFLICT","server_revision":2,"server_payload":{"answers":{"1":2.5}}}"#),
        answer(
            #"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","revision":1,"merged":true,"server_issues":[]}"#
        ),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","revision":1.0}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","revision":1e0}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","revision":1,"note":"new"}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","server_id":"R-2","revision":1}"#),
        answer(accepted, tail: #","server_time":"2026-12-02T13:00:00Z""#),
        #"{"ok":false,"error":"no","code":"INTERNAL"}"#,
        // Trailing commas: not JSON, but Foundation's decoder takes them, and so the client still does.
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","revision":1,}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","revision":1}"# + ","),
        #"{"ok":true,"data":{"results":[],"min_supported_app_version":"0.1.0","server_schema_version":1},"request_id":"x"}"#,
    ]

    @Test("an answer with anything else in it is left to the decoder", arguments: leftToTheDecoder)
    func unusualLeftToTheDecoder(text: String) {
        #expect(SyncResponseReader.read(Data(text.utf8)) == nil)
    }

    /// Answers no server should give: the decoder refuses each, and the reader reads none.
    static let malformed: [String] = [
        "",
        "<html><body>502 Bad Gateway</body></html>",
        String(answer(accepted).dropLast(7)),
        answer(accepted) + "x",
        answer(accepted) + "}",
        "[1,2,3]",
        #"{"ok":true}"#,
        #"{"ok":true,"data":null}"#,
        #"{"ok":"true","data":{"results":[],"min_supported_app_version":"0.1.0","server_schema_version":1}}"#,
        #"{"ok":true,"data":{"results":[],"server_schema_version":1}}"#,
        #"{"ok":true,"data":{"results":[],"min_supported_app_version":null,"server_schema_version":1}}"#,
        #"{"ok":true,"data":{"results":null,"min_supported_app_version":"0.1.0","server_schema_version":1}}"#,
        #"{"ok":true,"data":{"results":[],"min_supported_app_version":"0.1.0","server_schema_version":"1"}}"#,
        #"{"ok":true,"data":{"results":[],"min_supported_app_version":"0.1.0","server_schema_version":01}}"#,
        #"{"ok":true,"data":{"results":[],"min_supported_app_version":"0.1.0","server_schema_version":99999999999999999999}}"#,
        answer(#"{"status":"ACCEPTED","server_id":"R-1","revision":1}"#),
        answer(#"{"local_id":"not-a-uuid","status":"ACCEPTED","server_id":"R-1","revision":1}"#),
        answer(#"{"local_id":"\#(first)x","status":"ACCEPTED"}"#),
        answer(#"{"local_id":"\#(first)","status":"accepted","server_id":"R-1","revision":1}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"","revision":1}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":true,"revision":1}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","server_id":"R-1","revision":"1"}"#),
        answer(#"{"local_id":"\#(first)","status":"REJECTED","error":"line\#u{01}break"}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","merged":nul}"#),
        answer(#"{"local_id":"\#(first)","status":"ACCEPTED","conflicting_fields":[3]}"#),
    ]

    @Test("a malformed or hostile answer is read by neither: the decoder refuses it as before", arguments: malformed)
    func malformedRefused(text: String) {
        #expect(Self.decoded(text) == nil)
        #expect(SyncResponseReader.read(Data(text.utf8)) == nil)
    }

    @Test("bytes that are not UTF-8 are left to the decoder")
    func notUTF8() {
        var bytes = Array(Self.answer(#"{"local_id":"\#(Self.first)","status":"REJECTED","error":"x"}"#).utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "x"))!
        bytes[at] = 0xFF
        #expect(SyncResponseReader.read(Data(bytes)) == nil)
    }
}

/// The two answers of every photo's resumable upload, read from their bytes:
/// the same values the decoder makes of them, or nothing, for the decoder.
@Suite("A photo upload's answers as they are read")
struct UploadAnswerReaderTests {
    static let photo =
        #"{"local_id":"A1B2C3D4-E5F6-4789-8ABC-DEF012345678","url":"/api/v1/reports/R-1/photos/x","byte_size":307200}"#

    static func decoded<Payload: Decodable & Sendable>(_ text: String, as type: Payload.Type) -> Payload? {
        guard case .success(let payload)? = try? JSONDecoder().decode(Envelope<Payload>.self, from: Data(text.utf8))
        else { return nil }
        return payload
    }

    @Test(
        "a new upload, one found again and a photo the server holds are read as the decoder reads them",
        arguments: [
            #"{"ok":true,"data":{"upload":{"url":"/api/v1/uploads/U-1f","offset":0,"expires_at":"2026-12-02T18:00:00Z"}}}"#,
            #"{"data":{"upload":{"expires_at":"2026-12-02T18:00:00Z","offset":1048576,"url":"/api/v1/uploads/U-2"},"photo":null},"ok":true}"#,
            #"{"ok":true,"data":{"photo":\#(photo)}}"#,
            #" { "ok" : true , "data" : { "upload" : null , "photo" : \#(photo) } } "#,
        ])
    func uploadStart(text: String) throws {
        let expected = try #require(Self.decoded(text, as: UploadStartResponse.self))
        #expect(SyncResponseReader.readUploadStart(Data(text.utf8)) == expected)
    }

    @Test("the photo stored at the last byte is read as the decoder reads it")
    func photoStored() throws {
        let text = #"{"ok":true,"data":{"photo":\#(Self.photo)}}"#
        let expected = try #require(Self.decoded(text, as: PhotoUploadResponse.self))
        #expect(SyncResponseReader.readPhotoUpload(Data(text.utf8)) == expected)
    }

    @Test(
        "what the reader is not sure of is left to the decoder: another key, an escape, a fraction, a failure, broken JSON",
        arguments: [
            #"{"ok":true,"data":{"upload":{"url":"/api/v1/uploads/U-1","offset":0,"expires_at":"x","extra":1}}}"#,
            #"{"ok":true,"data":{"upload":{"url":"\/api\/v1\/uploads\/U-1","offset":0,"expires_at":"x"}}}"#,
            #"{"ok":true,"data":{"upload":{"url":"/api/v1/uploads/U-1","offset":1.5,"expires_at":"x"}}}"#,
            #"{"ok":false,"error":{"code":"QUOTA_EXCEEDED","message":"no"}}"#,
            #"{"ok":true,"data":{"photo":\#(photo)}"#,
            #"{"ok":true,"data":{"photo":{"local_id":"not-a-uuid","url":"/x","byte_size":1}}}"#,
        ])
    func leftToTheDecoder(text: String) {
        #expect(SyncResponseReader.readUploadStart(Data(text.utf8)) == nil)
        #expect(SyncResponseReader.readPhotoUpload(Data(text.utf8)) == nil)
    }
}
