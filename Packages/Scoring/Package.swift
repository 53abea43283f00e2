// swift-tools-version:6.0
import PackageDescription

/// Scoring: turns per-field outcomes into a report's score, with weights,
/// N/A, critical fields and a per-field breakdown. Builds on Models only.
let package = Package(
    name: "Scoring",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Scoring", targets: ["Scoring"])],
    dependencies: [.package(path: "../Models")],
    targets: [.target(name: "Scoring", dependencies: [.product(name: "Models", package: "Models")])],
    swiftLanguageModes: [.v6]
)
