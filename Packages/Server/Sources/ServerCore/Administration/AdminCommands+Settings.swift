import ArgumentParsing
import Models
import ServerStore

/// `jqc-server admin settings set KEY VALUE` and `settings list`: the
/// organisation's time zone, name and logo.
extension AdminCommands {
    static let settingName = Argument(
        "KEY",
        help:
            "timezone (an IANA name, e.g. Europe/Paris), org-name, logo (a PNG or JPEG file), or visit-grace (hours after its window a visit with no inspection is missed)"
    )
    static let settingValue = Argument("VALUE", help: "the zone, the name, or the logo file's path")

    static let settingCommands: [AdminCommand] = [
        AdminCommand(
            "settings set", summary: "set the organisation's time zone, name or logo",
            positionals: [settingName.spec, settingValue.spec],
            discussion:
                "The time zone is checked against the system's zone database (/usr/share/zoneinfo); roll-ups count days, weeks, months and quarters in it. Until it is set they count in UTC."
        ) { parsed, admin throws(ServerError) in
            let name = try parsed[settingName]
            guard let setting = Administration.Setting(rawValue: name) else {
                throw ServerError.badRequest(
                    "there is no setting \(show(name)); set timezone, org-name, logo or visit-grace")
            }
            let shown = try admin.set(setting, to: try parsed[settingValue], by: actor)
            return AdminOutput(
                lines: ["\(setting.rawValue) is now \(show(shown))"],
                json: ["setting": .string(setting.rawValue), "value": .string(shown)])
        },
        AdminCommand("settings list", summary: "the organisation's settings") { _, admin throws(ServerError) in
            let all = try admin.settings()
            return AdminOutput(
                lines: table(["SETTING", "VALUE"], all.map { [$0.0.rawValue, $0.1 ?? "(not set)"] }, empty: ""),
                json: .object(
                    Dictionary(uniqueKeysWithValues: all.map { ($0.0.rawValue, $0.1.map(JSONValue.string) ?? .null) })))
        },
    ]
}
