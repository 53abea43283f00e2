// swift-tools-version:6.0
import PackageDescription

/// ProgramOutput: every byte the programs write outside their stores
/// (standard streams, logs, replaced files), each failure a value. It
/// depends on nothing of ours, so the apps and the server share it.
let package = Package(
    name: "ProgramOutput",
    platforms: [.macOS(.v14)],
    products: [.library(name: "ProgramOutput", targets: ["ProgramOutput"])],
    targets: [.target(name: "ProgramOutput")],
    swiftLanguageModes: [.v6]
)
