internal import CZip
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new zip archive, written with libzip: owns its `zip_t` and discards it, unwritten, when
/// released without ``close()``.
///
/// Entries are stored in the order they are first added (a `.docx` adds `[Content_Types].xml`
/// first), names are UTF-8, and adding a name again replaces the earlier entry in its place.
/// Every entry gets the same modification time, so the same entries give the same bytes.
///
/// libzip writes nothing until ``close()``: it then writes a temporary file beside `url` and
/// renames it to `url`. Give it a temporary path of your own and rename that into place, so a
/// reader never sees a half-written archive under the final name.
///
/// Not `Sendable`: one writer is used from one thread at a time.
public final class ZipWriter {
    /// The file the archive is written to, or nil for an archive built in memory.
    public let url: URL?
    /// The modification time every entry gets.
    public let modified: Date

    private var handle: OpaquePointer?
    /// The in-memory buffer source the archive is written into, kept alive past `zip_close`.
    private let memory: OpaquePointer?
    /// The finished archive, once closed.
    private var written: [UInt8]?
    private var names: Set<String> = []

    /// An empty zip archive: end-of-central-directory record, no entries (libzip writes no file then).
    static let emptyArchive: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)

    private var archivePath: String? { url?.path }

    /// A new archive to be written to `url` (replacing any file there) by ``close()``.
    public init(url: URL, modified: Date = Date()) throws(ZipError) {
        var code: Int32 = 0
        let opened = zip_open(url.path, ZIP_CREATE | ZIP_TRUNCATE, &code)
        self.handle = try ZipError.check(opened, .code(code), operation: "open", archive: url.path)
        self.url = url
        self.memory = nil
        self.modified = modified
    }

    /// A new archive built in memory; ``bytes()`` returns it.
    public init(modified: Date = Date()) throws(ZipError) {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let source = zip_source_buffer_create(nil, 0, 0, &error)
        let buffer = try ZipError.check(source, .code(zip_error_code_zip(&error)), operation: "create buffer", archive: nil)
        let opened = zip_open_from_source(buffer, ZIP_CREATE | ZIP_TRUNCATE, &error)
        if opened == nil { zip_source_free(buffer) }
        let archive = try ZipError.check(opened, .code(zip_error_code_zip(&error)), operation: "open", archive: nil)
        zip_source_keep(buffer)  // the archive releases its reference at close; this one lets us read the result
        self.handle = archive
        self.memory = buffer
        self.url = nil
        self.modified = modified
    }

    deinit {
        if let handle { zip_discard(handle) }
        if let memory { zip_source_free(memory) }
    }

    /// The entry names added so far.
    public var entryNames: Set<String> { names }

    /// Adds (or replaces) the entry `path` holding `data`, deflated.
    ///
    /// `path` is relative, `/`-separated, with no `..` part. The bytes are copied: libzip reads
    /// them only when the archive is closed.
    public func add(path: String, data: [UInt8]) throws(ZipError) {
        let operation = "add \(path)"
        let archive = try ZipError.check(handle, .code(ZIP_ER_ZIPCLOSED), operation: operation, archive: archivePath)
        try ZipError.check(Self.isAcceptable(name: path), .code(ZIP_ER_INVAL), operation: operation, archive: archivePath)

        let count = data.count
        let copy = try ZipError.check(malloc(max(count, 1)), .code(ZIP_ER_MEMORY), operation: operation, archive: archivePath)
        data.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: count) }
        }
        // freep = 1: libzip frees the copy when it is done with the source.
        let created = zip_source_buffer(archive, copy, zip_uint64_t(count), 1)
        if created == nil { free(copy) }
        let source = try ZipError.check(created, .archive(archive), operation: operation, archive: archivePath)

        let flags = zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)
        let index = zip_file_add(archive, path, source, flags)
        if index < 0 { zip_source_free(source) }
        try ZipError.check(index >= 0, .archive(archive), operation: operation, archive: archivePath)
        // Zip (DOS) times run from 1980 to 2107; clamped, so an odd date cannot trap the conversion.
        let seconds = modified.timeIntervalSince1970.rounded(.down)
        let time = time_t(seconds.isNaN ? 0 : min(max(seconds, 0), 4_102_444_800))
        try ZipError.check(zip_file_set_mtime(archive, zip_uint64_t(index), time, 0) == 0, .archive(archive),
                           operation: operation, archive: archivePath)
        names.insert(path)
    }

    /// Writes the archive: to ``url`` (through libzip's temporary file and a rename), or into
    /// memory for ``bytes()``. Closing twice does nothing; after a failure the archive is
    /// discarded and nothing is left at ``url``.
    public func close() throws(ZipError) {
        guard let archive = handle else { return }
        handle = nil
        let closed = zip_close(archive) == 0
        if !closed {
            defer { zip_discard(archive) }
            try ZipError.check(false, .archive(archive), operation: "close", archive: archivePath)
        }
        if let memory {
            written = names.isEmpty ? Self.emptyArchive : try Self.read(memory)
        } else if let url, names.isEmpty {
            // libzip writes no file for an archive without entries; write the empty archive ourselves.
            let created = FileManager.default.createFile(atPath: url.path, contents: Data(Self.emptyArchive))
            try ZipError.check(created, .code(ZIP_ER_WRITE), operation: "close", archive: archivePath)
        }
    }

    /// The finished archive's bytes; closes it first if needed. For an archive written to a
    /// file, the file is read back.
    public func bytes() throws(ZipError) -> [UInt8] {
        try close()
        if let written { return written }
        let contents = url.flatMap { FileManager.default.contents(atPath: $0.path) }
        let data = try ZipError.check(contents, .code(ZIP_ER_READ), operation: "read back", archive: archivePath)
        return [UInt8](data)
    }

    /// The archive holding `entries`, in that order, built in memory.
    public static func archive(_ entries: [(path: String, data: [UInt8])], modified: Date = Date()) throws(ZipError) -> [UInt8] {
        let writer = try ZipWriter(modified: modified)
        for entry in entries { try writer.add(path: entry.path, data: entry.data) }
        return try writer.bytes()
    }

    /// Whether `name` may name an entry: not empty, relative, no `..` part, no NUL or backslash.
    static func isAcceptable(name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\0"), !name.contains("\\") else { return false }
        return !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    /// Everything in a (closed) buffer source.
    private static func read(_ source: OpaquePointer) throws(ZipError) -> [UInt8] {
        try ZipError.check(zip_source_open(source) == 0, .source(source), operation: "read back", archive: nil)
        defer { zip_source_close(source) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer -> Int64 in
                guard let base = buffer.baseAddress else { return -1 }
                return zip_source_read(source, base, zip_uint64_t(buffer.count))
            }
            try ZipError.check(count >= 0, .source(source), operation: "read back", archive: nil)
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<Int(count)])
        }
    }
}

// One writer, one thread at a time: the compiler refuses to send a ZipWriter across.
@available(*, unavailable)
extension ZipWriter: Sendable {}
