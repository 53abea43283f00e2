import Foundation

/// A folder only the server's user can write in, where uploads stream
/// before they are checked. One that someone else owns, or that is a
/// symbolic link, is refused: whoever can write in it could replace an
/// upload under the server's feet.
public enum PrivateFolder {
    /// Makes `path` (mode 0700, with its parents) if it is missing; then
    /// checks it is a folder of this user's, not a link, and makes it 0700.
    /// `option` names where the path came from, for the one-line refusal.
    public static func prepare(_ path: String, option: String) throws(ServerError) {
        var status = stat()
        if lstat(path, &status) != 0 {
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServerError.internal(
                    "cannot create the upload folder '\(path)'; give \(option) a folder this user may create")
            }
            guard lstat(path, &status) == 0 else {
                throw ServerError.internal("cannot read the upload folder '\(path)'")
            }
        }
        if (status.st_mode & S_IFMT) == S_IFLNK {
            throw ServerError.internal(
                "the upload folder '\(path)' is a symbolic link; give \(option) a real folder that only this user can write in"
            )
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw ServerError.internal(
                "the upload folder '\(path)' is not a folder; give \(option) a folder that only this user can write in")
        }
        guard status.st_uid == geteuid() else {
            throw ServerError.internal(
                "the upload folder '\(path)' belongs to another user (uid \(status.st_uid)), who could replace uploads in it; give \(option) a folder of this user's, mode 0700"
            )
        }
        if status.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 {
            throw ServerError.internal("cannot make the upload folder '\(path)' private (mode 0700)")
        }
    }

    /// A new folder of this user's, mode 0700, made under the system's
    /// temporary folder with a name nobody could have taken first (mkdtemp).
    public static func fresh(prefix: String) throws(ServerError) -> String {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ServerError.internal("cannot make a private upload folder in '\(base)'; give --upload-dir a folder")
        }
        return String(cString: made)
    }
}
