internal import CCurl

/// libcurl's process-wide set-up, done exactly once before the first handle.
///
/// `curl_global_init` must run before any other libcurl call and, in the
/// libcurl versions Debian ships before 7.84, is not itself thread-safe.
/// A Swift `static let` is initialised once, atomically, on first use, so
/// every handle constructor reads `CurlGlobal.ready` first and no two threads
/// ever race the initialisation. It is never cleaned up: the process owns
/// libcurl until it exits.
enum CurlGlobal {
    /// True when libcurl initialised; false leaves every transfer failing with `.transport`.
    static let ready: Bool = jqc_global_init() == CURLE_OK
}
