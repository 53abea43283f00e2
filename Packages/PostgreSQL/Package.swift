// swift-tools-version:6.0
import PackageDescription

/// PostgreSQL: a client over libpq's C API — connections, prepared
/// statements with parameters, rows decoded by column name, SQLSTATE errors —
/// for the server's PostgreSQL store.
let package = Package(
    name: "PostgreSQL",
    platforms: [.macOS(.v14)],
    products: [.library(name: "PostgreSQL", targets: ["PostgreSQL"])],
    targets: [
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "PostgreSQL",
            dependencies: ["CLibPQ"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
