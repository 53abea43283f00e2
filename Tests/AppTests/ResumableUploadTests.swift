import Foundation
import Models
import Networking
import Sync
import Synchronization
import Storage
import Testing
import TestSupport

/// A 20 MB photo over a link that breaks after every 2 MB sent (`CuttingProxy`):
/// through resumable uploads (contract 1.1) it arrives whole, each byte sent
/// about once, by `jqc sync` and by a `jqc-agent` killed between breaks.
@Suite("Resumable photo uploads through a link that breaks", .serialized, .timeLimit(.minutes(10)))
struct ResumableUploadTests {
    static let cutEvery: Int64 = 2 * 1024 * 1024

    /// A completed report holding one photo of about 20 MB; its local id and the photo file's size and SHA-256.
    static func largePhotoReport(_ profile: DemoProfile) throws -> (id: String, size: Int64, sha256: String) {
        #expect(try profile.jqc(["settings", "photo-quality", "100"]).status == 0)
        #expect(try profile.jqc(["settings", "photo-max-edge", "4096"]).status == 0)
        #expect(try profile.jqc(["settings", "photo-cap-mb", "100"]).status == 0)
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let png = try profile.writeNoisePNG("noise.png", width: 3200, height: 3200)
        let added = try profile.jqc(["photo", "add", id, "--field", "14", png])
        try #require(added.status == 0, "photo add: \(added.stderr)")
        try #require(try profile.jqc(["complete", id]).status == 0)
        let photos = try FileManager.default.subpathsOfDirectory(atPath: profile.home).filter { $0.hasSuffix(".jpg") }
        let file = profile.home + "/" + (try #require(photos.first))
        let size = Int64(try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
        let sha = try SHA256.hex(ofFile: file)
        return (id, size, sha)
    }

    /// The photo as the server holds it, fetched whole and hashed.
    static func serverCopy(_ server: ServerProcess, reportLocalID: String, profile: DemoProfile) async throws -> (
        size: Int, sha256: String
    ) {
        let shown = try profile.jqc(["show", reportLocalID, "--json"])
        let serverID = try #require(
            try JSONValue.parse(Data(shown.stdout.utf8))["server_id"]?.stringValue, "show: \(shown.stdout)")
        let client = HTTPTestClient()
        let login = try await client.send(
            "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(login.data["access_token"]?.stringValue)
        let report = try await client.send("GET", server.url("/reports/\(serverID)"), token: token)
        let url = try #require(report.data["report"]?["photos"]?[0]?["url"]?.stringValue)
        let photo = try await client.send("GET", server.baseURL + url, token: token)
        return (photo.body.count, try SHA256.hex(of: photo.body))
    }

    /// Appends a figure to the file `JQC_BENCH_FIGURES` names, for BENCHMARKS.md (`Tools/bench/resume`).
    static func record(_ line: String) throws {
        guard let path = ProcessInfo.processInfo.environment["JQC_BENCH_FIGURES"] else { return }
        let old = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try (old + line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test(
        "jqc sync sends a 20 MB photo through a link cut every 2 MB with under 1.05 times its size, and the server holds it whole"
    )
    func syncThroughBreaks() async throws {
        let server = try ServerProcess()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let photo = try Self.largePhotoReport(profile)
        #expect(photo.size > 18_000_000, "the photo is \(photo.size) bytes")
        let proxy = try CuttingProxy(to: server.baseURL, cutEvery: Self.cutEvery)
        try profile.route(to: proxy.baseURL)
        let synced = try profile.jqc(["sync"])
        #expect(synced.status == 0, "sync: \(synced.stdout) \(synced.stderr)")
        #expect(proxy.cuts >= 9, "sync: \(synced.stdout) \(synced.stderr); server: \(server.stderr.suffix(3000))")
        #expect(
            Double(proxy.bytesUpstream) < 1.05 * Double(photo.size),
            "sent \(proxy.bytesUpstream) bytes for \(photo.size); \(synced.stdout) \(synced.stderr) server: \(server.stderr.split(separator: "\n").filter { $0.contains("upload") }.suffix(40).joined(separator: "\n"))"
        )
        let held = try await Self.serverCopy(server, reportLocalID: photo.id, profile: profile)
        #expect(Int64(held.size) == photo.size)
        #expect(held.sha256 == photo.sha256)
        let status = try profile.jqc(["show", photo.id, "--json"])
        #expect(status.stdout.contains("\"SYNCED\""), "show: \(status.stdout)")
        try Self.record(
            "jqc sync, resumable: \(proxy.bytesUpstream) bytes upstream for a \(photo.size)-byte photo, \(proxy.cuts) cuts"
        )
    }

    @Test(
        "an upload the server no longer holds when the device comes back (its bytes gone from the upload folder) is begun again: HEAD answers 404, and jqc sync sends the photo whole"
    )
    func goneUploadBegunAgain() async throws {
        let server = try ServerProcess(["--demo"], sqlite: true)
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let photo = try Self.largePhotoReport(profile)
        // jqc sync is SIGKILLed at the first break: the device keeps the upload's url and its offset.
        let running = Mutex<Int32>(0)
        let proxy = try CuttingProxy(to: server.baseURL, cutEvery: Self.cutEvery) { _ in
            running.withLock { pid in
                if pid > 0 { kill(pid, SIGKILL) }
                pid = 0
            }
        }
        try profile.route(to: proxy.baseURL)
        let first = try RunningProgram("jqc", ["--home", profile.home, "sync"])
        running.withLock { $0 = first.pid }
        _ = first.wait()
        // The server keeps the bytes that arrived before the break, in the upload's file, once it has seen the cut.
        var partials: [String] = []
        let deadline = ContinuousClock.now + .seconds(20)
        while partials.isEmpty && ContinuousClock.now < deadline {
            partials = try FileManager.default.contentsOfDirectory(atPath: server.uploadDirectory).filter {
                $0.hasPrefix("partial-")
            }
            if partials.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(partials.count == 1, "one upload begun: \(partials)")
        // The server loses it (a restored database, an emptied upload folder).
        try FileManager.default.removeItem(atPath: server.uploadDirectory + "/" + partials[0])

        try profile.route(to: server.baseURL)
        let synced = try profile.jqc(["sync"])
        #expect(synced.status == 0, "sync: \(synced.stdout) \(synced.stderr)")
        let shown = try profile.show(photo.id)
        #expect(shown["state"] == "SYNCED")
        #expect(shown["photos"]?.arrayValue?.first?["upload_state"] == "UPLOADED", "\(shown["photos"] ?? "none")")
        let held = try await Self.serverCopy(server, reportLocalID: photo.id, profile: profile)
        #expect(Int64(held.size) == photo.size)
        #expect(held.sha256 == photo.sha256)
    }

    @Test(
        "a jqc-agent SIGKILLed after each break and started again finishes the photo from where the server got, under 1.05 times its size"
    )
    func agentKilledBetweenBreaks() async throws {
        let server = try ServerProcess()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let photo = try Self.largePhotoReport(profile)
        // The agent running now; it is SIGKILLed the moment the link breaks, from the proxy's own thread.
        let running = Mutex<Int32>(0)
        let kills = Mutex(0)
        let proxy = try CuttingProxy(to: server.baseURL, cutEvery: Self.cutEvery) { _ in
            running.withLock { pid in
                if pid > 0 {
                    kill(pid, SIGKILL)
                    kills.withLock { $0 += 1 }
                }
                pid = 0
            }
        }
        try profile.route(to: proxy.baseURL)
        func synced() throws -> Bool { try profile.jqc(["show", photo.id, "--json"]).stdout.contains("\"SYNCED\"") }
        var done = false
        let deadline = Date().addingTimeInterval(300)
        while !done && Date() < deadline {
            let agent = try RunningProgram("jqc-agent", ["--home", profile.home, "run", "--interval", "1"])
            running.withLock { $0 = agent.pid }
            var checked = Date()
            while agent.isRunning && !done && Date() < deadline {
                usleep(50_000)
                if Date().timeIntervalSince(checked) > 1 {
                    done = try synced()
                    checked = Date()
                }
            }
            running.withLock { $0 = 0 }
            kill(agent.pid, SIGKILL)
            _ = agent.wait()
            if !done { done = try synced() }
        }
        let killed = kills.withLock { $0 }
        #expect(done)
        #expect(killed >= 5, "the agent was killed \(killed) times")
        #expect(
            Double(proxy.bytesUpstream) < 1.05 * Double(photo.size),
            "sent \(proxy.bytesUpstream) bytes for \(photo.size)")
        let held = try await Self.serverCopy(server, reportLocalID: photo.id, profile: profile)
        #expect(Int64(held.size) == photo.size)
        #expect(held.sha256 == photo.sha256)
        try Self.record(
            "jqc-agent killed \(killed) times, resumable: \(proxy.bytesUpstream) bytes upstream for a \(photo.size)-byte photo, \(proxy.cuts) cuts"
        )
    }

    @Test(
        "a jqc-agent SIGKILLed three quarters of the way through 40 photos has recorded those the server stored: started again, it begins uploads for the others only"
    )
    func agentKilledAmidManyPhotos() async throws {
        let server = try ServerProcess(["--demo"], sqlite: true)
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let count = 40
        let files = try (0..<count).map { index in
            try profile.writeNoisePNG("noise-\(index).png", width: 320, height: 320, seed: UInt32(index + 1))
        }
        let added = try profile.jqc(["photo", "add", id, "--field", "14"] + files)
        try #require(added.status == 0, "photo add: \(added.stderr)")
        try #require(try profile.jqc(["complete", id]).status == 0)
        let sizes = try FileManager.default.subpathsOfDirectory(atPath: profile.home).filter { $0.hasSuffix(".jpg") }
            .map { try FileManager.default.attributesOfItem(atPath: profile.home + "/" + $0)[.size] as? Int ?? 0 }
        try #require(sizes.count == count)
        // The link breaks once three quarters of the photos' bytes have gone up, and the agent is SIGKILLed then.
        let running = Mutex<Int32>(0)
        let proxy = try CuttingProxy(to: server.baseURL, cutEvery: Int64(sizes.reduce(0, +) * 3 / 4)) { _ in
            running.withLock { pid in
                if pid > 0 { kill(pid, SIGKILL) }
                pid = 0
            }
        }
        try profile.route(to: proxy.baseURL)
        let first = try RunningProgram("jqc-agent", ["--home", profile.home, "run", "--once"])
        running.withLock { $0 = first.pid }
        let cut = first.wait()
        running.withLock { $0 = 0 }
        #expect(proxy.cuts == 1, "the agent was not cut short: \(cut.stdout) \(cut.stderr)")

        func uploaded() throws -> Int {
            try profile.show(id)["photos"]?.arrayValue?.filter { $0["upload_state"] == "UPLOADED" }.count ?? 0
        }
        // Before each upload past the first 20 began, at least 16 answers had come and been recorded.
        let recorded = try uploaded()
        #expect(recorded >= 16, "photos recorded as uploaded when the agent was killed: \(recorded)")
        #expect(recorded < count)
        let logged = server.stderr.utf8.count
        try profile.route(to: server.baseURL)
        let second = try profile.agent(["run", "--once"])
        #expect(second.status == 0, "agent: \(second.stdout) \(second.stderr)")
        #expect(try profile.show(id)["state"] == "SYNCED")
        #expect(try uploaded() == count)
        // No photo recorded as uploaded is begun again; the others are, each once.
        let begun = String(decoding: server.stderr.utf8.dropFirst(logged), as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("\"method\":\"POST\"") && $0.contains("/uploads\"") }.count
        #expect(
            begun == count - recorded, "uploads begun after the restart: \(begun), photos left: \(count - recorded)")
    }

    @Test(
        "the multipart route of contract 1.0 through the same link never finishes the 20 MB photo: each attempt starts over and is cut"
    )
    func multipartThroughBreaks() async throws {
        let server = try ServerProcess()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let photo = try Self.largePhotoReport(profile)
        #expect(try profile.jqc(["sync"]).status == 0)
        let shown = try profile.jqc(["show", photo.id, "--json"])
        let serverID = try #require(try JSONValue.parse(Data(shown.stdout.utf8))["server_id"]?.stringValue)
        let file = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: profile.home).first { $0.hasSuffix(".jpg") })
        let proxy = try CuttingProxy(to: server.baseURL, cutEvery: Self.cutEvery)
        let client = try APIClient(
            configuration: .init(serverURL: proxy.baseURL, appVersion: "0.1.0", deviceID: UUID()),
            transport: CurlTransport())
        _ = try await client.login(username: "inspector", password: "inspector-pass")
        let before = proxy.bytesUpstream
        let attempts = 10
        var stored = false
        // As a device of contract 1.0 does, cycle after cycle: the whole photo again from its first byte.
        for _ in 0..<attempts where !stored {
            do {
                _ = try await client.uploadPhoto(
                    PhotoUpload(
                        serverID: serverID, localID: UUID(), sha256: photo.sha256,
                        filePath: profile.home + "/" + file))
                stored = true
            } catch {
                #expect(error.code == .connectionLost)
            }
        }
        #expect(!stored)
        let sent = proxy.bytesUpstream - before
        #expect(sent > Int64(attempts - 1) * Self.cutEvery)
        try Self.record(
            "multipart (contract 1.0): never done after \(attempts) attempts, \(sent) bytes upstream for a \(photo.size)-byte photo"
        )
    }
}
