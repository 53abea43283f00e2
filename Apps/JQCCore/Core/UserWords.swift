import Foundation
import Models

extension WireUser {
    /// Who this is, each fact said once: "Ivy Inspector (username ivy, role
    /// inspector)", "Ivy Inspector (username and role: inspector)" when the
    /// username is the role's name, "ivy (role inspector)" without a display
    /// name of its own. Server text, so escaped to one line.
    public var identity: String {
        let name = displayName.trimmingCharacters(in: .whitespaces).isEmpty ? username : displayName
        let details =
            name.lowercased() == username.lowercased()
            ? "role \(role.rawValue)"
            : username == role.rawValue
                ? "username and role: \(role.rawValue)"
                : "username \(oneLine(username)), role \(role.rawValue)"
        return "\(oneLine(name)) (\(details))"
    }

    /// The account and its role in a sentence: "signed in as an inspector"
    /// when the username is the role's name, else "signed in as ivy, an inspector".
    public var signedInAs: String {
        let role = self.role.withArticle
        return username == self.role.rawValue ? "signed in as \(role)" : "signed in as '\(oneLine(username))', \(role)"
    }
}
