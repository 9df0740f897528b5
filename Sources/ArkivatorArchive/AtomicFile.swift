#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ArkivatorCore

/// Crash-safe file writes: a file is either absent or complete under its final name.
///
/// Bytes go to a temporary file in the target's folder (a name starting with `.` and ending
/// in `.tmp`), are flushed with `fsync`, and the file is then published under its name: with
/// `link` + `unlink` when nothing may be replaced (falling back to `renameat2(RENAME_NOREPLACE)`
/// or an exclusive placeholder on disks without hard links), with `rename` when it may. The
/// folder is flushed last, so the new name survives a power cut too.
public enum AtomicFile {
    /// Files are readable by their owner only unless asked otherwise: the archive holds
    /// medical letters.
    public static let defaultMode: mode_t = 0o600

    /// Folders made by ``createDirectory(_:mode:)`` are private by default too.
    public static let defaultDirectoryMode: mode_t = 0o700

    /// Writes `bytes` to `url` atomically.
    ///
    /// - Parameters:
    ///   - overwrite: when false (the default) an existing file is never replaced and
    ///     ``AtomicFileError/Kind/exists`` is thrown; when true it is replaced atomically.
    ///   - mode: the new file's permissions (exact, whatever the umask).
    /// - Throws: ``AtomicFileError``; no temporary file is left behind on any failure.
    public static func write(_ bytes: [UInt8], to url: URL, overwrite: Bool = false,
                             mode: mode_t = defaultMode) throws(AtomicFileError) {
        let temporary = try writeTemporary(bytes, beside: url, mode: mode)
        do throws(AtomicFileError) {
            try place(temporary: temporary.path, at: url.path, overwrite: overwrite)
        } catch {
            _ = unlink(temporary.path)
            throw error
        }
        try syncDirectory(url.deletingLastPathComponent())
    }

    /// Publishes a complete file that another writer produced at `temporary` (a zip writer,
    /// Tesseract's PDF renderer) under `url`, with the same guarantees as ``write(_:to:overwrite:mode:)``.
    ///
    /// The temporary file is flushed first (its writer may not have), gets `mode` (unless nil)
    /// and is gone on success. On failure it stays where it was, for the caller to retry with
    /// another name or remove. A temporary file on another disk is copied (and flushed) beside
    /// the target first.
    public static func publish(temporary: URL, to url: URL, overwrite: Bool = false,
                               mode: mode_t? = defaultMode) throws(AtomicFileError) {
        do throws(AtomicFileError) {
            try flushTemporary(temporary.path, mode: mode)
        } catch {
            throw AtomicFileError(errno: error.errorNumber, operation: error.operation, path: url.path)
        }
        try place(temporary: temporary.path, at: url.path, overwrite: overwrite)
        try syncDirectory(url.deletingLastPathComponent())
    }

    /// A fresh temporary name in the folder of `url` (`.arkivator-<random>.tmp`), for a writer
    /// that then hands the file to ``publish(temporary:to:overwrite:mode:)``. Nothing is created.
    public static func makeTemporaryURL(beside url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(temporaryName())
    }

    /// True for names ``makeTemporaryURL(beside:)`` makes (so a tidy-up can find leftovers).
    public static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".arkivator-") && name.hasSuffix(".tmp")
    }

    /// Creates `url` and any missing parent folders with `mode` (existing ones are left as
    /// they are); each new folder's parent is flushed so the folder survives a power cut.
    public static func createDirectory(_ url: URL, mode: mode_t = defaultDirectoryMode) throws(AtomicFileError) {
        let path = url.standardizedFileURL.path
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return }
            // A symlink to a folder is accepted here; callers that care check the real path.
            if info.st_mode & S_IFMT == S_IFLNK, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
            throw AtomicFileError(errno: ENOTDIR, operation: "mkdir", path: path)
        }
        let parent = url.standardizedFileURL.deletingLastPathComponent()
        if parent.path != path { try createDirectory(parent, mode: mode) }
        do throws(AtomicFileError) {
            try syscall("mkdir", path: path) { mkdir(path, mode) }
            _ = chmod(path, mode)  // exact mode whatever the umask; best effort
        } catch where error.kind == .exists {
            return  // made by someone else meanwhile
        }
        try syncDirectory(parent)
    }

    /// Flushes a folder's entries (new, renamed and removed names) to disk. File systems that
    /// cannot flush a folder (`EINVAL`, `ENOTSUP`) are accepted.
    public static func syncDirectory(_ url: URL) throws(AtomicFileError) {
        let path = url.path
        let descriptor = try syscall("open", path: path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { _ = close(descriptor) }
        do throws(AtomicFileError) {
            try syscall("fsync", path: path) { fsync(descriptor) }
        } catch where error.errorNumber == EINVAL || error.errorNumber == ENOTSUP || error.errorNumber == EOPNOTSUPP {
            return
        }
    }

    // MARK: - The one place errno becomes an error

    /// Runs a system call that returns -1 and sets `errno` on failure, retrying on `EINTR`
    /// (unless `retryOnInterrupt` is false, as for `close`), and throws its ``AtomicFileError``.
    @discardableResult
    static func syscall<Result: FixedWidthInteger & SignedInteger>(
        _ operation: String, path: String, retryOnInterrupt: Bool = true, _ body: () -> Result
    ) throws(AtomicFileError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let number = errno
            if number == EINTR {
                if retryOnInterrupt { continue }
                return 0
            }
            throw AtomicFileError(errno: number, operation: operation, path: path)
        }
    }

    // MARK: - Building blocks (also used by ArchiveLayout)

    /// `.arkivator-<16 hex digits>.tmp`.
    static func temporaryName() -> String {
        let random = UInt64.random(in: .min ... .max)
        let hex = String(random, radix: 16)
        return ".arkivator-" + String(repeating: "0", count: 16 - hex.count) + hex + ".tmp"
    }

    /// Writes `bytes` to a new temporary file beside `url`, flushed and closed, with `mode`.
    /// Nothing is left behind on failure.
    static func writeTemporary(_ bytes: [UInt8], beside url: URL, mode: mode_t = defaultMode) throws(AtomicFileError) -> URL {
        do throws(AtomicFileError) {
            return try writeTemporaryFile(bytes, beside: url, mode: mode)
        } catch {
            // Said of the file being written, not of its hidden temporary name.
            throw AtomicFileError(errno: error.errorNumber, operation: error.operation, path: url.path)
        }
    }

    private static func writeTemporaryFile(_ bytes: [UInt8], beside url: URL, mode: mode_t) throws(AtomicFileError) -> URL {
        let folder = url.deletingLastPathComponent()
        var attempts = 0
        while true {
            attempts += 1
            let temporary = folder.appendingPathComponent(temporaryName())
            let path = temporary.path
            let descriptor: Int32
            do throws(AtomicFileError) {
                descriptor = try syscall("open", path: path) {
                    open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
                }
            } catch where error.kind == .exists && attempts < 8 {
                continue  // a random name taken: draw again
            }
            do throws(AtomicFileError) {
                try syscall("fchmod", path: path) { fchmod(descriptor, mode) }
                try writeAll(bytes, to: descriptor, path: path)
                try syscall("fsync", path: path) { fsync(descriptor) }
            } catch {
                _ = close(descriptor)
                _ = unlink(path)
                throw error
            }
            do throws(AtomicFileError) {
                try syscall("close", path: path, retryOnInterrupt: false) { close(descriptor) }
            } catch {
                _ = unlink(path)
                throw error
            }
            return temporary
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(AtomicFileError) {
        var offset = 0
        while offset < bytes.count {
            let written = try syscall("write", path: path) {
                bytes.withUnsafeBytes { buffer in
                    #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    #else
                    Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    #endif
                }
            }
            if written == 0 { throw AtomicFileError(errno: EIO, operation: "write", path: path) }
            offset += written
        }
    }

    /// Opens a file another writer made (never through a symlink), checks that it is a plain
    /// file, sets `mode` and flushes it.
    static func flushTemporary(_ path: String, mode: mode_t?) throws(AtomicFileError) {
        let descriptor = try syscall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { _ = close(descriptor) }
        var info = stat()
        try syscall("fstat", path: path) { fstat(descriptor, &info) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw AtomicFileError(errno: EINVAL, operation: "open", path: path)
        }
        if let mode { try syscall("fchmod", path: path) { fchmod(descriptor, mode) } }
        try syscall("fsync", path: path) { fsync(descriptor) }
    }

    /// How a file is published without replacing anything; tests pick the fallbacks directly.
    enum NoReplaceStrategy: CaseIterable {
        /// `link` then `unlink` of the temporary file: works on every POSIX disk with hard links.
        case link
        /// `renameat2(RENAME_NOREPLACE)` on Linux, `renamex_np(RENAME_EXCL)` on macOS.
        case renameNoReplace
        /// An exclusive empty placeholder under the final name, then `rename` over it: for
        /// disks with neither (some FUSE and network mounts). The name is claimed atomically;
        /// for a moment it holds an empty file.
        case placeholder
    }

    /// Moves `temporary` to `target` (same folder or at least the same disk), never replacing
    /// an existing `target` unless `overwrite`. The folder is not flushed. On failure the
    /// temporary file is where it was.
    static func place(temporary: String, at target: String, overwrite: Bool,
                      strategies: [NoReplaceStrategy] = NoReplaceStrategy.allCases) throws(AtomicFileError) {
        do throws(AtomicFileError) {
            if overwrite {
                try syscall("rename", path: target) { rename(temporary, target) }
                return
            }
            try placeWithoutReplacing(temporary: temporary, at: target, strategies: strategies)
        } catch where error.errorNumber == EXDEV {
            // The temporary file is on another disk: copy it beside the target, then publish.
            let copy = try copyBeside(source: temporary, target: target)
            do throws(AtomicFileError) {
                try place(temporary: copy, at: target, overwrite: overwrite, strategies: strategies)
            } catch {
                _ = unlink(copy)
                throw error
            }
            _ = unlink(temporary)
        }
    }

    private static func placeWithoutReplacing(temporary: String, at target: String,
                                              strategies: [NoReplaceStrategy]) throws(AtomicFileError) {
        var lastError = AtomicFileError(errno: ENOTSUP, operation: "link", path: target)
        for strategy in strategies {
            do throws(AtomicFileError) {
                switch strategy {
                case .link:
                    try syscall("link", path: target) { link(temporary, target) }
                    _ = unlink(temporary)  // published already; a leftover second name is harmless
                case .renameNoReplace:
                    try renameNoReplace(temporary, target)
                case .placeholder:
                    let descriptor = try syscall("open", path: target) {
                        open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
                    }
                    _ = close(descriptor)
                    do throws(AtomicFileError) {
                        try syscall("rename", path: target) { rename(temporary, target) }
                    } catch {
                        _ = unlink(target)
                        throw error
                    }
                }
                return
            } catch {
                // Only "this disk cannot do that" moves on to the next way.
                let unsupported: Set<Int32> = [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EMLINK, EINVAL]
                guard unsupported.contains(error.errorNumber) else { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    #if canImport(Glibc)
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
    /// glibc ≥ 2.28 has `renameat2`, but its header only declares it under `_GNU_SOURCE`.
    private static let renameAt2: RenameAt2? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
    #endif

    /// `rename` that never replaces an existing name (`renameat2(RENAME_NOREPLACE)`); works for
    /// folders too. Throws `ENOSYS`/`EINVAL` where the system or disk cannot do it.
    public static func renameNoReplace(_ source: String, _ target: String) throws(AtomicFileError) {
        #if canImport(Glibc)
        guard let renameAt2 else { throw AtomicFileError(errno: ENOSYS, operation: "renameat2", path: target) }
        try syscall("renameat2", path: target) { renameAt2(AT_FDCWD, source, AT_FDCWD, target, 1 /* RENAME_NOREPLACE */) }
        #elseif canImport(Darwin)
        try syscall("renamex_np", path: target) { renamex_np(source, target, UInt32(RENAME_EXCL)) }
        #endif
    }

    /// Copies `source` to a new flushed temporary file in the folder of `target`.
    static func copyBeside(source: String, target: String) throws(AtomicFileError) -> String {
        let input = try syscall("open", path: source) { open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { _ = close(input) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try syscall("read", path: source) {
                chunk.withUnsafeMutableBytes { buffer in read(input, buffer.baseAddress!, buffer.count) }
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        var info = stat()
        let mode = fstat(input, &info) == 0 ? mode_t(info.st_mode & 0o777) : defaultMode
        return try writeTemporary(bytes, beside: URL(fileURLWithPath: target), mode: mode).path
    }
}
