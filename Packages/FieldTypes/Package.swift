// swift-tools-version:6.0
import PackageDescription

/// FieldTypes: the field-type protocol, the registry, every built-in type,
/// the conformance kit other teams use to check their own types, and the
/// adapter that makes an external program (`jqc-field-NAME`) a field type.
let package = Package(
    name: "FieldTypes",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FieldTypes", targets: ["FieldTypes"]),
        .library(name: "FieldTypeConformance", targets: ["FieldTypeConformance"]),
        .library(name: "ExternalFieldTypes", targets: ["ExternalFieldTypes"]),
    ],
    dependencies: [.package(path: "../Models")],
    targets: [
        .target(name: "FieldTypes", dependencies: [.product(name: "Models", package: "Models")]),
        .target(
            name: "FieldTypeConformance", dependencies: ["FieldTypes", .product(name: "Models", package: "Models")]),
        /// External field types: discovery, the JSON Lines protocol, the plugin processes, and their conformance check.
        .target(
            name: "ExternalFieldTypes",
            dependencies: ["FieldTypes", "FieldTypeConformance", .product(name: "Models", package: "Models")]),
    ],
    swiftLanguageModes: [.v6]
)
