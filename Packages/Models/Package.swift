// swift-tools-version:6.0
import PackageDescription

/// Models: the product's value types (reference data, form schemas, reports,
/// the report state machine, answers as JSON values) and the wire types of
/// the contract. It depends on nothing of ours but UUIDText (the ids it
/// writes) and performs no I/O.
/// APIRoutes: the contract's route table, the one list of methods and paths
/// the device's client calls and the server serves.
let package = Package(
    name: "Models",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Models", targets: ["Models"]),
        .library(name: "APIRoutes", targets: ["APIRoutes"]),
    ],
    dependencies: [.package(path: "../UUIDText")],
    targets: [
        .target(name: "Models", dependencies: [.product(name: "UUIDText", package: "UUIDText")]),
        .target(name: "APIRoutes"),
    ],
    swiftLanguageModes: [.v6]
)
