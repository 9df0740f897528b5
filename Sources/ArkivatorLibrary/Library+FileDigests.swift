import ArkivatorCore
internal import ArkivatorCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An archive file's content as the library knows it: its SHA-256 (hex) and size, and the stamp
/// of the file they were read from (see ``Library/stamp(_:)``).
public struct FileDigest: Sendable, Equatable {
    public var sha256: String
    public var size: Int
    /// Device, inode, size, change and modification times, when the content was read.
    public var stamp: String
}

extension Library {
    /// What identifies a file's content without reading it: device, inode, size, and the
    /// change and modification times to the nanosecond. Any write, rename or `touch` changes it.
    static func stamp(of info: stat) -> String {
        "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec):"
            + "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// The stamp of the file at `path` now; nil when it cannot be read.
    static func stamp(_ path: String) -> String? {
        var info = stat()
        guard fstatat(AT_FDCWD, path, &info, 0) == 0 else { return nil }
        return stamp(of: info)
    }

    /// SHA-256 (hex) and size of a file, read in pieces; nil when it cannot be read.
    public static func digest(_ path: String) -> (String, Int)? {
        digestAndStamp(path).map { ($0.sha256, $0.size) }
    }

    /// The file's content digest, with the stamp taken before it was read (so a file written
    /// while it is read gets a stamp that no longer matches, and is read again next time).
    static func digestAndStamp(_ path: String) -> FileDigest? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        var hasher = SHA256()
        var size = 0
        var buffer = [UInt8](repeating: 0, count: min(max(Int(info.st_size), 1), 1 << 20))
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            size += count
        }
        return FileDigest(sha256: Hex.string(hasher.finalize()), size: size,
                          stamp: stamp(of: info))
    }

    /// The digest of each archive file (absolute paths), read for those the library has not
    /// recorded with their stamp now (just written by filing, or changed since). Returns them by
    /// the stored path, and those read anew (to be recorded with ``recordDigests(_:in:)``).
    /// Files that cannot be read are left out.
    func digests(of files: [(stored: String, path: String, known: FileDigest?)]) -> (all: [String: FileDigest], read: [String: FileDigest]) {
        var all: [String: FileDigest] = [:], read: [String: FileDigest] = [:]
        for file in files {
            if let known = file.known, Self.stamp(file.path) == known.stamp {
                all[file.stored] = known
            } else if let digest = Self.digestAndStamp(file.path) {
                all[file.stored] = digest
                read[file.stored] = digest
            }
        }
        return (all, read)
    }

    /// Records files' digests by stored path (inside the caller's transaction).
    func recordDigests(_ digests: [String: FileDigest], in database: Database) throws {
        for (path, digest) in digests {
            try database.execute("""
                INSERT INTO file_digests (path, stamp, sha256, size) VALUES (?, ?, ?, ?)
                ON CONFLICT (path) DO UPDATE SET stamp = excluded.stamp, sha256 = excluded.sha256, size = excluded.size
                """, [path, digest.stamp, digest.sha256, digest.size])
        }
    }
}
