import Foundation

/// The one error type of Imaging: a code, a one-line human message that
/// quotes the file and says what to do, and the context (path, library
/// message) for logs.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; stable, for programs and tests.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The source is missing, a folder, or not readable.
        public static let unreadable = Code("PHOTO_UNREADABLE")
        /// The source is readable but neither a JPEG nor a PNG (text, GIF, empty...).
        public static let notAnImage = Code("NOT_AN_IMAGE")
        /// The source starts like a JPEG or PNG but is truncated or corrupt.
        public static let damaged = Code("PHOTO_DAMAGED")
        /// The source's pixel dimensions or file size are beyond what is imported.
        public static let tooLarge = Code("PHOTO_TOO_LARGE")
        /// The compressed photo could not be written to its destination.
        public static let writeFailed = Code("PHOTO_WRITE_FAILED")
        /// The destination's disk is full: nothing was written.
        public static let diskFull = Code("DISK_FULL")
        /// Compression settings outside their allowed ranges.
        public static let invalidSettings = Code("INVALID_SETTINGS")
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong and what to do next, for a person; one line.
    public let message: String
    /// The full path and the library's own words, for logs; never shown as the message.
    public let context: String?

    /// Makes an error from its parts; Imaging builds its own through the factories below.
    public init(_ code: Code, _ message: String, context: String? = nil) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The message, so that printing the error shows what a person should read.
    public var description: String { message }
}

extension ImagingError {
    static func unreadable(_ url: URL, reason: String) -> ImagingError {
        ImagingError(
            .unreadable,
            "Cannot read '\(url.lastPathComponent)': \(reason). Check the path and its permissions.",
            context: url.path
        )
    }

    static func unreadable(_ url: URL, errno code: Int32) -> ImagingError {
        unreadable(url, reason: describe(errno: code))
    }

    static func notAnImage(_ url: URL, detected: String?) -> ImagingError {
        let name = url.lastPathComponent
        let what = detected.map { "is \($0), not a JPEG or PNG photo" } ?? "is not a JPEG or PNG photo"
        return ImagingError(
            .notAnImage,
            "'\(name)' \(what). Choose a JPEG or PNG file, or convert it to one first.",
            context: url.path
        )
    }

    static func damaged(_ url: URL, format: ImageFormat, detail: String) -> ImagingError {
        let kind = format == .jpeg ? "JPEG" : "PNG"
        return ImagingError(
            .damaged,
            "'\(url.lastPathComponent)' is a damaged \(kind) file (\(detail)). Copy the photo again from its source and re-import it.",
            context: "\(url.path): \(detail)"
        )
    }

    static func tooLarge(_ url: URL, what: String) -> ImagingError {
        ImagingError(
            .tooLarge,
            "'\(url.lastPathComponent)' is too large to import (\(what)). Resize it and import it again.",
            context: url.path
        )
    }

    static func writeFailed(
        _ url: URL, reason: String, advice: String = "Check free disk space and that its folder exists and is writable."
    ) -> ImagingError {
        ImagingError(
            .writeFailed,
            "Cannot write the compressed photo '\(url.lastPathComponent)': \(reason). \(advice)",
            context: url.path
        )
    }

    static func writeFailed(_ url: URL, errno code: Int32) -> ImagingError {
        if code == ENOSPC || code == EDQUOT {
            return ImagingError(
                .diskFull,
                "The disk is full: the compressed photo '\(url.lastPathComponent)' cannot be written. Free some space and import it again.",
                context: url.path
            )
        }
        return writeFailed(url, reason: describe(errno: code))
    }

    /// A lower-case reason for an errno value: "no such file or directory".
    static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let reason = String(cString: text)
        return reason.prefix(1).lowercased() + reason.dropFirst()
    }
}
