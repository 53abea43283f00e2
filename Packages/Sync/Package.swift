// swift-tools-version:6.0
import PackageDescription

/// Sync: the only code that talks to the server. Builds on Models (with the
/// contract's route table, APIRoutes), Storage and Networking.
let package = Package(
    name: "Sync",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Sync", targets: ["Sync"])],
    dependencies: [
        .package(path: "../Models"),
        .package(path: "../Storage"),
        .package(path: "../Networking"),
    ],
    targets: [
        .target(
            name: "Sync",
            dependencies: [
                .product(name: "Models", package: "Models"),
                .product(name: "APIRoutes", package: "Models"),
                .product(name: "Storage", package: "Storage"),
                .product(name: "Networking", package: "Networking"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
