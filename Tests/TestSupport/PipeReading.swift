import Foundation
#if canImport(Glibc)
    import Glibc
#endif

extension FileHandle {
    /// The bytes that can be read now, waiting for at least one; empty at the
    /// end of the stream or on a read error. Read with read(2), which reports
    /// an error instead of trapping as `availableData` does.
    public func readAvailable(upTo count: Int = 65_536) -> Data {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, count) }
            if read > 0 { return Data(buffer[0..<read]) }
            if read < 0 && errno == EINTR { continue }
            return Data()
        }
    }
}
