internal import CCurl

/// Facts about the libcurl this program runs with.
public enum Libcurl {
    /// libcurl's version and TLS backend, as `curl --version` names them ("8.1.2 OpenSSL/3.0.11").
    public static var version: String {
        guard let info = jqc_version_info() else { return "unknown" }
        let version = info.pointee.version.map { String(cString: $0) } ?? "unknown"
        let ssl = info.pointee.ssl_version.map { String(cString: $0) } ?? "no TLS"
        return "\(version) \(ssl)"
    }
}
