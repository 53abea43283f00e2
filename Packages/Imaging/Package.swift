// swift-tools-version:6.0
import PackageDescription

/// Imaging: turns an imported JPEG or PNG photo into an upright, scaled,
/// compressed JPEG for app-private storage, on libturbojpeg, libpng and
/// libexif. Depends on nothing else of ours.
let package = Package(
    name: "Imaging",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Imaging", targets: ["Imaging"])],
    targets: [
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        .target(
            name: "Imaging",
            dependencies: ["CTurboJPEG", "CPNG", "CExif"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
