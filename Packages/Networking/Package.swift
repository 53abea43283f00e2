// swift-tools-version:6.0
import PackageDescription

/// Networking: the HTTP transport seam and its libcurl implementation, and the SMTP sender.
/// It depends on nothing of ours.
let package = Package(
    name: "Networking",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Networking", targets: ["Networking"])],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "Networking", dependencies: ["CCurl"]),
    ],
    swiftLanguageModes: [.v6]
)
