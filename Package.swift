// swift-tools-version:6.0
import PackageDescription

/// JanitorialQC for Linux: the root package composes the local packages under
/// `Packages/` into the programs under `Apps/` (jqc, jqc-agent, jqc-server),
/// the tools under `Tools/`, and the one test suite under `Tests/` that
/// `swift test` runs.
let package = Package(
    name: "JanitorialQC",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "jqc", targets: ["jqc"]),
        .executable(name: "jqc-agent", targets: ["jqc-agent"]),
        .executable(name: "jqc-server", targets: ["jqc-server"]),
    ],
    dependencies: [
        .package(path: "Packages/Models"),
        .package(path: "Packages/SQLite"),
        .package(path: "Packages/Storage"),
        .package(path: "Packages/Networking"),
        .package(path: "Packages/Sync"),
        .package(path: "Packages/Scoring"),
        .package(path: "Packages/FieldTypes"),
        .package(path: "Packages/Imaging"),
        .package(path: "Packages/SiteFieldTypes"),
        .package(path: "Packages/PostgreSQL"),
        .package(path: "Packages/FormLogic"),
        .package(path: "Packages/ArgumentParsing"),
        .package(path: "Packages/ProgramOutput"),
        .package(path: "Packages/Server"),
        .package(path: "Packages/LineEditing"),
        .package(path: "Packages/Documents"),
        .package(path: "Packages/Schedules"),
    ],
    targets: [
        // MARK: - Apps: thin executables over library code

        /// The inspector's CLI; its `main` only hands the arguments to JQCApp.
        .executableTarget(
            name: "jqc",
            dependencies: ["JQCApp"],
            path: "Apps/jqc"
        ),
        /// The headless sync agent run by cron or a systemd timer; its `main` hands the arguments to JQCAgent.
        .executableTarget(
            name: "jqc-agent",
            dependencies: ["JQCAgent"],
            path: "Apps/jqc-agent"
        ),
        /// The server of docs/contract.md; its `main` hands the arguments and the two stores to ServerCore.
        .executableTarget(
            name: "jqc-server",
            dependencies: [
                .product(name: "ServerCore", package: "Server"),
                .product(name: "ServerStore", package: "Server"),
                .product(name: "ServerSQLite", package: "Server"),
                .product(name: "ServerPostgres", package: "Server"),
            ],
            path: "Apps/jqc-server"
        ),
        /// What both device programs share: the workspace (the one seam to the
        /// store), sign-in and sync, settings, errors, and the program runner
        /// (dispatch, help, completion, man pages).
        .target(
            name: "JQCCore",
            dependencies: [
                .product(name: "ArgumentParsing", package: "ArgumentParsing"),
                .product(name: "ProgramOutput", package: "ProgramOutput"),
                .product(name: "Models", package: "Models"),
                .product(name: "SQLite", package: "SQLite"),
                .product(name: "Storage", package: "Storage"),
                .product(name: "Networking", package: "Networking"),
                .product(name: "Sync", package: "Sync"),
                .product(name: "Scoring", package: "Scoring"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "ExternalFieldTypes", package: "FieldTypes"),
                .product(name: "SiteFieldTypes", package: "SiteFieldTypes"),
                .product(name: "FormLogic", package: "FormLogic"),
                .product(name: "Imaging", package: "Imaging"),
            ],
            path: "Apps/JQCCore"
        ),
        /// jqc's commands, the home menu, the form runner and the exports.
        .target(
            name: "JQCApp",
            dependencies: [
                "JQCCore",
                .product(name: "ArgumentParsing", package: "ArgumentParsing"),
                .product(name: "ProgramOutput", package: "ProgramOutput"),
                .product(name: "Models", package: "Models"),
                .product(name: "Sync", package: "Sync"),
                .product(name: "Scoring", package: "Scoring"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "ExternalFieldTypes", package: "FieldTypes"),
                .product(name: "SiteFieldTypes", package: "SiteFieldTypes"),
                .product(name: "FormLogic", package: "FormLogic"),
                .product(name: "LineEditing", package: "LineEditing"),
                .product(name: "Documents", package: "Documents"),
            ],
            path: "Apps/JQCApp"
        ),
        /// jqc-agent: the sync loop, its log and metrics; it links none of jqc's commands, menu or runner.
        .target(
            name: "JQCAgent",
            dependencies: [
                "JQCCore",
                .product(name: "ArgumentParsing", package: "ArgumentParsing"),
                .product(name: "ProgramOutput", package: "ProgramOutput"),
                .product(name: "Models", package: "Models"),
                .product(name: "Sync", package: "Sync"),
            ],
            path: "Apps/JQCAgent"
        ),

        // MARK: - Tools: programs run on demand, by tests and by operators

        /// Writes autosaves into a store from its own process: the second
        /// writer of the two-process store tests and the reliability tools.
        .executableTarget(
            name: "jqc-store-writer",
            dependencies: [
                .product(name: "ArgumentParsing", package: "ArgumentParsing"),
                .product(name: "ProgramOutput", package: "ProgramOutput"),
                .product(name: "Models", package: "Models"),
                .product(name: "Storage", package: "Storage"),
            ],
            path: "Tools/store-writer"
        ),
        /// The form-logic benchmark (`Tools/bench/logic`): 500 fields, 500 conditions, one answer.
        .executableTarget(
            name: "jqc-logic-bench",
            dependencies: [
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "SiteFieldTypes", package: "SiteFieldTypes"),
                .product(name: "FormLogic", package: "FormLogic"),
            ],
            path: "Tools/bench/LogicBench"
        ),

        // MARK: - Tests: every test target of the project

        /// The GNU parts of `posix_spawn` that the tests' child processes are started with.
        .target(name: "CChildSpawn", path: "Tests/CChildSpawn"),
        /// Helpers shared by the test targets: fixtures, temporary profiles, processes.
        .target(
            name: "TestSupport",
            dependencies: [
                "CChildSpawn",
                .product(name: "Models", package: "Models"),
                .product(name: "Storage", package: "Storage"),
                .product(name: "Imaging", package: "Imaging"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "ModelsTests",
            dependencies: [.product(name: "Models", package: "Models")],
            path: "Tests/ModelsTests"
        ),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "TestSupport", "jqc-store-writer",
                .product(name: "Models", package: "Models"),
                .product(name: "SQLite", package: "SQLite"),
                .product(name: "Storage", package: "Storage"),
            ],
            path: "Tests/StorageTests"
        ),
        /// The SQLite wrapper every store uses: values, statements, transactions, migrations.
        .testTarget(
            name: "SQLiteTests",
            dependencies: ["TestSupport", .product(name: "SQLite", package: "SQLite")],
            path: "Tests/SQLiteTests"
        ),
        .testTarget(
            name: "FieldTypesTests",
            dependencies: [
                "TestSupport",
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "FieldTypeConformance", package: "FieldTypes"),
            ],
            path: "Tests/FieldTypesTests"
        ),
        /// External field types: the adapter against real plugin processes, well-behaved and not.
        .testTarget(
            name: "ExternalFieldTypesTests",
            dependencies: [
                "TestSupport",
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "FieldTypeConformance", package: "FieldTypes"),
                .product(name: "ExternalFieldTypes", package: "FieldTypes"),
            ],
            path: "Tests/ExternalFieldTypesTests"
        ),
        /// The site team's field types, tested where the package keeps its tests.
        .testTarget(
            name: "SiteFieldTypesTests",
            dependencies: [
                .product(name: "SiteFieldTypes", package: "SiteFieldTypes"),
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "FieldTypeConformance", package: "FieldTypes"),
            ],
            path: "Packages/SiteFieldTypes/Tests/SiteFieldTypesTests"
        ),
        /// The form-logic evaluator, its lint and the shared test vectors.
        .testTarget(
            name: "FormLogicTests",
            dependencies: [
                "TestSupport",
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "SiteFieldTypes", package: "SiteFieldTypes"),
                .product(name: "Scoring", package: "Scoring"),
                .product(name: "FormLogic", package: "FormLogic"),
            ],
            path: "Tests/FormLogicTests"
        ),
        .testTarget(
            name: "ScoringTests",
            dependencies: [
                .product(name: "Models", package: "Models"),
                .product(name: "Scoring", package: "Scoring"),
                .product(name: "FieldTypes", package: "FieldTypes"),
            ],
            path: "Tests/ScoringTests"
        ),
        .testTarget(
            name: "SyncTests",
            dependencies: [
                "TestSupport", "jqc-server",
                .product(name: "Models", package: "Models"),
                .product(name: "Storage", package: "Storage"),
                .product(name: "Sync", package: "Sync"),
                .product(name: "Networking", package: "Networking"),
            ],
            path: "Tests/SyncTests"
        ),
        /// The libpq client against a throwaway PostgreSQL cluster on loopback.
        .testTarget(
            name: "PostgreSQLTests",
            dependencies: ["TestSupport", .product(name: "PostgreSQL", package: "PostgreSQL")],
            path: "Tests/PostgreSQLTests"
        ),
        .testTarget(
            name: "ImagingTests",
            dependencies: [.product(name: "Imaging", package: "Imaging"), "TestSupport"],
            path: "Tests/ImagingTests"
        ),
        /// The PDFs drawn with Cairo and Pango, read back with poppler-utils and qpdf.
        .testTarget(
            name: "DocumentsTests",
            dependencies: [
                .product(name: "Documents", package: "Documents"), .product(name: "Imaging", package: "Imaging"),
                "TestSupport",
            ],
            path: "Tests/DocumentsTests"
        ),
        /// Recurrence rules expanded by libical against days and instants written by hand.
        .testTarget(
            name: "SchedulesTests",
            dependencies: [.product(name: "Schedules", package: "Schedules")],
            path: "Tests/SchedulesTests"
        ),
        .testTarget(
            name: "ArgumentParsingTests",
            dependencies: [.product(name: "ArgumentParsing", package: "ArgumentParsing")],
            path: "Tests/ArgumentParsingTests"
        ),
        /// Contract tests: the real `jqc-server` binary on a loopback port, driven over HTTP;
        /// and the one route table, served by the server's router and called by the device's client.
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "TestSupport", "jqc-server",
                .product(name: "ServerCore", package: "Server"),
                .product(name: "ServerStore", package: "Server"),
                .product(name: "ServerHTTP", package: "Server"),
                .product(name: "ServerSQLite", package: "Server"),
                .product(name: "ServerPostgres", package: "Server"),
                .product(name: "SQLite", package: "SQLite"),
                .product(name: "Models", package: "Models"),
                .product(name: "APIRoutes", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "FormLogic", package: "FormLogic"),
                .product(name: "Networking", package: "Networking"),
                .product(name: "Sync", package: "Sync"),
                .product(name: "Imaging", package: "Imaging"),
            ],
            path: "Tests/ServerTests"
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "TestSupport", "JQCCore", "JQCApp", "JQCAgent", "jqc", "jqc-agent",
                .product(name: "Models", package: "Models"),
                .product(name: "SQLite", package: "SQLite"),
                .product(name: "Storage", package: "Storage"),
                .product(name: "FieldTypes", package: "FieldTypes"),
                .product(name: "Imaging", package: "Imaging"),
                .product(name: "Networking", package: "Networking"),
                .product(name: "Sync", package: "Sync"),
                .product(name: "FormLogic", package: "FormLogic"),
                .product(name: "SiteFieldTypes", package: "SiteFieldTypes"),
            ],
            path: "Tests/AppTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
