import Foundation
import Models
import Testing
import TestSupport

/// Who a user is: ids and user names never look alike, each caller finds
/// a user by the one it means, and two names that read the same are one
/// name (both stores).
@Suite("Security trial: user names and ids")
struct UserIdentityTests {
    @Test("a user name in the form of a user id is refused; the console's people page finds a person by id only")
    func idsAndNamesAreDisjoint() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let victimName = AdminRules.unique("vic")
        let victim = try await AdminRules.addUser(admin, victimName)
        for name in [victim, "U-1f5217e4", "u-\(victim.dropFirst(2))"] {
            let twin = try await admin.post(
                "/admin/users", ["username": .string(name), "password": "a-long-password-1"])
            #expect(twin.status == 400, "\(name): \(twin.status)")
            #expect(twin.message.contains("id"), "\(twin.message)")
        }
        let console = ConsoleClient(server)
        #expect(try console.signIn("ada", "ada-admin-password").status == 303)
        let token = try console.csrf()
        let byName = try console.post(
            "/console/admin/user-change", [("csrf", token), ("id", victimName), ("display_name", "Taken")])
        #expect(byName.status == 404, "the console posts ids: a user name is no id")
        let byID = try console.post(
            "/console/admin/user-change", [("csrf", token), ("id", victim), ("display_name", "Vic Tim")])
        #expect(byID.status == 303)
        #expect(try await AdminRules.user(admin, id: victim)?["display_name"] == "Vic Tim")
    }

    @Test(
        "user names are one under NFKC and case folding; zero-width and format characters and mixed scripts are refused"
    )
    func lookAlikeNames() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let base = AdminRules.unique("zed")
        _ = try await AdminRules.addUser(admin, base)
        let fullwidth = String(
            String.UnicodeScalarView(base.unicodeScalars.map { Unicode.Scalar($0.value + 0xFEE0) ?? $0 }))
        for twin in [base.uppercased(), fullwidth] {
            let added = try await admin.post(
                "/admin/users", ["username": .string(twin), "password": "a-long-password-1"])
            #expect(added.status == 409, "\(twin): \(added.status) \(added.message)")
        }
        let composed = "r\u{E9}ne-" + base
        _ = try await AdminRules.addUser(admin, composed)
        let decomposed = try await admin.post(
            "/admin/users", ["username": .string("re\u{301}ne-" + base), "password": "a-long-password-1"])
        #expect(decomposed.status == 409, "\(decomposed.message)")
        for hidden in ["ad\u{200B}a-" + base, "ad\u{2060}a-" + base, "\u{FEFF}ada-" + base, "\u{0430}da-" + base] {
            let added = try await admin.post(
                "/admin/users", ["username": .string(hidden), "password": "a-long-password-1"])
            #expect(added.status == 400, "\(hidden.unicodeScalars.map(\.value)): \(added.status)")
        }
    }
}
