internal import CCurl
import Foundation

/// A range of a file read by libcurl's read callback while a request's body
/// is sent: one descriptor, `pread` into libcurl's own buffer, nothing of
/// the file held in memory. Opened without following a link at the last
/// component. Touched only on the transfer's thread, like its handle.
final class FileSource {
    private let descriptor: Int32
    private var position: Int64
    private let start: Int64
    private let end: Int64
    /// The bytes sent.
    let length: Int64
    /// The file could not be read mid-way.
    private(set) var failed = false

    /// Opens `range.path` to send to `url`; throws when it cannot be read or is shorter than the range.
    init(_ range: FileRange, to url: String) throws(NetworkingError) {
        let descriptor = open(range.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0, Int64(status.st_size) >= range.offset + range.length,
            range.offset >= 0, range.length >= 0
        else {
            if descriptor >= 0 { close(descriptor) }
            let host = RequestTarget(url)
            throw NetworkingError(
                .fileUnreadable, "Could not read '\(range.path)' to send it to \(host.host).", url: host.redactedURL)
        }
        self.descriptor = descriptor
        position = range.offset
        start = range.offset
        end = range.offset + range.length
        length = range.length
    }

    deinit { close(descriptor) }

    /// Points the handle's read and seek callbacks at this source.
    func attach(to handle: UnsafeMutableRawPointer) -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
        return jqc_easy_setopt_read_function(handle) { data, size, count, context in
            FileSource.fill(data, size * count, context)
        } == CURLE_OK && jqc_easy_setopt_pointer(handle, CURLOPT_READDATA, me) == CURLE_OK
            && jqc_easy_setopt_seek_function(handle) { context, offset, origin in
                FileSource.seek(context, offset, origin)
            } == CURLE_OK && jqc_easy_setopt_pointer(handle, CURLOPT_SEEKDATA, me) == CURLE_OK
    }

    /// Where libcurl would rewind the body to send the request again on a
    /// new connection, the kept one having turned out closed. Before any
    /// byte was read that costs nothing, and is allowed. After, it is
    /// refused: a file's range is the body of a resumable upload's `PATCH`,
    /// and the server keeps what arrived of one cut short, so the same
    /// bytes sent again from the same offset would go for nothing (the
    /// server answers 409 with the offset it holds). The request then fails
    /// as a broken connection (`CURLE_SEND_FAIL_REWIND`), and the caller asks
    /// the server how far the bytes got. `offset` counts from the range's first byte.
    private static func seek(_ context: UnsafeMutableRawPointer?, _ offset: curl_off_t, _ origin: Int32) -> Int32 {
        guard let context, origin == SEEK_SET, offset >= 0 else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        let source = Unmanaged<FileSource>.fromOpaque(context).takeUnretainedValue()
        guard source.start + Int64(offset) == source.position else { return Int32(CURL_SEEKFUNC_FAIL) }
        return Int32(CURL_SEEKFUNC_OK)
    }

    private static func fill(_ data: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ context: UnsafeMutableRawPointer?)
        -> Int
    {
        guard let context, let data else { return Int(CURL_READFUNC_ABORT) }
        let source = Unmanaged<FileSource>.fromOpaque(context).takeUnretainedValue()
        let wanted = Int(min(Int64(capacity), source.end - source.position))
        guard wanted > 0 else { return 0 }
        while true {
            let count = pread(source.descriptor, data, wanted, off_t(source.position))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                source.failed = true
                return Int(CURL_READFUNC_ABORT)
            }
            source.position += Int64(count)
            return count
        }
    }
}
