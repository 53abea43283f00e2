import Foundation
import Models
import Networking
import Sync

// The sync responses, as the device reads them: a real `APIClient` over a
// transport that answers every request with the fuzzer's response, so the
// envelope, each endpoint's payload decoder, the error mapping of non-2xx
// answers (error envelope, `Retry-After`) and the 401 refresh path all run
// exactly as they do against a server.
//
// Input: byte 0 picks the endpoint, byte 1 the HTTP status; then, when the
// rest holds a NUL byte, the header lines before it (`name: value`), and the
// body after it; without one, the rest is the body.

let statuses = [200, 201, 200, 201, 204, 400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503, 302, 418]
let device = UUID(uuidString: "2b0c6a8e-5f4d-4e1b-9c3a-7d8e9f0a1b2c")!

/// Every request gets the same answer; never a network.
struct CannedTransport: HTTPTransport {
    let response: HTTPResponse

    func send(_ request: HTTPRequest) async throws(NetworkingError) -> HTTPResponse { response }
    func upload(_ upload: MultipartUpload) async throws(NetworkingError) -> HTTPResponse { response }
}

/// The calls of the contract that read a response, one per selector value.
enum Endpoint: Int, CaseIterable {
    case login, refresh, logout, me, facilities, areas, templates, assignments, sync
    case uploadPhoto, uploadPhotos, report, amend, history, rollup

    /// Calls the endpoint; what comes back is only checked, never kept.
    func call(_ client: APIClient) async throws(APIError) -> (any Sendable)? {
        switch self {
        case .login: return try await client.login(username: "ana", password: "correct horse")
        case .refresh: return try await client.refresh()
        case .logout: try await client.logout(); return nil
        case .me: return try await client.me()
        case .facilities: return try await client.facilities()
        case .areas: return try await client.areas(facilityID: "fac-1")
        case .templates: return try await client.templates()
        case .assignments: return try await client.assignments(since: "c-41")
        case .sync:
            let payload = WirePayload(answers: ["2": 4, "4": "pass"], score: 0.9, followUpRequired: false)
            let report = WireReport(localID: device, templateID: "101", facilityID: "fac-1", payload: payload)
            return try await client.syncReports(
                SyncRequest(deviceID: device, appVersion: "1.4.0", schemaVersion: 1, reports: [report]))
        case .uploadPhoto:
            let receipt = try await client.uploadPhoto(Self.photo)
            return receipt
        case .uploadPhotos:
            let results = await client.uploadPhotos([Self.photo, Self.photo], maxConcurrent: 2)
            for result in results { if case .failure(let error) = result { checkError(error) } }
            return results.count
        case .report: return try await client.report(serverID: "r-7")
        case .amend:
            return try await client.amendReport(
                serverID: "r-7", payload: WirePayload(answers: [:], score: nil, followUpRequired: true), baseRevision: 2
            )
        case .history: return try await client.history()
        case .rollup: return try await client.rollup()
        }
    }

    static let photo = PhotoUpload(
        serverID: "r-7", localID: device, fieldID: "14", sha256: String(repeating: "ab", count: 32),
        filePath: "/nonexistent/photo.jpg")
}

/// An error a person may read: one line, a status only when one arrived, a sane wait.
func checkError(_ error: APIError) {
    expect(isOneLine(error.message), "an API error is one line, got \(shown(error.message))")
    if let wait = error.retryAfter {
        expect(wait.isFinite && wait >= 0, "Retry-After is a finite wait of 0 or more, got \(wait)")
    }
}

final class Finished: @unchecked Sendable {
    let semaphore = DispatchSemaphore(value: 0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncResponses(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzBytes(data, size)
    let endpoint = Endpoint.allCases[Int(input.byte()) % Endpoint.allCases.count]
    let status = statuses[Int(input.byte()) % statuses.count]
    var rest = input.rest()
    var headers = ["content-type": "application/json"]
    if let split = rest.firstIndex(of: 0) {
        for line in String(decoding: rest[..<split], as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // As libcurl hands them over: names lowercased, no line ends in a value.
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: "\r", with: "")
        }
        rest = Array(rest[(split + 1)...])
    }
    let response = HTTPResponse(status: status, headers: headers, body: Data(rest))
    let credentials = Credentials(
        accessToken: "access-1", refreshToken: "refresh-1",
        user: WireUser(id: "u1", username: "ana", role: .inspector, displayName: "Ana"))
    let configuration = APIClient.Configuration(
        serverURL: "http://127.0.0.1:8080", appVersion: "1.4.0", deviceID: device,
        longestRetryAfterWait: 0)
    let finished = Finished()
    Task {
        defer { finished.semaphore.signal() }
        let client: APIClient
        do {
            client = try APIClient(
                configuration: configuration, transport: CannedTransport(response: response), credentials: credentials)
        } catch {
            fatalError("the client refuses its own configuration: \(error)")
        }
        do throws(APIError) {
            let value = try await endpoint.call(client)
            // Logout signs out whatever the server says to a 401; uploadPhotos reports failures per photo.
            let mayPass =
                (200...299).contains(status) || (endpoint == .logout && status == 401) || endpoint == .uploadPhotos
            expect(mayPass, "\(endpoint) succeeded on HTTP \(status)")
            if let receipt = value as? PhotoReceipt {
                expect(receipt.created == (status == 201), "a receipt is new exactly on 201")
            }
        } catch {
            checkError(error)
            if let got = error.status {
                expect(got == status, "an error reports the status that arrived (\(got), not \(status))")
            }
            if (200...299).contains(status) {
                expect(error.code == .invalidResponse, "a 2xx answer fails only as not the API, got \(error.code)")
            }
        }
    }
    finished.semaphore.wait()
    return 0
}
