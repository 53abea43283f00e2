// swift-tools-version:6.0
import PackageDescription

/// UUIDText: a UUID written as text and read back, byte by byte, the one
/// writer of both forms the product uses (lowercase on the wire and on
/// screen, uppercase in the SQLite stores). It depends on nothing of ours, so
/// Models and SQLite, which depend on nothing of each other, share it.
let package = Package(
    name: "UUIDText",
    platforms: [.macOS(.v14)],
    products: [.library(name: "UUIDText", targets: ["UUIDText"])],
    targets: [.target(name: "UUIDText")],
    swiftLanguageModes: [.v6]
)
