import ArgumentParsing
import Models
import ServerStore

/// `jqc-server admin user ...`: the people who sign in, named noun first.
extension AdminCommands {
    /// `user add --role`, required.
    static let role = Option(
        "role", "ROLE", help: "inspector, supervisor, admin, crew or client (required)", as: People.roles)
    /// `user add --facility`: a client's facilities.
    static let clientFacility = Option(
        repeating: "facility", "ID", help: "a facility a client may see (repeat it for each; clients only)")
    /// `user facilities`' list.
    static let facilityList = Argument("IDS", help: "the facilities, comma-separated: exactly those from now on")
    /// `user role`'s new role.
    static let newRole = Argument(
        "ROLE", help: "the new role", values: UserRole.allCases.map(\.rawValue), as: People.roles)
    /// `user update --display-name`, required.
    static let displayName = Option("display-name", "NAME", help: "the name shown in history and the roll-up")

    static let userCommands: [AdminCommand] = [
        AdminCommand(
            "user add", summary: "add a user (password read from stdin)",
            positionals: [People.newUsername.spec],
            options: [role.spec, People.displayName.spec, clientFacility.spec],
            discussion:
                "The password, at least \(Administration.shortestPassword) characters, is asked without echo at a terminal, or read from the first line of standard input. A user name that is taken is refused (exit 7): change that user with 'admin user set-password', 'user role' or 'user update'."
        ) { parsed, admin throws(ServerError) in
            guard let role = try parsed[role] else {
                throw ServerError.badRequest(
                    "'admin user add' needs --role inspector, supervisor, admin, crew or client")
            }
            let facilities = try parsed[clientFacility]
            try Administration.checkFacilities(facilities, role: role)
            let username = try parsed[People.newUsername]
            let user = try admin.addUser(
                username: username, password: PasswordInput.read(for: username), role: role,
                displayName: try parsed[People.displayName], facilities: facilities, by: actor)
            let sees = facilities.isEmpty ? "" : "; sees \(facilities.map(show).joined(separator: ", "))"
            return AdminOutput(
                lines: ["user \(show(user.username)) (\(user.role.rawValue)) has id \(user.id)\(sees)"],
                json: ["user": AdminWire.user(user, facilities: facilities)])
        },
        AdminCommand("user list", as: older("users")),
        AdminCommand(
            "user disable", summary: "disable a user: every session ends at once; their reports stay",
            positionals: [People.user.spec]
        ) { parsed, admin throws(ServerError) in
            let user = try admin.setUserDisabled(try parsed[People.user], disabled: true, by: actor)
            return AdminOutput(
                lines: ["user \(show(user.username)) is disabled; every session of theirs is signed out"],
                json: ["user": AdminWire.user(user)])
        },
        AdminCommand(
            "user enable", summary: "enable a disabled user: they may sign in again",
            positionals: [People.user.spec]
        ) { parsed, admin throws(ServerError) in
            let user = try admin.setUserDisabled(try parsed[People.user], disabled: false, by: actor)
            return AdminOutput(lines: ["user \(show(user.username)) is enabled"], json: ["user": AdminWire.user(user)])
        },
        AdminCommand(
            "user role", summary: "change a user's role; it takes effect on their next request",
            positionals: [People.user.spec, newRole.spec]
        ) { parsed, admin throws(ServerError) in
            let user = try admin.changeUser(
                try parsed[People.user], role: try parsed[newRole], displayName: nil, by: actor)
            return AdminOutput(
                lines: ["user \(show(user.username)) is a \(user.role.rawValue)"], json: ["user": AdminWire.user(user)])
        },
        AdminCommand(
            "user update", summary: "change a user's display name, e-mail address or what reaches them by e-mail",
            positionals: [People.user.spec],
            options: [displayName.spec] + MailPeople.options
        ) { parsed, admin throws(ServerError) in
            let who = try parsed[People.user]
            let change = try MailPeople.change(parsed)
            let name = try parsed[displayName]
            guard name != nil || !change.isEmpty else {
                throw ServerError.badRequest(
                    "'admin user update' needs --display-name NAME, --email ADDRESS, --alerts LIST, --digest or --lock-digest"
                )
            }
            var lines: [String] = []
            var renamed: StoredUser?
            if let name {
                let user = try admin.changeUser(who, role: nil, displayName: name, by: actor)
                lines.append("user \(show(user.username)) is named \(show(user.displayName))")
                renamed = user
            }
            guard !change.isEmpty else {
                return AdminOutput(lines: lines, json: ["user": renamed.map { AdminWire.user($0) } ?? .null])
            }
            let setup = try admin.changeMail(who, change, asAdmin: true, by: actor)
            lines += MailPeople.lines(setup)
            return AdminOutput(
                lines: lines, json: ["user": AdminWire.user(renamed ?? setup.user), "mail": AdminWire.mail(setup)])
        },
        AdminCommand(
            "user facilities", summary: "name exactly the facilities a client may see",
            positionals: [People.user.spec, facilityList.spec]
        ) { parsed, admin throws(ServerError) in
            let ids = try parsed[facilityList].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            var edit = Administration.UserChange()
            edit.facilities = ids
            let user = try admin.updateUser(try parsed[People.user], edit, by: actor)
            return AdminOutput(
                lines: ["client \(show(user.username)) sees \(ids.map(show).joined(separator: ", "))"],
                json: ["user": AdminWire.user(user, facilities: ids)])
        },
        AdminCommand("user set-password", as: older("set-password")),
    ]

    /// The users as a table; `empty` when there are none.
    /// The users as a table, a client's facilities under SEES; `empty` when there are none.
    static func userTable(_ list: [(user: StoredUser, facilities: [String]?)], empty: String) -> [String] {
        table(
            ["ID", "USERNAME", "ROLE", "NAME", "STATE", "SEES"],
            list.map { user, facilities in
                [
                    user.id, user.username, user.role.rawValue, user.displayName,
                    user.isDisabled ? "disabled" : "active",
                    facilities.map { $0.isEmpty ? "nothing" : $0.joined(separator: ",") } ?? "",
                ]
            },
            empty: empty)
    }
}
