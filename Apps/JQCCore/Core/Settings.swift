import Storage

/// The profile's adjustable settings, kept in the store so the CLI, the menu
/// and the agent agree. Each has a default an inspector never needs to change.
public struct Settings: Sendable, Hashable {
    /// JPEG quality of imported photos (1...100).
    public var photoQuality = 80
    /// Longest edge of an imported photo, in pixels.
    public var photoMaxEdge = 2048
    /// Total stored photo bytes allowed per report (BR-10).
    public var photoCapBytes: Int64 = 25 * 1024 * 1024
    /// Free space below which photo import is refused (BR-13).
    public var storageFloorBytes: Int64 = 200 * 1024 * 1024
    /// Days a SYNCED report stays on the device (BR-12).
    public var retentionDays = 30

    public init() {}

    /// One adjustable setting: its name on the command line, its unit, and where it lives.
    public struct Entry: Sendable {
        public let name: String
        public let help: String
        public let range: ClosedRange<Int64>
        let keyPath: WritableKeyPath<Settings, Int64> & Sendable
    }

    /// Every setting `jqc settings` shows and changes.
    public static let entries: [Entry] = [
        Entry(
            name: "photo-quality", help: "JPEG quality of imported photos (1-100)", range: 1...100,
            keyPath: \.photoQuality64),
        Entry(
            name: "photo-max-edge", help: "longest edge of an imported photo, in pixels", range: 64...16384,
            keyPath: \.photoMaxEdge64),
        Entry(
            name: "photo-cap-mb", help: "photo storage allowed per report, in MB", range: 1...10_000,
            keyPath: \.photoCapMB),
        Entry(
            name: "storage-floor-mb", help: "free space kept on the disk; photo import stops below it, in MB",
            range: 0...100_000_000, keyPath: \.storageFloorMB),
        Entry(
            name: "retention-days", help: "days a synced report stays on this device", range: 0...3650,
            keyPath: \.retentionDays64),
    ]

    /// The value of an entry.
    public func value(of entry: Entry) -> Int64 { self[keyPath: entry.keyPath] }

    /// Sets an entry.
    public mutating func set(_ entry: Entry, to value: Int64) { self[keyPath: entry.keyPath] = value }

    var photoQuality64: Int64 {
        get { Int64(photoQuality) }
        set { photoQuality = Int(newValue) }
    }
    var photoMaxEdge64: Int64 {
        get { Int64(photoMaxEdge) }
        set { photoMaxEdge = Int(newValue) }
    }
    var photoCapMB: Int64 {
        get { photoCapBytes / (1024 * 1024) }
        set { photoCapBytes = newValue * 1024 * 1024 }
    }
    var storageFloorMB: Int64 {
        get { storageFloorBytes / (1024 * 1024) }
        set { storageFloorBytes = newValue * 1024 * 1024 }
    }
    var retentionDays64: Int64 {
        get { Int64(retentionDays) }
        set { retentionDays = Int(newValue) }
    }

    /// Reads the settings stored in the profile; unset ones keep their defaults.
    static func load(from store: LocalStore) throws(StorageError) -> Settings {
        var settings = Settings()
        for entry in entries {
            if let text = try store.meta("setting.\(entry.name)"), let value = Int64(text), entry.range.contains(value)
            {
                settings.set(entry, to: value)
            }
        }
        return settings
    }

    /// Stores one setting in the profile.
    static func save(_ entry: Entry, value: Int64, to store: LocalStore) throws(StorageError) {
        try store.setMeta("setting.\(entry.name)", String(value))
    }
}
