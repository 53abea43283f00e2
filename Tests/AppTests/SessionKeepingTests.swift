import Foundation
import Models
import Storage
import Sync
import Testing
import TestSupport
@testable import JQCCore

/// Tokens the server rotates are kept at once; when they cannot be (the
/// profile's folder is gone or unwritable), that is an error the person
/// sees, with what to do, never a silent loss of the session.
@Suite("rotated tokens are kept, or the person is told")
struct SessionKeepingTests {
    static let user = WireUser(id: "U-1", username: "inspector", role: .inspector, displayName: "Ida Inspector")

    @Test("a renewed session is saved where the next run reads it")
    func kept() throws {
        let folder = TemporaryDirectory(prefix: "session")
        let profile = Profile(dataDirectory: folder.url, credentialsDirectory: folder.url)
        let store = CredentialStore(profile: profile)
        let keep = SyncService.keeping(in: store, serverURL: "http://127.0.0.1:9", caFile: nil)
        let renewed = Credentials(accessToken: "A2", refreshToken: "R2", user: Self.user)
        try keep(renewed)
        #expect(try store.load()?.credentials == renewed)
    }

    @Test("a renewed session that cannot be saved is SESSION_NOT_SAVED, exit 6, saying what to do")
    func notKept() throws {
        let folder = TemporaryDirectory(prefix: "session")
        // Where the credentials folder should be there is a file: no write can succeed, whoever runs it.
        let blocked = folder.url.appendingPathComponent("not-a-folder")
        #expect(FileManager.default.createFile(atPath: blocked.path, contents: Data("x".utf8)))
        let store = CredentialStore(profile: Profile(dataDirectory: folder.url, credentialsDirectory: blocked))
        let keep = SyncService.keeping(in: store, serverURL: "http://127.0.0.1:9", caFile: nil)
        let error = #expect(throws: APIError.self) {
            try keep(Credentials(accessToken: "A2", refreshToken: "R2", user: Self.user))
        }
        #expect(error?.code == .sessionNotSaved)
        #expect(error?.message.contains("sign in again with 'jqc login'") == true, "\(error?.message ?? "")")
        let app = error.map(AppError.init(api:))
        #expect(app?.exitCode == ExitCode.authRequired)
        #expect(app?.code == .sessionNotSaved)
    }
}
