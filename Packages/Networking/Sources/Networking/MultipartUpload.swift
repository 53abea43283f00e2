/// A `multipart/form-data` POST whose one file part is streamed from disk.
///
/// The file is read by libcurl in small chunks while the request is sent; it
/// is never loaded into memory, so a 50 MB photo costs no more RAM than a 50 KB one.
public struct MultipartUpload: Sendable {
    /// The file part: read from `path` at send time.
    public struct FilePart: Sendable, Hashable {
        /// The form field name (`file` in the contract).
        public var name: String
        /// The file on disk.
        public var path: String
        /// The part's `Content-Type`, such as `image/jpeg`.
        public var contentType: String
        /// The file name the server is told; defaults to the last component of `path`.
        public var filename: String

        /// A file part; `filename` defaults to the last path component.
        public init(name: String, path: String, contentType: String, filename: String? = nil) {
            self.name = name
            self.path = path
            self.contentType = contentType
            self.filename = filename ?? String(path.split(separator: "/").last ?? Substring(path))
        }
    }

    /// The URL to POST to.
    public var url: String
    /// Extra request headers; `Content-Type` with its boundary is set by the transport.
    public var headers: [(name: String, value: String)]
    /// Text parts, in order, before the file.
    public var fields: [(name: String, value: String)]
    /// The one file part, after the text parts.
    public var file: FilePart

    /// An upload of `file` with `fields` to `url`.
    public init(
        url: String, headers: [(name: String, value: String)] = [],
        fields: [(name: String, value: String)], file: FilePart
    ) {
        self.url = url
        self.headers = headers
        self.fields = fields
        self.file = file
    }
}
