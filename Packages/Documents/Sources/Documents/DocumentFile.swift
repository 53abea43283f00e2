import Foundation

/// A document written to a path: into a new file beside it, then renamed
/// over it, so a reader never finds half a PDF and a failure leaves
/// whatever was there before.
public enum DocumentFile {
    public static func write(_ path: String, _ draw: (Int32) throws(DocumentsError) -> Void) throws(DocumentsError) {
        let temporary = path + ".part-\(UUID().uuidString.prefix(8))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DocumentsError(.writeFailed, "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        do throws(DocumentsError) {
            try draw(descriptor)
            guard fsync(descriptor) == 0 else {
                throw DocumentsError(.writeFailed, "cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            close(descriptor)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw DocumentsError(.writeFailed, "cannot write '\(path)': \(why)")
        }
    }

    /// A document drawn into a file with no name (made in the temporary
    /// folder, then unlinked): its descriptor at the first byte, which the
    /// caller reads and closes, and its size. Memory stays flat whatever the
    /// document's size, and nothing is left behind however it ends.
    public static func unnamed(_ draw: (Int32) throws(DocumentsError) -> Void) throws(DocumentsError) -> (
        descriptor: Int32, byteSize: Int64
    ) {
        var template = Array((NSTemporaryDirectory() + "/jqc-document-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw DocumentsError(
                .writeFailed, "cannot make a temporary file for the document: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        do throws(DocumentsError) { try draw(descriptor) } catch {
            close(descriptor)
            throw error
        }
        let size = lseek(descriptor, 0, SEEK_END)
        lseek(descriptor, 0, SEEK_SET)
        return (descriptor, Int64(size))
    }
}
