import Foundation

/// Whether an executable may be run as the caller: as `sudo` and OpenSSH
/// judge the files they trust, the executable and every folder on the way to
/// it must belong to the caller or to root, and be writable by no one else
/// (a folder writable by everyone but marked sticky and owned by root, such
/// as `/tmp`, lets nobody replace what is in it, and passes). Otherwise
/// anyone who can write there could put their own program in its place and
/// have it run with the caller's rights.
enum PluginTrust {
    /// Why `path` may not be run, naming the file or folder and what is wrong; nil when it may.
    static func problem(_ path: String) -> String? {
        let caller = geteuid()
        var item = stat()
        guard stat(path, &item) == 0 else { return nil }
        if let problem = judge(path, item, caller: caller, folder: false) { return problem }
        var folder = (URL(fileURLWithPath: path).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            var info = stat()
            guard stat(folder, &info) == 0 else { break }
            if let problem = judge(folder, info, caller: caller, folder: true) { return problem }
            if folder == "/" { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    private static func judge(_ path: String, _ info: stat, caller: uid_t, folder: Bool) -> String? {
        let what = folder ? "the folder \(path), on the way to it," : "it"
        guard info.st_uid == caller || info.st_uid == 0 else {
            return
                "\(what) belongs to user \(info.st_uid), neither you nor root, who could replace it with a program of their own; refused"
        }
        let sharedSticky = folder && info.st_uid == 0 && info.st_mode & S_ISVTX != 0
        guard info.st_mode & 0o022 == 0 || sharedSticky else {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            return
                "\(what) may be written by other users (mode \(mode)), who could replace it with a program of their own; refused (chmod go-w)"
        }
        return nil
    }
}
