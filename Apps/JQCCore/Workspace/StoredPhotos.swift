import Foundation
import Models
import Storage

/// The profile's photo files as the exports read them: where a photo's
/// stored JPEG is, when this device holds it.
public struct StoredPhotos: Sendable {
    let files: PhotoFileStore

    /// The stored JPEG of a photo, or nil when its file is not on this device or cannot be read.
    public func file(of photo: Photo) -> URL? {
        guard let url = try? files.url(for: photo.fileName), FileManager.default.isReadableFile(atPath: url.path)
        else { return nil }
        return url
    }
}
