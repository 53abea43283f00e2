import Foundation

/// Where one user's jqc data lives: the store, the photos and the credentials.
///
/// Resolved as `--home DIR` > `JQC_HOME` > `$XDG_DATA_HOME/jqc` (default
/// `~/.local/share/jqc`). Credentials live in the home when one was given,
/// else under `$XDG_CONFIG_HOME/jqc` (default `~/.config/jqc`).
public struct Profile: Sendable, Hashable {
    /// The folder holding the store and the photos.
    public let dataDirectory: URL
    /// The folder holding the credentials file.
    public let credentialsDirectory: URL

    /// A profile with these two folders.
    public init(dataDirectory: URL, credentialsDirectory: URL) {
        self.dataDirectory = dataDirectory.standardizedFileURL
        self.credentialsDirectory = credentialsDirectory.standardizedFileURL
    }

    /// Resolves the profile from an explicit `--home` and the environment.
    public static func resolve(
        home: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Profile {
        let cwd = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> URL {
            URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).absoluteURL
        }
        if let home = nonEmpty(home) ?? nonEmpty(environment["JQC_HOME"]) {
            let url = absolute(home)
            return Profile(dataDirectory: url, credentialsDirectory: url)
        }
        let userHome =
            nonEmpty(environment["HOME"]).map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        // The XDG spec says relative values are to be ignored.
        func xdg(_ name: String, default fallback: String) -> URL {
            if let value = nonEmpty(environment[name]), value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return userHome.appendingPathComponent(fallback, isDirectory: true)
        }
        return Profile(
            dataDirectory: xdg("XDG_DATA_HOME", default: ".local/share").appendingPathComponent(
                "jqc", isDirectory: true),
            credentialsDirectory: xdg("XDG_CONFIG_HOME", default: ".config").appendingPathComponent(
                "jqc", isDirectory: true))
    }

    /// The store file, `jqc.sqlite` in the data folder.
    public var storePath: String { dataDirectory.appendingPathComponent("jqc.sqlite").path }

    /// The app-private photo folder, `photos/` in the data folder.
    public var photosDirectory: URL { dataDirectory.appendingPathComponent("photos", isDirectory: true) }

    /// Creates the data, photo and credentials folders, mode 0700.
    public func createDirectories() throws(StorageError) {
        try PhotoFileStore.makePrivateDirectory(dataDirectory.path)
        try PhotoFileStore.makePrivateDirectory(photosDirectory.path)
        try PhotoFileStore.makePrivateDirectory(credentialsDirectory.path)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
