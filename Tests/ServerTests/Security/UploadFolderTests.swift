import Foundation
import Models
import Testing
import TestSupport

/// Uploads stream to a local folder before they are checked and stored. A
/// folder someone else can write in would let them swap a half-written
/// upload for a link to a file of the server's, or for forged bytes: the
/// folder must be the server's own, and an upload is read only through the
/// descriptor it was written and hashed through.
@Suite("Security: the upload folder and uploads swapped under the server", .serialized, .timeLimit(.minutes(3)))
struct UploadFolderTests {
    /// A folder owned by `nobody`, writable by everyone, as an attacker would plant it.
    static func plant(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(chown(path, 65_534, 65_534) == 0 && chmod(path, 0o777) == 0)
    }

    @Test("an upload folder another user owns, or a link, is refused at start with one line; nothing is served from it")
    func plantedFolderRefused() throws {
        // SQLite: the folder beside the database.
        let planted = TemporaryDirectory()
        let database = planted.path("server.db")
        try Self.plant(database + ".photos/incoming")
        let sqlite = try Programs.run("jqc-server", ["--db", database, "--port", "0"])
        #expect(sqlite.status == 1)
        #expect(sqlite.stderr.contains("belongs to another user"), "\(sqlite.stderr)")
        #expect(sqlite.stderr.split(separator: "\n").count == 1)

        // PostgreSQL: --upload-dir another user owns, or a link to a folder.
        let url = try ServerDatabases.freshPostgres()
        let theirs = planted.path("theirs")
        try Self.plant(theirs)
        let owned = try Programs.run("jqc-server", ["--db", url, "--port", "0", "--upload-dir", theirs])
        #expect(owned.status == 1)
        #expect(owned.stderr.contains("belongs to another user"), "\(owned.stderr)")
        let link = planted.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: planted.path("elsewhere"))
        try FileManager.default.createDirectory(atPath: planted.path("elsewhere"), withIntermediateDirectories: true)
        let linked = try Programs.run("jqc-server", ["--db", url, "--port", "0", "--upload-dir", link])
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("symbolic link"), "\(linked.stderr)")
    }

    @Test(
        "without --upload-dir, a folder made fresh: one planted at the old fixed name is never used; the folder goes when the server stops, and an admin command leaves none"
    )
    func freshFolderByDefault() async throws {
        let temporary = TemporaryDirectory()
        let squatted = temporary.path("jqc-server-uploads-\(getuid())")
        try Self.plant(squatted)
        let server = try ServerProcess(
            ["--demo"], database: try ServerDatabases.freshPostgres(), environment: ["TMPDIR": temporary.url.path],
            uploadFolder: false)
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(40_000)
        let fields = [("local_id", UUID().uuidString.lowercased()), ("sha256", try PhotoContractTests.sha256(photo))]
        let uploaded = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(uploaded.status == 201)
        #expect(try FileManager.default.contentsOfDirectory(atPath: squatted).isEmpty)
        let fresh = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).filter {
            $0.hasPrefix("jqc-server-uploads-") && $0 != "jqc-server-uploads-\(getuid())"
        }
        #expect(fresh.count == 1, "\(fresh)")
        var status = stat()
        #expect(
            lstat(temporary.path(fresh.first ?? ""), &status) == 0 && status.st_mode & 0o777 == 0o700
                && status.st_uid == geteuid())

        // Stopped, the server takes its folder with it; restarts and admin commands do not pile folders up.
        #expect(server.stop() == 0)
        let made = { () -> [String] in
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary.url.path)) ?? [])
                .filter { $0.hasPrefix("jqc-server-uploads-") && $0 != "jqc-server-uploads-\(getuid())" }
        }
        #expect(made().isEmpty, "\(made())")
        let admin = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "users"], environment: ["TMPDIR": temporary.url.path])
        #expect(admin.status == 0, "\(admin.stderr)")
        #expect(made().isEmpty, "\(made())")
    }

    @Test(
        "a half-written upload replaced by a link to a secret file, of the same size, is stored as sent: the secret is never served"
    )
    func swappedUploadStoredAsSent() async throws {
        let server = try ServerProcess(["--demo"])
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(200_000)
        let secret = server.directory.path("secret")
        let secretBytes = Data(repeating: 0x53, count: photo.count)
        try secretBytes.write(to: URL(fileURLWithPath: secret))
        chmod(secret, 0o600)

        let boundary = "jqc-swap-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in [
            ("local_id", UUID().uuidString.lowercased()), ("sha256", try PhotoContractTests.sha256(photo)),
        ] {
            body.append(
                Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        body.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                    .utf8))
        body.append(photo)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        let request = RawHTTP.request(
            "POST", "/api/v1/reports/\(serverID)/photos", token: me.accessToken, body: body,
            contentType: "multipart/form-data; boundary=\(boundary)")
        let connection = try RawConnection(port: RawHTTP.port(of: server))
        let half = request.count - photo.count / 2
        #expect(connection.send(request.prefix(half)))
        // The upload is half written: swap it for a link to the secret file.
        var upload: String?
        for _ in 0..<200 where upload == nil {
            upload = (try? FileManager.default.contentsOfDirectory(atPath: server.uploadDirectory))?.first {
                $0.hasPrefix("upload-")
            }
            if upload == nil { usleep(20_000) }
        }
        let name = try #require(upload, "the upload is being written in \(server.uploadDirectory)")
        let path = server.uploadDirectory + "/" + name
        #expect(unlink(path) == 0)
        #expect(symlink(secret, path) == 0)
        let answer = connection.exchange(request.suffix(from: request.startIndex + half))
        #expect(answer?.status == 201, "\(answer?.error ?? "no answer")")

        // What is stored and served is the photo sent, never the secret.
        let stored = try #require(answer?.json["data"]?["photo"]?["url"]?.stringValue)
        let download = try await me.client.send("GET", server.baseURL + stored, token: me.accessToken)
        #expect(download.status == 200)
        #expect(download.body == photo)
        #expect(download.body != secretBytes)
    }
}
