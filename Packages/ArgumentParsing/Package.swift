// swift-tools-version:6.0
import PackageDescription

/// ArgumentParsing: the small command-line parser every program uses, and
/// help generated from the same specs. It depends on nothing of ours.
let package = Package(
    name: "ArgumentParsing",
    platforms: [.macOS(.v14)],
    products: [.library(name: "ArgumentParsing", targets: ["ArgumentParsing"])],
    targets: [.target(name: "ArgumentParsing")],
    swiftLanguageModes: [.v6]
)
