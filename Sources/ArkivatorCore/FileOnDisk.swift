import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file whose content is read from disk again when it is needed, rather than held in memory:
/// a bitmap near the page limit is 180 MB of raw rows. It remembers how the file looked when it
/// was first read (device, inode, size, time of last change), so a file changed or replaced since
/// is refused (``InputError/changedWhileRead``) rather than read as something else.
public struct FileOnDisk: Sendable, Equatable {
    public let path: String
    public let size: Int
    private let device: UInt64
    private let inode: UInt64
    private let modified: Int64
    private let modifiedNanoseconds: Int64

    /// The file open as `descriptor`, as it is now.
    public init?(path: String, descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.path = path
        size = Int(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    }

    /// Opens the file for reading, if it is still the one first read.
    public func open() throws(InputError) -> Reader {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        let reader = Reader(descriptor)
        guard let now = FileOnDisk(path: path, descriptor: descriptor), now == self else { throw .changedWhileRead }
        return reader
    }

    /// The whole file, read again (for a decoder that needs it in memory).
    public func readAll() throws(InputError) -> [UInt8] {
        let reader = try open()
        var bytes = [UInt8](repeating: 0, count: size)
        do {
            try bytes.withUnsafeMutableBytes { try reader.read(into: $0, at: 0) }
        } catch let error as InputError {
            throw error
        } catch {
            throw .unreadable(error.localizedDescription)
        }
        return bytes
    }

    /// An open file, read at given offsets; closed when released.
    public final class Reader {
        private let descriptor: Int32

        fileprivate init(_ descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit {
            close(descriptor)
        }

        /// Fills `buffer` from `offset`; a file that ends before is ``InputError/changedWhileRead``.
        public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(InputError) {
            var done = 0
            while done < buffer.count {
                guard let base = buffer.baseAddress else { return }
                let got = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
                guard got > 0 else { throw .changedWhileRead }
                done += got
            }
        }
    }
}
