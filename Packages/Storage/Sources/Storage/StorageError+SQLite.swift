import Foundation
import SQLite

extension StorageError {
    /// The message of every full-disk failure, whichever layer met it.
    static let diskFullMessage = "The disk is full; free some space and try again. Nothing already saved was lost."

    /// True for the operating system's "no space" errors.
    static func isDiskFull(errno code: Int32) -> Bool { SQLiteError.isDiskFull(errno: code) }

    /// True for an operating-system error that says the device or the call failed (see `SQLiteError`).
    static func isDeviceFailure(errno code: Int32) -> Bool { SQLiteError.isDeviceFailure(errno: code) }

    /// The system's words for `errno`.
    static func cause(_ code: Int32) -> String { SQLiteError.cause(code) }

    /// A SQLite failure in the store's words, with the code the apps act on
    /// (a full disk, a damaged store, a busy one, a permission).
    public init(_ error: SQLiteError) {
        let native = error.native
        let errno = error.systemErrno
        let context = error.context
        switch error.code {
        case .diskFull:
            self.init(.diskFull, Self.diskFullMessage, context: context)
        case .corrupt:
            self.init(.corruptStore, "The store is damaged or is not a jqc store (\(native)).", context: context)
        case .cannotOpen where Self.isDeviceFailure(errno: errno):
            let what = error.openedPath.map { "The store at '\($0)'" } ?? "The store file"
            self.init(
                .io, "\(what) cannot be opened (\(native): \(Self.cause(errno))); check the disk and try again.",
                context: context)
        case .cannotOpen:
            let what = error.openedPath.map { "The store at '\($0)'" } ?? "The store file"
            self.init(
                .permission,
                "\(what) cannot be opened (\(native)); check that its folder exists and that you may write to it.",
                context: context)
        case .notWritable:
            self.init(
                .io,
                "The store at '\(error.openedPath ?? "")' could not be opened for writing (the disk refused it); check the disk and try again.",
                context: context)
        case .readOnly where error.openedPath != nil:
            self.init(
                .permission,
                "The store at '\(error.openedPath ?? "")' is read-only; check the permissions of the file and its folder.",
                context: context)
        case .readOnly:
            self.init(
                .permission,
                "The store cannot be written (\(native)); check the permissions of the file and its folder.",
                context: context)
        case .busy:
            self.init(.busy, "The store stayed busy in another jqc process for too long; try again.", context: context)
        case .constraint:
            self.init(.io, "The change breaks a rule of the store (\(native)); nothing was saved.", context: context)
        case .io where errno != 0:
            self.init(
                .io,
                "The store could not be read or written (\(native): \(Self.cause(errno))); check the disk and try again.",
                context: context)
        case .io:
            self.init(
                .io, "The store could not be read or written (\(native)); check the disk and try again.",
                context: context)
        case .newerSchema:
            self.init(
                .newerStore,
                "The store was written by a newer version of jqc (\(error.context ?? "")). Update jqc; the store was left untouched.",
                context: context)
        case .misuse:
            self.init(.io, error.message, context: context)
        default:
            // `.other`, and any kind of failure SQLite's catalogue gains later.
            self.init(.io, "The store failed (\(native)).", context: context)
        }
    }
}
