import ArkivatorCore

/// Bytes read by where they stand: a file's bytes in memory, or a large file left on disk
/// (``FileOnDisk``) read a piece at a time.
protocol ByteSource {
    /// The file's length.
    var count: Int { get }
    /// `count` bytes from `offset`; nil when they are not all there (or cannot be read).
    func bytes(at offset: Int, count: Int) -> [UInt8]?
}

extension Array: ByteSource where Element == UInt8 {
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= self.count - count else { return nil }
        return Array(self[offset..<(offset + count)])
    }
}

/// A file left on disk, open for reading.
struct DiskBytes: ByteSource {
    let reader: FileOnDisk.Reader
    let count: Int

    init(_ file: FileOnDisk) throws(InputError) {
        reader = try file.open()
        count = file.size
    }

    func bytes(at offset: Int, count wanted: Int) -> [UInt8]? {
        guard offset >= 0, wanted >= 0, offset <= count - wanted else { return nil }
        var out = [UInt8](repeating: 0, count: wanted)
        do {
            try out.withUnsafeMutableBytes { try reader.read(into: $0, at: offset) }
        } catch {
            return nil
        }
        return out
    }
}
