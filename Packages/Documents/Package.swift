// swift-tools-version:6.0
import PackageDescription

/// Documents: the PDFs people hand over, drawn by the project with Cairo
/// and Pango: an inspection report (internal or client-safe) and a site's
/// summary for a period. It draws what it is given (`InspectionDocument`,
/// `SiteSummaryDocument`) and knows no store: the server and the device each
/// fill them from their own records. Photos are embedded as the JPEG bytes
/// held, never decoded and encoded again.
let package = Package(
    name: "Documents",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Documents", targets: ["Documents"])],
    targets: [
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),
        .target(name: "Documents", dependencies: ["CPangoCairo"]),
    ],
    swiftLanguageModes: [.v6]
)
