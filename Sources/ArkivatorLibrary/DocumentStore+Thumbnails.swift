import ArkivatorArchive
import ArkivatorCore
import Foundation

/// A document's thumbnail as the library knows it (see ``DocumentStore/thumbnail(_:)``).
public enum Thumbnail: Sendable, Equatable {
    /// Not made yet (a document filed before thumbnails, or one whose making failed).
    case missing
    /// The document has no page to make one from.
    case none
    /// The JPEG and its version (changes whenever the picture does: part of its address).
    case file(URL, version: String)

    /// The version of a stored thumbnail path (`Miniatyrer/<sha256>-<version>.jpg`), or what a
    /// column holding none says.
    static func of(stored: String?) -> (version: String?, none: Bool) {
        guard let stored else { return (nil, false) }
        guard !stored.isEmpty else { return (nil, true) }
        // Text alone: a URL made from a path asks the disk whether it is a folder.
        let file = stored.lastIndex(of: "/").map { stored[stored.index(after: $0)...] } ?? Substring(stored)
        let name = file.lastIndex(of: ".").map { file[..<$0] } ?? file
        return (name.split(separator: "-").last.map(String.init), false)
    }
}

extension DocumentStore {
    /// The folder of the thumbnails: `<library>/Miniatyrer`, the library's own (never uploaded,
    /// never part of the archive).
    public var thumbnailRoot: URL { library.location.directory.appendingPathComponent(Self.thumbnailFolder, isDirectory: true) }

    /// The thumbnails' folder name inside the library folder.
    public static let thumbnailFolder = LibraryFolder.thumbnails.rawValue

    /// The thumbnail of document `id` (in the archive or the trash).
    public func thumbnail(_ id: String) throws -> Thumbnail {
        try library.withReader { database in
            let row = try resolve(id, in: database)
            let stored = try database.firstRow("SELECT thumbnail FROM documents WHERE id = ?", [row])?[0].string
            let (version, none) = Thumbnail.of(stored: stored)
            if none { return .none }
            guard let stored, let version else { return .missing }
            return .file(URL(fileURLWithPath: library.paths.resolved(stored), isDirectory: false), version: version)
        }
    }

    /// Keeps `jpeg` as document `id`'s thumbnail (nil: there is no page to make one from) and
    /// returns what the library now holds. The file is written whole before the row names it; the
    /// one it replaces is removed after. A crash between the two leaves only an unnamed file
    /// in `Miniatyrer/`, written again the next time.
    @discardableResult
    public func setThumbnail(_ id: String, jpeg: [UInt8]?) throws -> Thumbnail {
        let (row, sha, old) = try library.withReader { database in
            let row = try resolve(id, in: database)
            let found = try database.firstRow("SELECT sha256, thumbnail FROM documents WHERE id = ?", [row])
            return (row, found?[0].string ?? "", found?[1].string)
        }
        var stored = ""
        if let jpeg {
            let version = Self.thumbnailVersion(jpeg)
            let url = thumbnailRoot.appendingPathComponent("\(sha)-\(version).jpg")
            try AtomicFile.createDirectory(thumbnailRoot)
            try AtomicFile.write(jpeg, to: url, overwrite: true)
            stored = library.paths.stored(url.path)
        }
        try library.withDatabase { database in
            try database.execute("UPDATE documents SET thumbnail = ? WHERE id = ?", [stored, row])
        }
        if let old, !old.isEmpty, old != stored { Shredder.shred(library.paths.resolved(old)) }
        return try thumbnail(id)
    }

    /// Forgets document `id`'s thumbnail and removes its file (its pages changed): the next one
    /// asked for is made from the pages as they are now.
    public func forgetThumbnail(_ id: String) throws {
        let old = try library.withDatabase { database -> String? in
            let row = try resolve(id, in: database)
            let old = try database.firstRow("SELECT thumbnail FROM documents WHERE id = ?", [row])?[0].string
            try database.execute("UPDATE documents SET thumbnail = NULL WHERE id = ?", [row])
            return old
        }
        if let old, !old.isEmpty { Shredder.shred(library.paths.resolved(old)) }
    }

    /// The short ids of documents (in the archive or the trash) whose thumbnail is not made yet,
    /// oldest first, at most `limit`.
    public func documentsWithoutThumbnail(limit: Int = 1_000) throws -> [String] {
        try library.withReader { database in
            try database.rows("SELECT sha256 FROM documents WHERE thumbnail IS NULL ORDER BY id LIMIT ?", [max(0, limit)])
                .compactMap { $0[0].string.map(ShortID.of) }
        }
    }

    /// Removes the thumbnail file of a document whose row is going (see ``purge(_:)``).
    func shredThumbnail(row: Int, in database: Database) throws {
        if let stored = try database.firstRow("SELECT thumbnail FROM documents WHERE id = ?", [row])?[0].string,
           !stored.isEmpty {
            Shredder.shred(library.paths.resolved(stored))
        }
    }

    /// Eight hex digits that change with the picture (FNV-1a over its bytes).
    static func thumbnailVersion(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(String(hash, radix: 16).suffix(8)).leftPadded(to: 8)
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
