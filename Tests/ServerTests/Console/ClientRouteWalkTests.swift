import Foundation
import Models
import Testing
import TestSupport

@testable import ServerCore

/// The isolation walk: every console page (`ConsoleEndpoint`) and every
/// API route (`Router.table`), each method it answers, opened by each of two
/// clients with the other client's ids (reports, photos, print views,
/// actions, uploads, facilities, areas) and with their own ids of what they
/// must not see (a report under review, an internal action, a private
/// photo). Each is 404 or 403; the pages a client opens without an id show
/// none of it, whatever filter names it. Both stores: the server suite runs
/// again on PostgreSQL.
@Suite("Every page and route, walked by each client with the other's ids")
struct ClientRouteWalkTests {
    /// What one client holds, and what they must never reach.
    struct World {
        var facility: String
        var facilityName: String
        var area: String
        var userID: String
        var approved: String
        var waiting: String
        var publicPhoto: String
        var privatePhoto: String
        var publicAction: String
        var publicTitle: String
        var internalAction: String
        var internalTitle: String
        var request: String
        var requestPhoto: String
        var upload: String
        var secret: String
    }

    @Test("each client opens every console page and API route with the other's ids: 404 or 403 everywhere")
    func walk() async throws {
        let server = try ClientIsolationTests.server()
        defer { _ = server.stop() }
        let clara = try await Self.world(
            server, "clara", site: "F-100", area: "A-102", name: "Harbourview Office Tower")
        let colin = try await Self.world(
            server, "colin", site: "F-200", area: "A-201", name: "Riverside Medical Centre")
        for (me, other, password) in [(clara, colin, "clara-client-pass"), (colin, clara, "colin-client-pass")] {
            let username = me.facility == "F-100" ? "clara" : "colin"
            let browser = ConsoleClient(server)
            try browser.signIn(username, password)
            let seen = try walkConsole(browser, me: me, other: other)
            let api = try await Session.login(server, username, password)
            let reached = try await walkAPI(api, me: me, other: other)
            #expect(seen > 40 && reached > 60, "\(username) walked \(seen) console and \(reached) API requests")
        }
    }

    /// The console as `me` with `other`'s ids; the number of requests made.
    func walkConsole(_ browser: ConsoleClient, me: World, other: World) throws -> Int {
        let csrf = try browser.csrf()
        let forbidden = Self.markers(me: me, other: other)
        var count = 0
        for endpoint in ConsoleEndpoint.allCases where endpoint.audience != .everyone {
            for values in Self.consoleValues(endpoint, me: me, other: other) {
                var path = endpoint.path(filling: values)
                if values.isEmpty { path += Self.foreignFilters(other: other, me: me) }
                for method in endpoint.methods.sorted() {
                    count += 1
                    let answer =
                        method == "GET"
                        ? try browser.get(path)
                        : try browser.post(
                            path,
                            [
                                ("csrf", csrf), ("facility", other.facility), ("area", other.area),
                                ("title", "Walk"), ("comment", "Walk"), ("decision", "approve"), ("revision", "1"),
                                ("request_id", UUID().uuidString.lowercased()),
                            ])
                    if endpoint == .mail && method == "POST" {
                        // My e-mail changes the client's own choices only (the form names nobody else).
                        #expect(answer.status == 303, "\(method) \(path): \(answer.status)")
                    } else if values.isEmpty && endpoint.audience != .staff && !(method == "POST") {
                        // A page of the client's own: shown, with nothing of anyone else's.
                        #expect(answer.status == 200, "\(method) \(path): \(answer.status)")
                        // An id the request names may be echoed in a refusal; nothing else may show.
                        for marker in forbidden where !path.contains(marker) {
                            #expect(!answer.text.contains(marker), "\(method) \(path) shows '\(marker)'")
                        }
                    } else {
                        #expect([403, 404].contains(answer.status), "\(method) \(path): \(answer.status)")
                        // An id the request names may be echoed in a refusal; nothing else may show.
                        for marker in forbidden where !path.contains(marker) {
                            #expect(!answer.text.contains(marker), "\(method) \(path) shows '\(marker)'")
                        }
                    }
                }
            }
        }
        return count
    }

    /// Every API route as `me` with `other`'s ids; the number of requests made.
    func walkAPI(_ session: Session, me: World, other: World) async throws -> Int {
        let forbidden = Self.markers(me: me, other: other)
        // Signing in, refreshing and signing out name no record; the walk keeps its session.
        let untouched: Set<String> = ["/auth/login", "/auth/refresh", "/auth/logout"]
        let body: JSONValue = [
            "id": .string(UUID().uuidString.lowercased()), "facility_id": .string(other.facility),
            "area_id": .string(other.area), "title": "Walk", "comment": "Walk", "decision": "approve", "revision": 1,
            "local_id": .string(UUID().uuidString.lowercased()), "sha256": .string(String(repeating: "a", count: 64)),
            "byte_size": 10, "name": "Walk", "role": "client", "facility_ids": [.string(other.facility)],
        ]
        var count = 0
        for route in Router.table where !untouched.contains(route.pattern) {
            let names = Self.parameterNames(route.pattern)
            for values in Self.apiValues(names, me: me, other: other) {
                var path = route.pattern
                for (name, value) in zip(names, values) {
                    path = path.replacingOccurrences(of: "{\(name)}", with: value)
                }
                if names.isEmpty && route.method == "GET" { path += Self.foreignFilters(other: other, me: me) }
                count += 1
                let url = session.server.url(path)
                let answer: TestResponse
                switch route.body {
                case .none:
                    answer = try await session.client.send(route.method, url, token: session.accessToken)
                case .json:
                    answer = try await session.client.send(route.method, url, json: body, token: session.accessToken)
                case .multipart:
                    let bytes = PhotoContractTests.jpeg(2_000)
                    answer = try await session.client.upload(
                        url,
                        fields: [
                            ("local_id", UUID().uuidString.lowercased()), ("field_id", "floors"),
                            ("sha256", try PhotoContractTests.sha256(bytes)),
                        ], file: bytes, token: session.accessToken)
                case .octets:
                    answer = try await session.client.send(
                        route.method, url, body: PhotoContractTests.jpeg(4_000), token: session.accessToken,
                        headers: ["Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"])
                }
                let text = String(decoding: answer.body, as: UTF8.self)
                for marker in forbidden where !path.contains(marker) {
                    #expect(!text.contains(marker), "\(route.method) \(path) shows '\(marker)'")
                }
                // What a client may ask without an id: who they are, their sites, their actions.
                if names.isEmpty && route.method == "GET"
                    && ["/auth/me", "/facilities", "/actions"].contains(route.pattern)
                {
                    #expect(answer.status == 200, "\(route.method) \(path): \(answer.status)")
                } else {
                    #expect([403, 404].contains(answer.status), "\(route.method) \(path): \(answer.status) \(text)")
                }
            }
        }
        return count
    }

    /// The strings of what `me` must never see: the other's names, ids,
    /// titles and notes, and their own reports under review, internal actions and private answers.
    static func markers(me: World, other: World) -> [String] {
        [
            other.facilityName, other.approved, other.waiting, other.publicPhoto, other.privatePhoto,
            other.publicAction, other.publicTitle, other.internalAction, other.internalTitle, other.request,
            other.requestPhoto, other.secret, me.waiting, me.internalAction, me.internalTitle, me.privatePhoto,
            me.secret,
        ]
    }

    /// A query naming the other's records in every filter a page reads.
    static func foreignFilters(other: World, me: World) -> String {
        "?facility=\(other.facility)&facility_id=\(other.facility)&area=\(other.area)&area_id=\(other.area)"
            + "&state=open&month=2026-12&review_state=awaiting_review&assignee=\(other.userID)&owner=\(other.userID)"
    }

    /// The values a console page's parameters take in the walk.
    static func consoleValues(_ endpoint: ConsoleEndpoint, me: World, other: World) -> [[String]] {
        let reports = [other.approved, other.waiting, me.waiting]
        switch endpoint.parameters {
        case []: return [[]]
        case ["server_id"]: return reports.map { [$0] }
        case ["server_id", "local_id"]:
            return reports.flatMap { report in [other.publicPhoto, other.privatePhoto].map { [report, $0] } }
                + [[me.approved, me.privatePhoto], [me.approved, other.publicPhoto]]
        case ["facility_id"]: return [[other.facility]]
        case ["id"]: return [other.request, other.publicAction, me.internalAction].map { [$0] }
        case ["id", "local_id"]:
            return [
                [other.request, other.requestPhoto], [me.internalAction, other.requestPhoto],
                [me.publicAction, other.requestPhoto],
            ]
        case ["page"]: return [["users"], ["sites"], ["settings"]]
        default:
            Issue.record("the walk has no values for \(endpoint.pattern): add them")
            return []
        }
    }

    /// The values of an API route's parameters in the walk: each the other's, and what `me` must not see.
    static func apiValues(_ names: [String], me: World, other: World) -> [[String]] {
        let candidates: [String: [String]] = [
            "server_id": [other.approved, other.waiting, me.waiting],
            "local_id": [other.publicPhoto, other.privatePhoto, me.privatePhoto, other.requestPhoto],
            "id": [other.request, other.publicAction, me.internalAction, other.facility, other.area, other.userID],
            "upload_id": [other.upload],
            "facility_id": [other.facility],
            "username": ["colin", "clara"],
        ]
        var combinations: [[String]] = [[]]
        for name in names {
            guard let values = candidates[name] else {
                Issue.record("the walk has no values for the parameter {\(name)}: add them")
                return []
            }
            combinations = combinations.flatMap { head in values.map { head + [$0] } }
        }
        return combinations
    }

    static func parameterNames(_ pattern: String) -> [String] {
        pattern.split(separator: "/").compactMap { $0.hasPrefix("{") ? String($0.dropFirst().dropLast()) : nil }
    }

    /// One client's world: an approved report with a public and a private
    /// photo, one under review, a public and an internal action at their
    /// site, and their own request for service with a photo and an unfinished upload.
    static func world(_ server: ServerProcess, _ client: String, site: String, area: String, name: String)
        async throws -> World
    {
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let secret = "SECRET-\(client.uppercased())-\(UUID().uuidString.prefix(8))"
        func report(_ notes: String) async throws -> String {
            var document = ClientIsolationTests.appa(site, notes: notes)
            if case .object(var members) = document {
                members["area_id"] = .string(area)
                document = .object(members)
            }
            return try #require(try await inspector.syncOne(document)["server_id"]?.stringValue)
        }
        let approved = try await report(secret)
        let waiting = try await report("waiting at \(site)")
        func photo(_ field: String) async throws -> String {
            let bytes = PhotoContractTests.jpeg(3_000 + field.count)
            let localID = UUID().uuidString.lowercased()
            let sent = try await inspector.client.upload(
                server.url("/reports/\(approved)/photos"),
                fields: [("local_id", localID), ("field_id", field), ("sha256", try PhotoContractTests.sha256(bytes))],
                file: bytes, token: inspector.accessToken)
            try #require(sent.status == 201, "photo: \(sent.status)")
            return localID
        }
        let publicPhoto = try await photo("floors")
        let privatePhoto = try await photo("crew_notes")
        let decided = try await supervisor.post("/reports/\(approved)/review", ["decision": "approve", "revision": 1])
        try #require(decided.status == 200)
        func action(_ title: String, isInternal: Bool) async throws -> String {
            let made = try await supervisor.post(
                "/actions",
                [
                    "id": .string(UUID().uuidString.lowercased()), "facility_id": .string(site),
                    "title": .string(title), "internal": .bool(isInternal),
                ])
            return try #require(made.data["action"]?["id"]?.stringValue, "\(made.status)")
        }
        let publicTitle = "Public-\(client)-\(UUID().uuidString.prefix(6))"
        let internalTitle = "Internal-\(client)-\(UUID().uuidString.prefix(6))"
        let publicAction = try await action(publicTitle, isInternal: false)
        let internalAction = try await action(internalTitle, isInternal: true)

        // The client's request, sent from the console's form with a photo.
        let browser = ConsoleClient(server)
        try browser.signIn(client, "\(client)-client-pass")
        let form = try browser.get("/console/requests/new")
        let sent = try browser.postMultipart(
            "/console/requests/new",
            [
                ("csrf", ConsoleClient.field("csrf", in: form.text) ?? ""),
                ("request_id", UUID().uuidString.lowercased()), ("facility", site), ("area", area),
                ("title", "Request of \(client)"), ("description", "Please"),
            ], file: PhotoContractTests.jpeg(5_000))
        try #require(sent.status == 303, "request: \(sent.status) \(sent.text)")
        let location = try #require(sent.headers["location"])
        let request = String(location.split(separator: "?")[0].split(separator: "/").last ?? "")
        let held = try await supervisor.get("/actions/\(request)").data["action"]?["photos"]?.arrayValue ?? []
        let requestPhoto = try #require(held.first?["local_id"]?.stringValue, "the request's photo: \(held)")

        // An unfinished upload of the client's, to their own request.
        let api = try await Session.login(server, client, "\(client)-client-pass")
        let begun = try await api.post(
            "/actions/\(request)/uploads",
            [
                "local_id": .string(UUID().uuidString.lowercased()),
                "sha256": .string(String(repeating: "b", count: 64)), "byte_size": 4_000,
            ])
        try #require(begun.status == 201, "upload: \(begun.status)")
        let uploadURL = try #require(begun.data["upload"]?["url"]?.stringValue, "\(begun.data)")
        let upload = String(uploadURL.split(separator: "/").last ?? "")
        return World(
            facility: site, facilityName: name, area: area, userID: api.userID, approved: approved, waiting: waiting,
            publicPhoto: publicPhoto, privatePhoto: privatePhoto, publicAction: publicAction, publicTitle: publicTitle,
            internalAction: internalAction, internalTitle: internalTitle, request: request,
            requestPhoto: requestPhoto, upload: upload, secret: secret)
    }
}

/// The console's form of a request for service, with its photo.
@Suite("A client's request for service from the console, with a photo")
struct ClientRequestPhotoTests {
    @Test(
        "a file that is not a photo is refused with the form again and nothing recorded; the same form sent twice keeps one request and one photo"
    )
    func requestPhoto() async throws {
        let server = try ClientIsolationTests.server()
        defer { _ = server.stop() }
        let browser = ConsoleClient(server)
        try browser.signIn("clara", "clara-client-pass")
        let form = try browser.get("/console/requests/new")
        #expect(form.text.contains("enctype=\"multipart/form-data\"") && form.text.contains("type=\"file\""))
        let csrf = try #require(ConsoleClient.field("csrf", in: form.text))
        let supervisor = try await Session.supervisor(server)
        func requests() async throws -> [JSONValue] {
            (try await supervisor.get("/actions").data["actions"]?.arrayValue ?? []).filter {
                $0["source"]?["kind"] == "client"
            }
        }
        let fields = [
            ("csrf", csrf), ("request_id", UUID().uuidString.lowercased()), ("facility", "F-100"),
            ("title", "Wet floor <b>by</b> the lift"), ("description", String(repeating: "é", count: 3_000)),
        ]
        let refused = try browser.postMultipart("/console/requests/new", fields, file: Data("not a photo".utf8))
        #expect(refused.status == 415, "\(refused.status)")
        #expect(refused.text.contains("id=\"request-form\"") && refused.text.contains("Wet floor &lt;b&gt;by"))
        #expect(try await requests().isEmpty, "nothing recorded for a refused photo")

        let photo = PhotoContractTests.jpeg(6_000)
        let first = try browser.postMultipart("/console/requests/new", fields, file: photo)
        let again = try browser.postMultipart("/console/requests/new", fields, file: photo)
        #expect(first.status == 303 && again.status == 303)
        #expect(first.headers["location"] == again.headers["location"])
        let made = try await requests()
        #expect(made.count == 1)
        let action = try #require(made.first)
        #expect(action["description"]?.stringValue == String(repeating: "é", count: 3_000), "a long text part whole")
        let photos = action["photos"]?.arrayValue ?? []
        #expect(photos.count == 1)
        let id = try #require(action["id"]?.stringValue)
        let url = "/console/actions/\(id)/photos/\(photos.first?["local_id"]?.stringValue ?? "")"
        let served = try browser.get(url)
        #expect(served.status == 200 && served.body == photo, "the client sees their photo")
        #expect(try browser.get("/console/actions/\(id)").text.contains(url), "the request's page shows it")

        let empty = try browser.postMultipart(
            "/console/requests/new",
            [
                ("csrf", csrf), ("request_id", UUID().uuidString.lowercased()), ("facility", "F-100"),
                ("title", "No photo"),
            ],
            file: nil)
        #expect(empty.status == 303, "a file input left empty sends no photo")
        let noPhoto = try await requests().first { $0["title"] == "No photo" }
        #expect(noPhoto?["photos"]?.arrayValue?.isEmpty == true)
    }
}
