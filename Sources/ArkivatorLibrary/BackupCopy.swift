import ArkivatorArchive
import ArkivatorCore
internal import ArkivatorCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The plain POSIX copy a backup and a restore make of each file (outside `Library`, whose
/// own `open` would hide the system call's).
enum BackupCopy {
    /// Copies the plain file `source` to the new file `target` (mode 0600), flushed, and returns
    /// its size and SHA-256 as read; nil when `source` is not there (or not a plain file).
    /// Without `target`, only reads and hashes.
    static func copyHashing(_ source: URL, to target: URL?, path: String) throws -> BackupManifest.Entry? {
        let input = open(source.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else {
            if errno == ENOENT || errno == ELOOP { return nil }
            throw AtomicFileError(errno: errno, operation: "open", path: source.path)
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let targetPath = target?.path ?? ""
        var output: Int32 = -1
        if target != nil {
            output = open(targetPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
            guard output >= 0 else { throw AtomicFileError(errno: errno, operation: "open", path: targetPath) }
        }
        var hasher = SHA256()
        var total: Int64 = 0
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var failure: AtomicFileError?
        copying: while true {
            let count = read(input, buffer, size)
            if count < 0 {
                if errno == EINTR { continue }
                failure = AtomicFileError(errno: errno, operation: "read", path: source.path)
                break
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: buffer, count: count))
            var offset = output < 0 ? count : 0
            while offset < count {
                let written = write(output, buffer + offset, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = AtomicFileError(errno: errno, operation: "write", path: targetPath)
                    break copying
                }
                offset += written
            }
            total += Int64(count)
        }
        if output >= 0 {
            if failure == nil, fsync(output) != 0, errno != EINVAL {
                failure = AtomicFileError(errno: errno, operation: "fsync", path: targetPath)
            }
            close(output)
            if failure != nil { unlink(targetPath) }
        }
        if let failure { throw failure }
        return BackupManifest.Entry(path: path, bytes: total, sha256: Hex.string(hasher.finalize()))
    }

}

extension LibraryFailure {
    static func backupInsideLibrary(_ path: String) -> LibraryFailure {
        .init(.targetExists,
              nb: "\(path) ligger inne i bibliotekmappen. Velg en mappe utenfor den, helst på en annen disk; ingenting ble skrevet.",
              en: "\(path) lies inside the library folder. Choose a folder outside it, preferably on another disk; nothing was written.")
    }

    static func libraryNotEmptyForFolder(_ library: String, documents: Int) -> LibraryFailure {
        .init(.libraryNotEmpty,
              nb: "Biblioteket \(library) har \(documents) dokument\(documents == 1 ? "" : "er"). En hel sikkerhetskopi gjenopprettes bare i en tom bibliotekmappe: velg en ny med --library, eller flytt denne til side først. Ingenting ble endret.",
              en: "The library \(library) holds \(documents) document\(documents == 1 ? "" : "s"). A whole backup is restored only into an empty library folder: choose a new one with --library, or move this one aside first. Nothing was changed.")
    }

    static func libraryFolderNotEmpty(_ library: String, folder: String, files: Int) -> LibraryFailure {
        .init(.libraryNotEmpty,
              nb: "Mappen \(folder) i biblioteket \(library) har \(files) fil\(files == 1 ? "" : "er"). En hel sikkerhetskopi gjenopprettes bare i en tom bibliotekmappe: velg en ny med --library, eller flytt denne til side først. Ingenting ble endret.",
              en: "The folder \(folder) in the library \(library) holds \(files) file\(files == 1 ? "" : "s"). A whole backup is restored only into an empty library folder: choose a new one with --library, or move this one aside first. Nothing was changed.")
    }
}
