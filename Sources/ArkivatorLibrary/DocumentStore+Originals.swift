import ArkivatorArchive
import ArkivatorCore
internal import ArkivatorCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file of a document as it was received (a phone's JPEG or HEIC, a PNG, a PDF …), before
/// it is kept with the library.
public struct ReceivedOriginal: Sendable {
    /// Where its bytes are.
    public enum Content: Sendable {
        case bytes([UInt8])
        /// The file as received, copied when the document is filed if its content still has
        /// this SHA-256 (lower-case hex): the pipeline holds no file's bytes until then.
        case file(URL, sha256: String)
    }

    /// The file's name as received.
    public var name: String
    /// The format its content is (`jpeg`, `heic`, `pdf` …, as `ImageFormat` names it).
    public var format: String
    public var content: Content

    public init(name: String, format: String, bytes: [UInt8]) {
        self.name = name
        self.format = format
        self.content = .bytes(bytes)
    }

    public init(name: String, format: String, file: URL, sha256: String) {
        self.name = name
        self.format = format
        self.content = .file(file, sha256: sha256)
    }
}

/// A document's file as received, kept byte for byte in the library folder
/// (`Originaler/<id>/<number>.<ext>`, or in the trash with the document): never uploaded, gone
/// when the document is purged.
public struct DocumentOriginal: Sendable, Equatable {
    /// 1… in the order the files were received.
    public var number: Int
    /// The file's name as received (for the download).
    public var name: String
    /// `jpeg`, `png`, `tiff`, `webp`, `heic`, `pdf`, `gif` or `bmp`.
    public var format: String
    /// Absolute path.
    public var path: String

    public var url: URL { URL(fileURLWithPath: path) }

    public init(number: Int, name: String, format: String, path: String) {
        self.number = number
        self.name = name
        self.format = format
        self.path = path
    }

    /// The MIME type of the content.
    public var contentType: String {
        switch format {
        case "jpeg": "image/jpeg"
        case "png": "image/png"
        case "tiff": "image/tiff"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "pdf": "application/pdf"
        case "gif": "image/gif"
        case "bmp": "image/bmp"
        default: "application/octet-stream"
        }
    }

    /// The file name ending for the format.
    static func fileExtension(_ format: String) -> String {
        switch format {
        case "jpeg": "jpg"
        case "png", "tiff", "webp", "heic", "pdf", "gif", "bmp": format
        default: "bin"
        }
    }
}

extension DocumentStore {
    /// The folder the documents' originals are kept in: `<library>/Originaler`, one folder per
    /// document below it.
    public var originalsRoot: URL { library.location.folder(.originals) }

    /// The originals of a document, in the order received (empty when none were kept).
    public func originals(of id: String) throws -> [DocumentOriginal] {
        try library.withReader { database in try originals(ofRow: try resolve(id, in: database), in: database) }
    }

    func originals(ofRow id: Int, in database: Database) throws -> [DocumentOriginal] {
        try database.rows("SELECT number, name, format, path FROM document_originals WHERE document_id = ? ORDER BY number",
                          [id]).compactMap { row in
            guard let number = row[0].int, let path = row[3].string else { return nil }
            return DocumentOriginal(number: number, name: row[1].string ?? "", format: row[2].string ?? "",
                                    path: library.paths.resolved(path))
        }
    }

    // MARK: Filing

    /// Where a new document's originals go: `Originaler/<short id>/<number>.<ext>`.
    func keptOriginals(_ originals: [ReceivedOriginal], of document: LibraryDocument) -> [DocumentOriginal] {
        let folder = originalsRoot.appendingPathComponent(ShortID.of(document.sha256), isDirectory: true)
        return originals.enumerated().map { index, original in
            DocumentOriginal(number: index + 1, name: Redaction.redact(original.name), format: original.format,
                             path: folder.appendingPathComponent("\(index + 1).\(DocumentOriginal.fileExtension(original.format))").path)
        }
    }

    /// Writes the originals (flushed; never over an existing file) and returns those written: a
    /// file that changed since it was read (another SHA-256) is not kept, since it is no longer
    /// what was received. On failure what was written goes again.
    func writeOriginals(_ originals: [ReceivedOriginal], to places: [DocumentOriginal]) throws -> [DocumentOriginal] {
        guard let first = places.first else { return [] }
        var written: [DocumentOriginal] = []
        do {
            try AtomicFile.createDirectory(first.url.deletingLastPathComponent())
            for (original, place) in zip(originals, places) {
                switch original.content {
                case .bytes(let bytes):
                    try AtomicFile.write(bytes, to: place.url, overwrite: false)
                case .file(let source, let sha256):
                    guard try Self.copy(source, to: place.url, sha256: sha256) else { continue }
                }
                written.append(place)
            }
        } catch {
            removeOriginals(places)
            throw error
        }
        return written
    }

    /// Copies `source` to `target` a chunk at a time through a flushed temporary file, when its
    /// content has the SHA-256 `expected`; false (nothing written) when it has not, or it cannot
    /// be read any more.
    private static func copy(_ source: URL, to target: URL, sha256 expected: String) throws -> Bool {
        guard let input = try? FileHandle(forReadingFrom: source) else { return false }
        defer { try? input.close() }
        let temporary = AtomicFile.makeTemporaryURL(beside: target)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = try? FileHandle(forWritingTo: temporary) else {
            throw AtomicFileError(errno: errno, operation: "open", path: target.path)
        }
        var hasher = SHA256()
        do {
            defer { try? output.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
                try output.write(contentsOf: chunk)
            }
        } catch {
            _ = unlink(temporary.path)
            // By its errno: a full disk is told as a full disk, not as a disk that failed.
            throw AtomicFileError(error, operation: "write", path: target.path)
        }
        let digest = Hex.string(hasher.finalize())
        guard digest == expected else {
            _ = unlink(temporary.path)
            return false
        }
        do {
            try AtomicFile.publish(temporary: temporary, to: target, overwrite: false)
        } catch {
            _ = unlink(temporary.path)
            throw error
        }
        return true
    }

    func recordOriginals(_ kept: [DocumentOriginal], of id: Int, in database: Database) throws {
        for original in kept {
            try database.execute("INSERT INTO document_originals (document_id, number, name, format, path) VALUES (?, ?, ?, ?, ?)",
                                 [id, original.number, original.name, original.format, library.paths.stored(original.path)])
        }
    }

    /// Overwrites and removes originals, and their folder when it is left empty.
    func removeOriginals(_ originals: [DocumentOriginal]) {
        for original in originals { Shredder.shred(original.path) }
        for folder in Set(originals.map { $0.url.deletingLastPathComponent() }) { _ = rmdir(folder.path) }
    }

    // MARK: Trash

    /// The moves that take a document's originals into its trash folder (`original-<n>-<name>`),
    /// or back to `Originaler/<id>/` from it.
    func originalMoves(_ originals: [DocumentOriginal], to folder: URL) throws -> [OriginalMove] {
        guard !originals.isEmpty else { return [] }
        try AtomicFile.createDirectory(folder)
        let inTrash = folder.standardizedFileURL.path.hasPrefix(library.trashRoot.standardizedFileURL.path + "/")
        // An original that is not where the database says (a library restored from a backup) stays
        // as recorded; `reindex --adopt` links it to where it is.
        return originals.filter { FileManager.default.fileExists(atPath: $0.path) }.map { original in
            let name = inTrash ? "original-\(original.number)-\(original.url.lastPathComponent)"
                : "\(original.number).\(DocumentOriginal.fileExtension(original.format))"
            return OriginalMove(number: original.number, from: original.url, to: folder.appendingPathComponent(name))
        }
    }

    /// One original's move, to or from the trash.
    struct OriginalMove {
        var number: Int
        var from: URL
        var to: URL
        var pair: (from: URL, to: URL) { (from, to) }
    }

    /// Records where moved originals now are (in the caller's transaction).
    func recordOriginalMoves(_ moves: [OriginalMove], of id: Int, in database: Database) throws {
        for move in moves {
            try database.execute("UPDATE document_originals SET path = ? WHERE document_id = ? AND number = ?",
                                 [library.paths.stored(move.to.path), id, move.number])
        }
    }

    // MARK: Adoption

    /// Whether a file is a document's original: in `Originaler/`, or `original-…` in the trash.
    func isOriginalPath(_ path: String) -> Bool {
        let standard = URL(fileURLWithPath: path).standardizedFileURL
        if standard.path.hasPrefix(originalsRoot.standardizedFileURL.path + "/") { return true }
        return standard.path.hasPrefix(library.trashRoot.standardizedFileURL.path + "/") && standard.lastPathComponent.hasPrefix("original-")
    }

    /// Links the originals found on disk for a document to its row (after a restore from a
    /// backup): `Originaler/<id>/<n>.<ext>`, or `Papirkurv/<id>/original-<n>-…` in the trash.
    /// With one original, pages not yet linked are its pages in order.
    func adoptOriginals(ofRow id: Int, sha256: String, in database: Database) throws {
        let short = ShortID.of(sha256)
        var found: [Int: String] = [:]
        for path in Library.plainFiles(under: originalsRoot.appendingPathComponent(short, isDirectory: true)) {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            if let number = Int(name) { found[number] = path }
        }
        for path in Library.plainFiles(under: library.trashRoot.appendingPathComponent(short, isDirectory: true)) {
            let parts = URL(fileURLWithPath: path).lastPathComponent.split(separator: "-", maxSplits: 2)
            if parts.count == 3, parts[0] == "original", let number = Int(parts[1]) { found[number] = path }
        }
        for (number, path) in found {
            let ending = URL(fileURLWithPath: path).pathExtension.lowercased()
            try database.execute("""
                INSERT INTO document_originals (document_id, number, name, format, path) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (document_id, number) DO UPDATE SET path = excluded.path
                """, [id, number, URL(fileURLWithPath: path).lastPathComponent, ending == "jpg" ? "jpeg" : ending,
                      library.paths.stored(path)])
        }
        if found.count == 1, let number = found.keys.first {
            try database.execute("UPDATE pages SET original = ?, original_page = number WHERE document_id = ? AND original IS NULL",
                                 [number, id])
        }
    }

    /// Removes the originals of a document (its fødselsnummer may show on them: `redact` hides
    /// it everywhere, so the photo as taken goes), with their rows.
    public func forgetOriginals(_ id: String) throws {
        let (row, kept): (Int, [DocumentOriginal]) = try library.withReader { database in
            let row = try resolve(id, in: database)
            return (row, try self.originals(ofRow: row, in: database))
        }
        guard !kept.isEmpty else { return }
        try library.withDatabase { database in
            try database.execute("DELETE FROM document_originals WHERE document_id = ?", [row])
            try database.execute("UPDATE pages SET original = NULL, original_page = NULL WHERE document_id = ?", [row])
        }
        removeOriginals(kept)
    }
}
