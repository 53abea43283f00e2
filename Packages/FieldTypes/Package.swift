// swift-tools-version:6.0
import PackageDescription

/// FieldTypes: the field-type protocol, the registry, every built-in type,
/// and the conformance kit other teams use to check their own types.
let package = Package(
    name: "FieldTypes",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FieldTypes", targets: ["FieldTypes"]),
        .library(name: "FieldTypeConformance", targets: ["FieldTypeConformance"]),
    ],
    dependencies: [.package(path: "../Models")],
    targets: [
        .target(name: "FieldTypes", dependencies: [.product(name: "Models", package: "Models")]),
        .target(name: "FieldTypeConformance", dependencies: ["FieldTypes", .product(name: "Models", package: "Models")]),
    ],
    swiftLanguageModes: [.v6]
)
