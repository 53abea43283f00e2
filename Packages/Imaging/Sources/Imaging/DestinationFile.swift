import Foundation
import ProgramOutput

/// Writes the stored photo through `AtomicFile`: a temporary file beside
/// `url` (exactly 0600) written fully, flushed to disk, closed and renamed
/// over `url`, each step checked; on any failure the temporary file is gone
/// and `url` is as it was.
enum DestinationFile {
    /// Writes `chunks` one after another to `url` and returns the bytes written.
    static func write(_ chunks: [UnsafeRawBufferPointer], to url: URL) throws(ImagingError) -> Int64 {
        var written: Int64 = 0
        try AtomicFile.replace(
            url.path, mode: 0o600, exactMode: true,
            failure: { ImagingError.writeFailed(url, errno: $0.errno) }
        ) {
            (descriptor: Int32) throws(ImagingError) in
            for chunk in chunks {
                do throws(OutputError) {
                    try DescriptorWriter.writeAll(descriptor, chunk, target: url.path)
                } catch {
                    throw ImagingError.writeFailed(url, errno: error.errno)
                }
                written += Int64(chunk.count)
            }
        }
        return written
    }

    /// Refuses a destination that is the source itself, which would destroy the source.
    static func refuseOverwriting(_ source: SourceFile, with url: URL) throws(ImagingError) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }
        if UInt64(info.st_dev) == source.device && UInt64(info.st_ino) == source.inode {
            throw ImagingError.writeFailed(
                url, reason: "it is the source photo itself, which is never overwritten",
                advice: "Choose a different destination."
            )
        }
    }
}
