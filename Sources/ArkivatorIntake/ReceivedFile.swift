import ArkivatorCore
import ArkivatorCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One page file read from disk and checked: its bytes, its real format and its SHA-256.
public struct ReceivedFile: Sendable {
    public let url: URL
    /// The file's bytes; for a file left on disk (``onDisk``), only its first part (the header).
    public let bytes: [UInt8]
    public let format: ImageFormat
    /// Lower-case hex SHA-256 of the whole file.
    public let sha256: String
    /// Set for a large bitmap or TIFF: its rows are read from disk when its pixels are, so the
    /// file is never in memory whole (uncompressed, a page near the page limit is 180 MB).
    public let onDisk: FileOnDisk?

    /// Files at least this large that are bitmaps or TIFFs are left on disk.
    public static let leftOnDiskFrom = 32 * 1024 * 1024
    /// How much of a file left on disk is read at once: its header and more.
    static let headerBytes = 64 * 1024

    /// Reads a file and checks by its content that it is an image Arkivator reads.
    ///
    /// `maxBytes` refuses absurdly large files before they are read into memory.
    public static func read(_ url: URL, maxBytes: Int = 512 * 1024 * 1024) throws(InputError) -> ReceivedFile {
        let (handle, size) = try openRegularFile(url.path)
        defer { try? handle.close() }
        guard size <= maxBytes else { throw InputError.fileTooLarge(bytes: size, limit: maxBytes) }
        if size >= leftOnDiskFrom, let file = try leftOnDisk(url, handle: handle, size: size) { return file }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            throw .unreadable(error)
        }
        let format = try ImageFormat.sniff(bytes)
        return ReceivedFile(url: url, bytes: bytes, format: format, sha256: Hex.string(SHA256.hash(data: bytes)),
                            onDisk: nil)
    }

    /// A large bitmap or TIFF left on disk: its first part read, the whole file hashed a chunk at
    /// a time. Nil for any other file (read whole, from the start).
    private static func leftOnDisk(_ url: URL, handle: FileHandle, size: Int) throws(InputError) -> ReceivedFile? {
        do {
            let header = [UInt8](try handle.read(upToCount: headerBytes) ?? Data())
            let tiff = header.starts(with: [0x49, 0x49, 0x2A, 0x00]) || header.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            guard FileSignature.isBMP(header) || tiff,
                  let onDisk = FileOnDisk(path: url.path, descriptor: handle.fileDescriptor), onDisk.size == size else {
                try handle.seek(toOffset: 0)
                return nil
            }
            var hasher = SHA256()
            hasher.update(data: header)
            var read = header.count
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
                read += chunk.count
            }
            guard read == size, FileOnDisk(path: url.path, descriptor: handle.fileDescriptor) == onDisk else {
                throw InputError.changedWhileRead
            }
            return ReceivedFile(url: url, bytes: header, format: tiff ? .tiff : .bmp, sha256: Hex.string(hasher.finalize()),
                                onDisk: onDisk)
        } catch let error as InputError {
            throw error
        } catch {
            throw .unreadable(error.localizedDescription)
        }
    }

    /// Opens a file for reading only if it is a regular file, and its size. Opened without
    /// waiting, so a FIFO is refused (``InputError/notRegularFile(kind:)``) instead of waiting for
    /// a writer that never comes.
    static func openRegularFile(_ path: String) throws(InputError) -> (FileHandle, size: Int) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let text = String(cString: strerror(errno))
            close(descriptor)
            throw .unreadable(text)
        }
        let kind: String? = switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "fifo"
        case S_IFSOCK: "socket"
        case S_IFCHR, S_IFBLK: "device"
        case S_IFDIR: "folder"
        default: "other"
        }
        if let kind {
            close(descriptor)
            throw kind == "folder" ? .unreadable(String(cString: strerror(EISDIR))) : .notRegularFile(kind: kind)
        }
        return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), Int(info.st_size))
    }

    /// The SHA-256 of several files' hashes in order: the identity of a multi-file document.
    public static func documentID(of files: [ReceivedFile]) -> String {
        if files.count == 1 { return files[0].sha256 }
        var hasher = SHA256()
        for file in files { hasher.update(data: Array(file.sha256.utf8)) }
        return Hex.string(hasher.finalize())
    }
}

/// A document whose files have been read (and its identity taken) by whoever found it, so the
/// next stage neither reads nor hashes them again (the watcher reads an inbox file once).
public struct ReceivedDocument: Sendable {
    public let source: DocumentSource
    public let files: [ReceivedFile]

    public init(source: DocumentSource, files: [ReceivedFile]) {
        self.source = source
        self.files = files
    }

    /// The document's identity (see ``ReceivedFile/documentID(of:)``).
    public var id: String { ReceivedFile.documentID(of: files) }
}
