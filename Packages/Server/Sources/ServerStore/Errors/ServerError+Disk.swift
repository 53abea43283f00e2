import Foundation

extension ServerError {
    /// True for the operating system's "no space" errors: the disk or the quota is full.
    public static func isDiskFull(errno code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT
    }

    /// A failed operation on the server's own disk: 507 `STORAGE_FULL` when
    /// the disk or the quota is full (`ENOSPC`, `EDQUOT`), otherwise 500 with
    /// `message` and the system's words for `code`.
    public static func disk(_ message: String, errno code: Int32) -> ServerError {
        if isDiskFull(errno: code) { return storageFull() }
        return .internal("\(message) (\(String(cString: strerror(code))))")
    }
}
