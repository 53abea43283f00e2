import Foundation
import Models
import Testing
import TestSupport

/// Two `jqc-server` processes on one PostgreSQL database, as behind a load
/// balancer, with real devices (`jqc`, `jqc-agent`) syncing through both in
/// turn and one instance killed with SIGKILL in the middle of a burst.
@Suite("Many instances, one database: real devices through two servers", .timeLimit(.minutes(5)))
struct MultiInstanceTests {
    /// Makes, answers and completes a report with `photos` photos of the image field.
    private func completed(_ profile: DemoProfile, photos: Int, seed: UInt32) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        if photos > 0 {
            let files = try (0..<photos).map { index in
                try profile.writeJPEG(
                    "p\(seed)-\(index).jpg", width: 640, height: 480, seed: seed &* 31 &+ UInt32(index))
            }
            let added = try profile.jqc(["photo", "add", id, "--field", "14"] + files)
            try #require(added.status == 0, "photo add: \(added.stderr)")
        }
        try #require(try profile.jqc(["complete", id]).status == 0)
        return id
    }

    @Test(
        "devices syncing alternately through two instances, one SIGKILLed mid-burst and restarted: every report once, none lost, every photo whole"
    )
    func killedMidBurst() throws {
        let url = try ServerDatabases.freshPostgres()
        // The instance to be killed answers each request 100 ms late, so the burst is still under way when it dies.
        var first = try ServerProcess(["--demo", "--latency-ms", "100"], database: url)
        let second = try ServerProcess([], database: url)
        let ivy = try DemoProfile.signedIn(to: first.baseURL)
        let ada = try DemoProfile.signedIn(to: second.baseURL)
        var made: [(DemoProfile, String)] = []
        var photos = 0

        // Round 1: each device through its own instance, then through the other.
        for round in 0..<2 {
            for (index, profile) in [ivy, ada].enumerated() {
                try profile.route(to: (round + index) % 2 == 0 ? first.baseURL : second.baseURL)
                for report in 0..<3 {
                    made.append(
                        (
                            profile,
                            try completed(
                                profile, photos: report == 0 ? 1 : 0, seed: UInt32(round * 10 + index * 5 + report))
                        ))
                    photos += report == 0 ? 1 : 0
                }
                let synced = try profile.jqc(["sync"])
                #expect(synced.status == 0, "\(synced.stderr)")
            }
        }

        // A burst through the first instance, which is killed once part of it has landed.
        try ivy.route(to: first.baseURL)
        var burst: [String] = []
        for report in 0..<12 {
            burst.append(try completed(ivy, photos: report % 3 == 0 ? 2 : 0, seed: UInt32(100 + report)))
            photos += report % 3 == 0 ? 2 : 0
        }
        made += burst.map { (ivy, $0) }
        let before = Int(try ServerDatabases.query(url, "SELECT COUNT(*) FROM reports")) ?? 0
        let agent = try Programs.start("jqc-agent", ["--home", ivy.home, "run", "--once"])
        let deadline = Date().addingTimeInterval(30)
        func landed() throws -> Int { Int(try ServerDatabases.query(url, "SELECT COUNT(*) FROM reports")) ?? 0 }
        while Date() < deadline, try landed() == before {
            Thread.sleep(forTimeInterval: 0.005)
        }
        kill(first.pid, SIGKILL)
        _ = first.stop()
        agent.wait()
        let photosAtKill = Int(try ServerDatabases.query(url, "SELECT COUNT(*) FROM photos")) ?? 0
        #expect(
            photosAtKill < photos, "the kill came before the burst's photos were all up (\(photosAtKill) of \(photos))")

        // The device carries on through the survivor; the killed instance comes back on the same database.
        try ivy.route(to: second.baseURL)
        _ = try ivy.jqc(["retry"])
        let rescued = try ivy.agent(["run", "--once"])
        #expect(rescued.status == 0, "\(rescued.stderr)")
        first = try ServerProcess([], database: url)
        try ada.route(to: first.baseURL)
        made.append((ada, try completed(ada, photos: 1, seed: 500)))
        photos += 1
        #expect(try ada.jqc(["sync"]).status == 0)

        for (profile, id) in made {
            #expect(try profile.show(id)["state"] == "SYNCED", "\(id)")
        }
        let ids = made.map { "'\($0.1.lowercased())'" }.joined(separator: ",")
        #expect(
            try ServerDatabases.query(url, "SELECT COUNT(*) FROM reports") == String(made.count), "0 duplicates, 0 lost"
        )
        #expect(
            try ServerDatabases.query(url, "SELECT COUNT(*) FROM reports WHERE local_id IN (\(ids))")
                == String(made.count))
        #expect(try ServerDatabases.query(url, "SELECT COUNT(*) FROM photos") == String(photos))
        let whole = """
            SELECT COUNT(*) FROM photos p JOIN photo_blobs b ON b.sha256 = p.sha256
            WHERE b.byte_size = p.byte_size
              AND b.byte_size = (SELECT SUM(length(c.bytes)) FROM photo_chunks c WHERE c.sha256 = b.sha256)
            """
        #expect(try ServerDatabases.query(url, whole) == String(photos), "every photo's bytes are whole")
        #expect(first.stop() == 0 && second.stop() == 0)
    }
}
