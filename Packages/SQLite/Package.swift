// swift-tools-version:6.0
import PackageDescription

/// SQLite: the one wrapper over libsqlite3 that every store uses (the device's
/// `LocalStore` and the server's SQLite store): `Database`, `Statement`,
/// `SQLValue`/`Row`, named migrations, and `SQLiteError`. It depends on
/// nothing of ours but UUIDText (the UUIDs it writes) and knows no schema.
let package = Package(
    name: "SQLite",
    platforms: [.macOS(.v14)],
    products: [.library(name: "SQLite", targets: ["SQLite"])],
    dependencies: [.package(path: "../UUIDText")],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "SQLite",
            dependencies: ["CSQLite", .product(name: "UUIDText", package: "UUIDText")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
