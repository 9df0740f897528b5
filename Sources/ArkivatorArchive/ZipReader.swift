internal import CZip
import Foundation

/// An existing zip archive opened for reading with libzip: owns its `zip_t` and closes it
/// (unchanged) when released. Reads whole entries, each within a size limit.
public final class ZipReader {
    private let handle: OpaquePointer
    private let path: String

    /// Opens the archive at `url` read-only.
    public init(url: URL) throws(ZipError) {
        var code: Int32 = 0
        let opened = zip_open(url.path, ZIP_RDONLY, &code)
        handle = try ZipError.check(opened, .code(code), operation: "open", archive: url.path)
        path = url.path
    }

    deinit {
        zip_discard(handle)
    }

    /// The bytes of the entry `name`; nil when the archive has no such entry or it is larger
    /// than `limit` bytes uncompressed.
    public func entry(_ name: String, limit: Int = 16 << 20) throws(ZipError) -> [UInt8]? {
        var info = zip_stat_t()
        zip_stat_init(&info)
        guard zip_stat(handle, name, 0, &info) == 0, info.valid & zip_uint64_t(ZIP_STAT_SIZE) != 0,
              info.size <= zip_uint64_t(limit) else { return nil }
        let file = try ZipError.check(zip_fopen(handle, name, 0), .archive(handle), operation: "read \(name)", archive: path)
        defer { zip_fclose(file) }
        var bytes = [UInt8](repeating: 0, count: Int(info.size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                zip_fread(file, buffer.baseAddress?.advanced(by: filled), zip_uint64_t(buffer.count - filled))
            }
            try ZipError.check(got >= 0, .archive(handle), operation: "read \(name)", archive: path)
            if got == 0 { break }
            filled += Int(got)
        }
        return Array(bytes.prefix(filled))
    }
}
