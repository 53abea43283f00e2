// swift-tools-version:6.0
import PackageDescription

/// Schedules: when recurring inspections fall due. A recurrence rule (an
/// iCalendar RRULE, RFC 5545, in the subset the product offers) is checked
/// and expanded by libical; each day it yields becomes a window of local
/// time in the organisation's IANA time zone, held at the same local hours
/// across daylight-saving changes. It knows no store: the server keeps the
/// schedules and asks this package when they fall.
let package = Package(
    name: "Schedules",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Schedules", targets: ["Schedules"])],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(name: "Schedules", dependencies: ["CLibical"]),
    ],
    swiftLanguageModes: [.v6]
)
