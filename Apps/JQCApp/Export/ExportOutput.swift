import Foundation
import JQCCore
import ProgramOutput
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an export's bytes go: standard output, or the temporary file of an
/// atomic write, through a small buffer so a page can be written piece by
/// piece without ever being held whole in memory.
final class ExportSink {
    private enum Destination {
        case channel(OutputChannel)
        case file(descriptor: Int32, path: String)
    }

    private let destination: Destination
    private var buffer: [UInt8] = []
    private static let flushSize = 64 * 1024
    /// Bytes written so far, buffered ones included.
    private(set) var byteCount: Int64 = 0

    /// A sink over an open file; `path` is how messages call it.
    init(descriptor: Int32, path: String) {
        destination = .file(descriptor: descriptor, path: path)
        buffer.reserveCapacity(Self.flushSize)
    }

    /// A sink over a channel (standard output), whose failure the program reports as it exits.
    init(channel: OutputChannel) {
        destination = .channel(channel)
        buffer.reserveCapacity(Self.flushSize)
    }

    /// Appends text as UTF-8.
    func write(_ text: String) throws(AppError) {
        try write(bytes: Array(text.utf8))
    }

    /// Appends bytes.
    func write(bytes: [UInt8]) throws(AppError) {
        buffer.append(contentsOf: bytes)
        byteCount += Int64(bytes.count)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes what is buffered.
    func flush() throws(AppError) {
        defer { buffer.removeAll(keepingCapacity: true) }
        switch destination {
        case .channel(let channel):
            guard buffer.withUnsafeBytes({ channel.write(bytes: $0) }) else { throw AppError.outputFailed }
        case .file(let descriptor, let path):
            do throws(OutputError) {
                try DescriptorWriter.writeAll(descriptor, buffer, target: path)
            } catch {
                throw ExportFile.error(error.errno, path: path, doing: "write")
            }
        }
    }
}

/// Writing an export: to standard output as it is produced, or to a file
/// atomically (a temporary file beside it, flushed, then renamed into place),
/// so a reader never sees half an export and a failed one leaves nothing behind.
enum ExportFile {
    /// Checks an `-o` path before any work: its folder must exist and the
    /// path must not be a folder. Returns the absolute target.
    static func target(_ path: String) throws(AppError) -> URL {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let url = URL(fileURLWithPath: path, relativeTo: cwd).absoluteURL.standardizedFileURL
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            throw AppError.validation(
                "'\(path)' is a folder; give a file name for the export, for example '\(url.appendingPathComponent("report.html").path)'.",
                code: .outputIsFolder)
        }
        let folder = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw AppError.validation(
                "The folder '\(folder.path)' for '\(path)' does not exist; create it first or choose another path.",
                code: .outputFolderMissing)
        }
        return url
    }

    /// Streams an export to standard output.
    static func writeToStandardOutput(_ produce: (ExportSink) throws(AppError) -> Void) throws(AppError) {
        let sink = ExportSink(channel: .standardOutput)
        try produce(sink)
        try sink.flush()
    }

    /// Writes an export to `target` atomically (`AtomicFile`) and returns its size in bytes.
    static func writeAtomically(to target: URL, _ produce: (ExportSink) throws(AppError) -> Void) throws(AppError)
        -> Int64
    {
        var size: Int64 = 0
        try AtomicFile.replace(target.path, failure: { error($0.errno, path: target.path, doing: $0.action) }) {
            (descriptor: Int32) throws(AppError) in
            let sink = ExportSink(descriptor: descriptor, path: target.path)
            try produce(sink)
            try sink.flush()
            size = sink.byteCount
        }
        return size
    }

    /// The error for a failed file call, in the words a person needs.
    static func error(_ code: Int32, path: String, doing action: String) -> AppError {
        let native = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return AppError.failure(.diskFull, "The disk is full writing '\(path)'; free some space and export again.")
        case EACCES, EPERM, EROFS:
            return AppError.validation(
                "Cannot \(action) '\(path)' (\(native)); choose a folder you can write to.", code: .outputNotWritable)
        case EPIPE:
            return AppError.failure(.outputClosed, "The reader of the export closed '\(path)' before the end.")
        default:
            return AppError.failure(.exportWriteFailed, "Cannot \(action) '\(path)' (\(native)).")
        }
    }
}
