// swift-tools-version:6.0
import PackageDescription

/// Imaging: turns an imported JPEG or PNG photo into an upright, scaled,
/// compressed JPEG for app-private storage, on libturbojpeg, libpng and
/// libexif. Of ours it depends only on ProgramOutput, whose `AtomicFile`
/// writes the compressed photo.
let package = Package(
    name: "Imaging",
    platforms: [.macOS(.v14)],
    products: [.library(name: "Imaging", targets: ["Imaging"])],
    dependencies: [.package(path: "../ProgramOutput")],
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
            dependencies: ["CTurboJPEG", "CPNG", "CExif", .product(name: "ProgramOutput", package: "ProgramOutput")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
