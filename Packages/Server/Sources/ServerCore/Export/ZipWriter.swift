import Foundation
import ProgramOutput
import ServerStore

/// A ZIP archive written front to back onto a descriptor, entries stored
/// (not compressed: JPEG photos do not shrink, and stored entries stream at
/// disk speed), each entry's CRC-32 computed while its bytes pass, its
/// sizes and checksum in a data descriptor after it (so nothing is sought
/// back to), ZIP64 records where a size, an offset or the number of entries
/// passes what the classic format holds (4 GiB, 65,535 entries).
///
/// The central directory grows with the entries, so it is written to a
/// scratch file as they are added and copied to the end of the archive:
/// memory stays bounded whatever the number of photos.
final class ZipWriter {
    private let descriptor: Int32
    private let target: String
    private let directory: ScratchFile
    private var offset: UInt64 = 0
    private var entries: UInt64 = 0
    private let stamp: (time: UInt16, date: UInt16)
    /// Bytes one read or write moves at most.
    private static let blockSize = 256 * 1024

    /// An archive written to `descriptor` (`target` names it in messages); the
    /// central directory is spooled in `scratchFolder`.
    init(descriptor: Int32, target: String, scratchFolder: String, now: Date = Date()) throws(ServerError) {
        self.descriptor = descriptor
        self.target = target
        directory = try ScratchFile(folder: scratchFolder)
        stamp = Self.dosTime(now)
    }

    /// Adds an entry named `name` with the bytes `read` produces (it fills the
    /// buffer it is given and returns how many bytes it put there, 0 at the end).
    /// `expectedSize` (when known) decides whether the entry needs ZIP64 sizes.
    func add(_ name: String, expectedSize: UInt64?, read: (UnsafeMutableRawBufferPointer) throws(ServerError) -> Int)
        throws(ServerError)
    {
        let zip64 = (expectedSize ?? UInt64.max) >= 0xFFFF_FFFF || offset >= 0xFFFF_FFFF
        let nameBytes = Array(name.utf8)
        let headerOffset = offset
        try write(localHeader(nameBytes, zip64: zip64))
        let (crc, size) = try copyEntry(read)
        guard zip64 || size < 0xFFFF_FFFF else {
            throw ServerError.internal("'\(name)' grew past 4 GiB while it was archived; export again")
        }
        try write(Self.dataDescriptor(crc: crc, size: size, zip64: zip64))
        try directory.append(centralRecord(nameBytes, crc: crc, size: size, headerOffset: headerOffset, zip64: zip64))
        entries += 1
    }

    /// The local header of an entry: its sizes and checksum left to the data descriptor, ZIP64 fields when asked.
    private func localHeader(_ nameBytes: [UInt8], zip64: Bool) -> [UInt8] {
        var local = Bytes()
        local.u32(0x0403_4B50)
        local.u16(zip64 ? 45 : 20) // version needed
        local.u16(0x0808) // bit 3: data descriptor; bit 11: UTF-8 name
        local.u16(0) // stored
        local.u16(stamp.time)
        local.u16(stamp.date)
        local.u32(0) // CRC-32, in the data descriptor
        local.u32(zip64 ? 0xFFFF_FFFF : 0) // sizes, in the data descriptor
        local.u32(zip64 ? 0xFFFF_FFFF : 0)
        local.u16(UInt16(nameBytes.count))
        local.u16(zip64 ? 20 : 0)
        local.append(nameBytes)
        if zip64 {
            local.u16(0x0001)
            local.u16(16)
            local.u64(0)
            local.u64(0)
        }
        return local.bytes
    }

    /// Writes the bytes `read` produces, a block at a time, to their end; their CRC-32 and how many there were.
    private func copyEntry(_ read: (UnsafeMutableRawBufferPointer) throws(ServerError) -> Int) throws(ServerError)
        -> (crc: UInt32, size: UInt64)
    {
        var crc = CRC32()
        var size: UInt64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.blockSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(buffer)
            if count <= 0 { break }
            let filled = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            crc.update(filled)
            try write(filled)
            size += UInt64(count)
        }
        return (crc.value, size)
    }

    /// The data descriptor after an entry's bytes: their checksum and sizes (ZIP64 sizes when the header said so).
    private static func dataDescriptor(crc: UInt32, size: UInt64, zip64: Bool) -> [UInt8] {
        var trailer = Bytes()
        trailer.u32(0x0807_4B50)
        trailer.u32(crc)
        if zip64 {
            trailer.u64(size)
            trailer.u64(size)
        } else {
            trailer.u32(UInt32(size))
            trailer.u32(UInt32(size))
        }
        return trailer.bytes
    }

    /// The central directory's record of the entry, ZIP64 fields where a value overflows.
    private func centralRecord(_ nameBytes: [UInt8], crc: UInt32, size: UInt64, headerOffset: UInt64, zip64: Bool)
        -> [UInt8]
    {
        let bigSize = size >= 0xFFFF_FFFF
        let bigOffset = headerOffset >= 0xFFFF_FFFF
        let extra = Self.zip64Extra(size: bigSize ? size : nil, headerOffset: bigOffset ? headerOffset : nil)
        var central = Bytes()
        central.u32(0x0201_4B50)
        central.u16(0x031E) // made by: Unix, 3.0
        central.u16(zip64 || bigOffset ? 45 : 20)
        central.u16(0x0808)
        central.u16(0)
        central.u16(stamp.time)
        central.u16(stamp.date)
        central.u32(crc)
        central.u32(bigSize ? 0xFFFF_FFFF : UInt32(size))
        central.u32(bigSize ? 0xFFFF_FFFF : UInt32(size))
        central.u16(UInt16(nameBytes.count))
        central.u16(UInt16(extra.count))
        central.u16(0) // comment
        central.u16(0) // disk
        central.u16(0) // internal attributes
        central.u32(UInt32(0o100644) << 16) // a regular file, rw-r--r--
        central.u32(bigOffset ? 0xFFFF_FFFF : UInt32(headerOffset))
        central.append(nameBytes)
        central.append(extra)
        return central.bytes
    }

    /// The ZIP64 extra field of a central record, holding the sizes and the offset given (none: no field).
    private static func zip64Extra(size: UInt64?, headerOffset: UInt64?) -> [UInt8] {
        var extra = Bytes()
        if size != nil || headerOffset != nil {
            extra.u16(0x0001)
            extra.u16(UInt16((size != nil ? 16 : 0) + (headerOffset != nil ? 8 : 0)))
            if let size {
                extra.u64(size)
                extra.u64(size)
            }
            if let headerOffset { extra.u64(headerOffset) }
        }
        return extra.bytes
    }

    /// Adds an entry from an open descriptor (closed by the caller), read to its end.
    func add(_ name: String, from source: Int32, expectedSize: UInt64?) throws(ServerError) {
        try add(name, expectedSize: expectedSize) { (buffer) throws(ServerError) -> Int in
            while true {
                let count = Glibc.read(source, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                if errno != EINTR {
                    throw ServerError.internal("could not read '\(name)' (\(String(cString: strerror(errno))))")
                }
            }
        }
    }

    /// Writes the central directory and its end records; the archive is then complete.
    func finish() throws(ServerError) {
        let directoryOffset = offset
        let directorySize = directory.size
        try directory.copy { (bytes) throws(ServerError) in try write(bytes) }
        directory.remove()
        let zip64 = entries >= 0xFFFF || directoryOffset >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
        var end = Bytes()
        if zip64 {
            let recordOffset = offset
            end.u32(0x0606_4B50)
            end.u64(44)
            end.u16(0x031E)
            end.u16(45)
            end.u32(0)
            end.u32(0)
            end.u64(entries)
            end.u64(entries)
            end.u64(directorySize)
            end.u64(directoryOffset)
            end.u32(0x0706_4B50)
            end.u32(0)
            end.u64(recordOffset)
            end.u32(1)
        }
        end.u32(0x0605_4B50)
        end.u16(0)
        end.u16(0)
        end.u16(zip64 ? 0xFFFF : UInt16(entries))
        end.u16(zip64 ? 0xFFFF : UInt16(entries))
        end.u32(zip64 ? 0xFFFF_FFFF : UInt32(directorySize))
        end.u32(zip64 ? 0xFFFF_FFFF : UInt32(directoryOffset))
        end.u16(0)
        try write(end.bytes)
    }

    /// Drops the scratch file (an archive abandoned half-way).
    func abandon() { directory.remove() }

    private func write(_ bytes: [UInt8]) throws(ServerError) {
        do throws(OutputError) {
            try DescriptorWriter.writeAll(descriptor, bytes, target: target)
        } catch {
            throw ServerError.internal("could not write \(target): \(error.reason)")
        }
        offset += UInt64(bytes.count)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws(ServerError) {
        do throws(OutputError) {
            try DescriptorWriter.writeAll(descriptor, bytes, target: target)
        } catch {
            throw ServerError.internal("could not write \(target): \(error.reason)")
        }
        offset += UInt64(bytes.count)
    }

    /// MS-DOS time and date (local fields, two-second steps), as ZIP stores them.
    private static func dosTime(_ date: Date) -> (time: UInt16, date: UInt16) {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = max(0, Int(parts.tm_year) + 1900 - 1980)
        let time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        let day = UInt16(year) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
        return (time, day)
    }
}

/// Little-endian fields of a ZIP record.
private struct Bytes {
    var bytes: [UInt8] = []
    mutating func u16(_ value: UInt16) { bytes.append(UInt8(value & 0xFF)); bytes.append(UInt8(value >> 8)) }
    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }
    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }
}

/// A private temporary file beside the output, written then read back once.
final class ScratchFile {
    let path: String
    private let descriptor: Int32
    private(set) var size: UInt64 = 0
    private var removed = false

    init(folder: String) throws(ServerError) {
        path = folder + "/.jqc-export-" + String(UInt64.random(in: .min ... .max), radix: 16)
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerError.internal(
                "could not make a scratch file in '\(folder)' (\(String(cString: strerror(errno))))")
        }
    }

    deinit { remove() }

    func append(_ bytes: [UInt8]) throws(ServerError) {
        do throws(OutputError) {
            try DescriptorWriter.writeAll(descriptor, bytes, target: "'\(path)'")
        } catch {
            throw ServerError.internal("could not write the scratch file '\(path)': \(error.reason)")
        }
        size += UInt64(bytes.count)
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(ServerError) {
        do throws(OutputError) {
            try DescriptorWriter.writeAll(descriptor, bytes, target: "'\(path)'")
        } catch {
            throw ServerError.internal("could not write the scratch file '\(path)': \(error.reason)")
        }
        size += UInt64(bytes.count)
    }

    /// Hands the whole file, from its start, to `body` a block at a time.
    func copy(_ body: (UnsafeRawBufferPointer) throws(ServerError) -> Void) throws(ServerError) {
        try rewind()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer)
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Reads the file from its start into `buffer`, continuing where the last call ended; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ServerError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR {
                throw ServerError.internal("could not read back '\(path)' (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Moves back to the start, for `read(into:)`.
    func rewind() throws(ServerError) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw ServerError.internal("could not read back '\(path)' (\(String(cString: strerror(errno))))")
        }
    }

    func remove() {
        guard !removed else { return }
        removed = true
        close(descriptor)
        unlink(path)
    }
}
