import ArgumentParsing
import Foundation
import Models
import Storage

/// status and settings.
public enum StatusCommands {
    public static var all: [Command] { [status, settings] }

    public static let status = Command(
        CommandSpec(
            "status",
            summary:
                "pending, conflicts, rejected, returned for changes, needs-attention, photos pending, last sync, online"
        )
    ) { (inv) throws(AppError) -> CommandOutput in
        let summary = try inv.context.status()
        let connection =
            !summary.signedIn
            ? "not signed in ('jqc login --server URL --username NAME' to sync)"
            : summary.online
                ? "online (the last attempt reached the server)" : "offline (the last attempt did not reach the server)"
        var lines = [
            "Connection:      \(connection)",
            "Drafts:          \(summary.drafts)",
            "Pending upload:  \(summary.pending)",
            "Conflicts:       \(summary.conflicts)",
            "Rejected:        \(summary.rejected)",
            "Returned:        \(summary.returned)\(summary.returned > 0 ? " for changes ('jqc returned' lists them; 'jqc amend ID' to change one)" : "")",
            "Needs attention: \(summary.needsAttention)",
            "Photos pending:  \(summary.photosPending)\(summary.photosFailed > 0 ? " (\(summary.photosFailed) failed)" : "")",
            "Last sync:       \(summary.lastSyncAt ?? "never")",
        ]
        if !summary.appVersionSupported {
            lines.append("Update required to create new reports; pending reports still upload.")
        } else if summary.pending > 0, !summary.signedIn {
            lines.append("Sign in to send them: \(summary.pending) report\(summary.pending == 1 ? "" : "s") pending.")
        } else if summary.pending > 0, !summary.online {
            lines.append("Waiting for network. \(summary.pending) report\(summary.pending == 1 ? "" : "s") pending.")
        }
        return CommandOutput(lines: lines, json: summary.json, showsStatusLine: false)
    }

    /// `settings NAME VALUE`: the setting to change, and its new value.
    private static let settingName = Argument(optional: "NAME", help: "the setting to change")
    private static let settingValue = Argument(optional: "VALUE", help: "its new value")

    public static let settings = Command(
        CommandSpec(
            "settings", summary: "show the profile's settings, or change one",
            positionals: [Self.settingName.spec, Self.settingValue.spec])
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.context.workspace()
        var current = workspace.settings
        if let name = try inv[Self.settingName] {
            guard let entry = Settings.entries.first(where: { $0.name == name }) else {
                throw AppError.usage(
                    "There is no setting '\(name)'. Settings: \(Settings.entries.map(\.name).joined(separator: ", ")).")
            }
            guard let text = try inv[Self.settingValue] else {
                throw AppError.usage(
                    "Give a value: 'jqc settings \(name) VALUE' (\(entry.range.lowerBound)-\(entry.range.upperBound)).")
            }
            current = try workspace.saveSetting(entry, typed: text)
        }
        return settingsTable(current)
    }

    /// The settings as `settings` prints them; the menu's settings screen shows the same.
    public static func settingsTable(_ current: Settings) -> CommandOutput {
        let rows = Settings.entries.map { [$0.name, String(current.value(of: $0)), $0.help] }
        return CommandOutput(
            lines: TextTable.render(["SETTING", "VALUE", "MEANING"], rows, maxColumn: 70),
            json: .object(
                Dictionary(
                    uniqueKeysWithValues: Settings.entries.map {
                        ($0.name.replacingOccurrences(of: "-", with: "_"), JSONValue.integer(current.value(of: $0)))
                    })))
    }
}
