import Foundation
import Testing
import Storage

/// Where a test's store lives: the important store tests run on both.
public enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A private in-memory store.
    case memory
    /// A real file (WAL, busy timeout) in a fresh temporary directory.
    case file

    public var testDescription: String { rawValue }
}

/// A fresh store for one test, with a temporary directory for its files
/// (the store file when on disk, and always the photo folder).
public final class TestStore: @unchecked Sendable {
    // Immutable after init; the directory is removed when the value goes away.
    public let store: LocalStore
    /// Holds the store file (for `.file`) and the photo folder.
    public let directory: TemporaryDirectory
    /// The photo files of this store.
    public let photoFiles: PhotoFileStore

    public init(_ kind: StoreKind) throws {
        directory = TemporaryDirectory(prefix: "jqc-store")
        photoFiles = try PhotoFileStore(directory: directory.url.appendingPathComponent("photos"))
        switch kind {
        case .memory: store = try LocalStore.inMemory(photoFiles: photoFiles)
        case .file: store = try LocalStore.open(at: directory.path("jqc.sqlite"), photoFiles: photoFiles)
        }
    }
}
