// swift-tools-version:6.0
import PackageDescription

/// LineEditing: reading a line from a person at a terminal, with the line
/// editing and history of libedit (arrow keys, Home/End, Ctrl-A/E/K/W, Up
/// for earlier lines); plain reads from pipes and files. It depends on
/// nothing of ours.
let package = Package(
    name: "LineEditing",
    platforms: [.macOS(.v14)],
    products: [.library(name: "LineEditing", targets: ["LineEditing"])],
    targets: [
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        /// The handlers of the signals that end or stop a program at a terminal, and Ctrl-C's
        /// message in interactive commands, in C: they run inside the signal handler.
        .target(name: "CTerminalSignals"),
        .target(name: "LineEditing", dependencies: ["CEditLine", "CTerminalSignals"]),
    ],
    swiftLanguageModes: [.v6]
)
