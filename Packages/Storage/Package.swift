// swift-tools-version:6.0
import PackageDescription

/// Storage: the device's local store on SQLite (WAL, migrations, the tables
/// ARCHITECTURE.md's "Storage" lists, through the SQLite package) and the app-private
/// photo file store, whose files are written through ProgramOutput's `AtomicFile`.
let package = Package(
    name: "Storage",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Storage", targets: ["Storage"])],
    dependencies: [.package(path: "../Models"), .package(path: "../SQLite"), .package(path: "../ProgramOutput")],
    targets: [
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "Storage",
            dependencies: [
                "CCrypto",
                .product(name: "SQLite", package: "SQLite"),
                .product(name: "Models", package: "Models"),
                .product(name: "ProgramOutput", package: "ProgramOutput"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
