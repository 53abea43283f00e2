import Foundation
import Models
import Networking
import Storage
import Synchronization
import Testing
import TestSupport
@testable import Sync

/// libcurl to the real server, noting for each sync request the reports it
/// carries and how many reports the device had recorded as SYNCED when it left.
private final class WatchedTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked Sendable: the only mutable state is behind the mutex.
    private let curl = CurlTransport(options: .init(connectTimeout: 5, totalTimeout: 20))
    private let store: LocalStore
    let requests = Mutex<[(ids: [String], syncedBefore: Int)]>([])

    init(store: LocalStore) { self.store = store }

    func send(_ request: HTTPRequest) async throws(NetworkingError) -> HTTPResponse {
        if request.url.hasSuffix("/reports/sync"), let body = request.body, let sent = try? JSONValue.parse(body) {
            let ids = sent["reports"]?.arrayValue?.compactMap { $0["local_id"]?.stringValue } ?? []
            let synced = (try? store.reports(state: .synced).count) ?? -1
            requests.withLock { $0.append((ids, synced)) }
        }
        return try await curl.send(request)
    }

    func upload(_ upload: MultipartUpload) async throws(NetworkingError) -> HTTPResponse {
        try await curl.upload(upload)
    }
}

@Suite("Batches written ahead while one is in flight")
struct PipelinedPushTests {
    @Test(
        "250 reports go in creation order, 100 at a time, each batch sent once the answer to the one before arrived, that answer recorded while it is in flight"
    )
    func creationOrderOneAnswerRecordedAtATime() async throws {
        let server = try ServerProcess(["--demo"])
        let t = try TestStore(.file)
        var created: [UUID] = []
        for index in 0..<250 {
            let report = try t.store.createReport(
                templateID: "lobby-walk", facilityID: "F-100", areaID: "A-102",
                answers: Answers(["entrance": "pass", "glass": 4, "notes": .string("report \(index)")]))
            try t.store.apply(.complete, to: report.localID, score: { _ in 0.9 })
            created.append(report.localID)
        }
        let transport = WatchedTransport(store: t.store)
        let client = try APIClient(
            configuration: .init(serverURL: server.baseURL, appVersion: "0.1.0", deviceID: UUID()),
            transport: transport)
        try await client.login(username: "inspector", password: "inspector-pass")
        let engine = SyncEngine(
            store: t.store, client: client, configuration: .init(retentionDays: 30, appVersion: "0.1.0"))

        let summary = try await engine.run()

        #expect(summary.accepted == 250)
        #expect(try t.store.reports(state: .synced).count == 250)
        let requests = transport.requests.withLock { $0 }
        #expect(requests.map(\.ids.count) == [100, 100, 50])
        #expect(requests.flatMap(\.ids) == created.map(\.wireString), "creation order (BR-04)")
        // When a batch leaves, every answer but the one just arrived is recorded (that one is recorded while
        // the batch is in flight, and may have begun): never more than one answer waits to be recorded.
        let synced = requests.map(\.syncedBefore)
        #expect(synced.first == 0)
        for (index, count) in synced.enumerated().dropFirst() {
            #expect(
                (100 * (index - 1))...(100 * index) ~= count, "batch \(index + 1) left with \(count) reports recorded")
        }
    }
}
