internal import CCurl
import Foundation

/// Owns one `curl_mime` form built from a `MultipartUpload`.
///
/// Text parts are copied into libcurl; the file part is attached with
/// `curl_mime_filedata`, which makes libcurl open and read the file during the
/// transfer, chunk by chunk. Not `Sendable`: it belongs to the `EasyHandle`
/// it was made for, which frees it after its own cleanup.
final class MultipartBody {
    let raw: OpaquePointer

    /// Builds the form on `easy`; throws when the file cannot be read or libcurl refuses a part.
    init(_ upload: MultipartUpload, on easy: UnsafeMutableRawPointer, host: String) throws(NetworkingError) {
        guard let mime = curl_mime_init(easy) else {
            throw NetworkingError(
                .transport, "Could not prepare the upload to \(host): libcurl is out of memory.", url: host)
        }
        raw = mime
        // libcurl only opens the file once the transfer runs; checking first
        // gives the caller a clear answer instead of a mid-transfer read error.
        guard FileManager.default.isReadableFile(atPath: upload.file.path) else {
            throw NetworkingError(
                .fileUnreadable, "Could not read '\(upload.file.path)' to upload it to \(host).", url: host)
        }
        for (name, value) in upload.fields {
            guard let part = curl_mime_addpart(mime) else { throw Self.refused(host) }
            var status = curl_mime_name(part, name)
            if status == CURLE_OK {
                // The explicit length copies exactly the UTF-8 bytes, NUL included if a value holds one.
                let bytes = Array(value.utf8CString.dropLast())
                status = bytes.withUnsafeBufferPointer { curl_mime_data(part, $0.baseAddress, $0.count) }
            }
            guard status == CURLE_OK else { throw Self.refused(host) }
        }
        guard let part = curl_mime_addpart(mime),
            curl_mime_name(part, upload.file.name) == CURLE_OK,
            curl_mime_filedata(part, upload.file.path) == CURLE_OK,
            curl_mime_filename(part, upload.file.filename) == CURLE_OK,
            curl_mime_type(part, upload.file.contentType) == CURLE_OK
        else {
            throw NetworkingError(
                .fileUnreadable, "Could not attach '\(upload.file.path)' to the upload to \(host).", url: host)
        }
    }

    deinit { curl_mime_free(raw) }

    private static func refused(_ host: String) -> NetworkingError {
        NetworkingError(.transport, "Could not prepare the upload to \(host): libcurl refused a form field.", url: host)
    }
}
