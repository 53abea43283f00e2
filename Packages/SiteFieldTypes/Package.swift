// swift-tools-version:6.0
import PackageDescription

/// SiteFieldTypes: field types for site measurements (`geopoint`, `barcode`,
/// `temperature`, `duration`), written against the FieldTypes protocol from
/// outside it and registered by each program at its composition root.
let package = Package(
    name: "SiteFieldTypes",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "SiteFieldTypes", targets: ["SiteFieldTypes"])
    ],
    dependencies: [
        .package(path: "../Models"),
        .package(path: "../FieldTypes"),
    ],
    targets: [
        .target(
            name: "SiteFieldTypes",
            dependencies: [
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
            ]),
        .testTarget(
            name: "SiteFieldTypesTests",
            dependencies: [
                "SiteFieldTypes",
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "FieldTypeConformance", package: "FieldTypes"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
