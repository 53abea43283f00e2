internal import CTurboJPEG

/// Owns one TurboJPEG compressor or decompressor handle and destroys it
/// when released. Not Sendable: one compression uses it on one thread.
final class TurboJPEGHandle {
    enum Kind { case compressor, decompressor }

    let raw: tjhandle

    /// Nil only when the library cannot allocate its state.
    init?(_ kind: Kind) {
        let made = kind == .compressor ? tjInitCompress() : tjInitDecompress()
        guard let made else { return nil }
        raw = made
    }

    deinit { tjDestroy(raw) }

    /// The library's description of the last failure on this handle.
    var lastError: String { String(cString: tjGetErrorStr2(raw)) }
}
