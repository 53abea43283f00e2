// swift-tools-version:6.0
import PackageDescription

/// Server: the modules of `jqc-server`, the server of the wire contract
/// (docs/contract.md): HTTP on libmicrohttpd (ServerHTTP), routes, rules,
/// authentication, the demo world and the storage seam (ServerCore), and the
/// SQLite and PostgreSQL stores behind the seam (ServerSQLite,
/// ServerPostgres, with the SQL they share in ServerSQL). The executable's `main` lives in
/// `Apps/jqc-server`.
let package = Package(
    name: "Server",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ServerCore", targets: ["ServerCore"]),
        .library(name: "ServerStore", targets: ["ServerStore"]),
        .library(name: "ServerSQLite", targets: ["ServerSQLite"]),
        .library(name: "ServerPostgres", targets: ["ServerPostgres"]),
        .library(name: "ServerHTTP", targets: ["ServerHTTP"]),
    ],
    dependencies: [
        .package(path: "../Models"),
        .package(path: "../SQLite"),
        .package(path: "../PostgreSQL"),
        .package(path: "../Scoring"),
        .package(path: "../FieldTypes"),
        .package(path: "../SiteFieldTypes"),
        .package(path: "../FormLogic"),
        .package(path: "../ArgumentParsing"),
        .package(path: "../ProgramOutput"),
        .package(path: "../Networking"),
        .package(path: "../Documents"),
        .package(path: "../Schedules"),
    ],
    targets: [
        /// HTTP/1.1 on libmicrohttpd: connections, deadlines, body limits, workers, the log; knows no route.
        .target(
            name: "ServerHTTP",
            dependencies: [
                "CMicroHTTPD", "COpenSSL",
                .product(name: "ProgramOutput", package: "ProgramOutput"),
            ]
        ),
        /// The storage seam: `ServerStorage`, `StorageSession`, the records they pass,
        /// `ServerError`, and the files both stores keep (photo vault, upload bytes,
        /// private folders); what the two stores depend on instead of ServerCore.
        .target(
            name: "ServerStore",
            dependencies: [
                "ServerHTTP", "COpenSSL", "CSodium",
                .product(name: "ArgumentParsing", package: "ArgumentParsing"),
                .product(name: "ProgramOutput", package: "ProgramOutput"),
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
            ]
        ),
        /// The row API and the SQL both stores share: `SQLRow`, `SQLParameter`, the records
        /// decoded once, and the operations whose SQL is the same on SQLite and PostgreSQL.
        .target(
            name: "ServerSQL",
            dependencies: [
                "ServerStore",
                .product(name: "Models", package: "Models"),
            ]
        ),
        /// Routes and rules, auth, the demo world, faults, `admin`, webhook deliveries
        /// (through Networking's libcurl transport); no store of its own.
        .target(
            name: "ServerCore",
            dependencies: [
                "ServerHTTP", "ServerStore",
                .product(name: "ArgumentParsing", package: "ArgumentParsing"),
                .product(name: "ProgramOutput", package: "ProgramOutput"),
                .product(name: "Models", package: "Models"),
                .product(name: "APIRoutes", package: "Models"),
                .product(name: "Scoring", package: "Scoring"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "ExternalFieldTypes", package: "FieldTypes"),
                .product(name: "SiteFieldTypes", package: "SiteFieldTypes"),
                .product(name: "FormLogic", package: "FormLogic"),
                .product(name: "Networking", package: "Networking"),
                .product(name: "Documents", package: "Documents"),
                .product(name: "Schedules", package: "Schedules"),
            ]
        ),
        /// The SQLite store behind the seam, the embedded default (`--db FILE`).
        .target(
            name: "ServerSQLite",
            dependencies: [
                "ServerStore", "ServerSQL",
                .product(name: "SQLite", package: "SQLite"),
                .product(name: "Models", package: "Models"),
            ]
        ),
        /// The PostgreSQL store behind the seam (`--db postgres://...`): many instances, one database.
        .target(
            name: "ServerPostgres",
            dependencies: [
                "ServerStore", "ServerSQL", "ServerHTTP",
                .product(name: "PostgreSQL", package: "PostgreSQL"),
                .product(name: "Models", package: "Models"),
            ]
        ),
        /// libmicrohttpd, the embedded HTTP server the server runs on.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        /// libsodium, for argon2id password hashes and random bytes.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        /// OpenSSL libcrypto, for HMAC-SHA256 token signatures and photo hashes.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    ],
    swiftLanguageModes: [.v6]
)
