import Foundation

/// A device clock set wrong, for running `jqc` and `jqc-agent` as on a device
/// whose clock is far ahead or far behind; the server keeps the real clock.
///
/// The program runs under libfaketime through Debian's `faketime` wrapper
/// (package `faketime`, installed by `Tools/setup`): every clock call of the
/// process (Foundation's `Date()` included) reads the fake time, which then
/// runs on at the normal pace; the monotonic clock (timeouts, sleeps) is left
/// alone. The wrapper, not a bare `LD_PRELOAD`: loaded directly, libfaketime
/// sets up its shared clock inside the program by changing the environment,
/// and a Swift program started that way sees no command-line arguments.
public struct DeviceClock: Sendable, CustomStringConvertible {
    /// The `faketime` wrapper.
    public static let wrapper = "/usr/bin/faketime"

    /// The moment the program's clock starts at.
    public let start: Date

    /// A clock starting at `start`.
    public init(start: Date) {
        self.start = start
    }

    /// A clock `years` (of 365 days) ahead of the real one (negative: behind).
    public static func yearsAhead(_ years: Int) -> DeviceClock {
        DeviceClock(start: Date().addingTimeInterval(Double(years) * 365 * 86_400))
    }

    /// A clock set to noon UTC of 1 June `year`.
    public static func year(_ year: Int) -> DeviceClock {
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour) = (year, 6, 1, 12)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return DeviceClock(start: calendar.date(from: components)!)
    }

    /// The year the clock starts in (UTC), to check what a program recorded.
    public var startYear: Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: start)
    }

    /// The wrapper's arguments before the program's path.
    var wrapperArguments: [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        // -m: the library for multi-threaded programs; -f "@...": start there and run on.
        return ["-m", "--exclude-monotonic", "-f", "@" + formatter.string(from: start)]
    }

    /// The wrapper reads the start time in the local zone: make it UTC.
    static let environment = ["TZ": "UTC"]

    /// Refuses to run when the wrapper is missing, with what to install.
    static func requireWrapper() throws {
        guard FileManager.default.isExecutableFile(atPath: wrapper) else {
            throw DeviceClockError(
                message:
                    "'\(wrapper)' is missing: the clock tests run jqc under libfaketime; install the Debian package 'faketime' (Tools/setup does)"
            )
        }
    }

    public var description: String { "clock at \(startYear)" }
}

/// The fake clock cannot be used.
public struct DeviceClockError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
