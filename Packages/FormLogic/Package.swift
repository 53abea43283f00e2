// swift-tools-version:6.0
import PackageDescription

/// FormLogic: the one evaluator of `visible_when`, `required_when` and
/// `calculate`, shared by the apps and the server. Builds on Models and FieldTypes.
let package = Package(
    name: "FormLogic",
    platforms: [.macOS(.v14)],
    products: [.library(name: "FormLogic", targets: ["FormLogic"])],
    dependencies: [.package(path: "../Models"), .package(path: "../FieldTypes")],
    targets: [
        .target(
            name: "FormLogic",
            dependencies: [
                .product(name: "Models", package: "Models"),
                .product(name: "FieldTypes", package: "FieldTypes"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
