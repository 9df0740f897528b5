import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DocumentStore {
    /// Moves a document to the trash: its files to `<library>/Papirkurv/<id>/`, out of search and
    /// lists. ``restore(_:)`` brings it back within ``trashDays`` days; after that it is purged.
    /// With `purge` the files are overwritten and removed at once and the row deleted.
    public func delete(_ id: String, purge: Bool = false) throws -> LibraryDocument {
        let document = try self.document(id)
        if purge {
            try self.purge(document)
            return document
        }
        guard document.trashedAt == nil else { return document }
        let folder = library.trashRoot.appendingPathComponent(document.shortID, isDirectory: true)
        try AtomicFile.createDirectory(library.trashRoot)
        try AtomicFile.createDirectory(folder)
        let plan = try DocumentFiling.trashPlan(document, folder: folder)
        let originals = try originalMoves(try self.originals(of: document.sha256), to: folder)
        let origin = String(decoding: try JSONEncoder().encode(document.files.map(library.paths.stored)), as: UTF8.self)
        try move(plan.moves + originals.map(\.pair)) { database in
            try unindex(row: document.number, in: database)
            try database.execute("UPDATE documents SET trashed_at = ?, trash_origin = ?, updated_at = ? WHERE id = ?",
                                 [Library.now(), origin, Library.now(), document.number])
            try replaceFiles(of: document.number, with: plan.files, in: database)
            try recordOriginalMoves(originals, of: document.number, in: database)
        }
        return try self.document(id)
    }

    /// Brings a document back from the trash to its old place in the archive (with ` (2)` added
    /// when the old name has been taken meanwhile) and into search.
    public func restore(_ id: String) throws -> LibraryDocument {
        let document = try self.document(id)
        guard document.trashedAt != nil else { throw LibraryFailure.notInTrash(document.shortID) }
        let origin = try library.withReader { database in
            try database.firstRow("SELECT trash_origin FROM documents WHERE id = ?", [document.number])?[0].string
        }
        let before = ((try? JSONDecoder().decode([ArchivedFile].self, from: Data((origin ?? "[]").utf8))) ?? [])
            .map(library.paths.resolved)
        let plan = try DocumentFiling.restorePlan(document, origin: before, defaultRoot: library.defaultArchiveRoot)
        let originals = try originalMoves(try self.originals(of: document.sha256),
                                          to: originalsRoot.appendingPathComponent(document.shortID, isDirectory: true))
        try move(plan.moves + originals.map(\.pair)) { database in
            try database.execute("UPDATE documents SET trashed_at = NULL, trash_origin = NULL, updated_at = ? WHERE id = ?",
                                 [Library.now(), document.number])
            try replaceFiles(of: document.number, with: plan.files, in: database)
            try recordOriginalMoves(originals, of: document.number, in: database)
            let terms = try index(row: document.number, in: database)
            database.knownTerms?.formUnion(terms)
        }
        // Only when empty: a file the plan could not place back stays, and stays listed, there.
        _ = rmdir(library.trashRoot.appendingPathComponent(document.shortID).path)
        return try self.document(id)
    }

    /// Purges documents that have been in the trash longer than ``trashDays``; returns how many.
    @discardableResult
    public func emptyTrash(olderThanDays days: Int = Library.trashDays) throws -> Int {
        let cutoff = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-Double(days) * 86_400))
        let ids = try library.withReader { database in
            try database.rows("SELECT sha256 FROM documents WHERE trashed_at IS NOT NULL AND trashed_at < ?", [cutoff])
                .compactMap { $0[0].string }
        }
        for id in ids { try purge(try document(id)) }
        return ids.count
    }

    /// Overwrites and removes the document's files and its thumbnail, then deletes its row (and
    /// index entry). The thumbnail stays in `Miniatyrer/` while the document is in the trash (the
    /// library's own folder: nothing lists it there), and goes with it here.
    func purge(_ document: LibraryDocument) throws {
        for file in document.files { Shredder.shred(file.path) }
        removeOriginals(try originals(of: document.sha256))
        try library.withDatabase { database in
            try shredThumbnail(row: document.number, in: database)
            try library.sharing.shredSharePacks(ofRow: document.number, in: database)
            try database.inTransaction {
                if document.trashedAt == nil { try unindex(row: document.number, in: database) }
                try database.execute("DELETE FROM documents WHERE id = ?", [document.number])
            }
        }
        try? FileManager.default.removeItem(at: library.trashRoot.appendingPathComponent(document.shortID))
    }

    /// Moves files (never replacing one) and commits `record` with a `move` intent around it;
    /// on failure every file moved so far goes back.
    func move(_ moves: [(from: URL, to: URL)], record: (Database) throws -> Void) throws {
        let intent = try library.beginIntent("move", paths: moves.map { [library.paths.stored($0.from.path), library.paths.stored($0.to.path)] })
        defer { library.endIntent(intent) }
        var done: [(from: URL, to: URL)] = []
        do {
            for move in moves {
                try AtomicFile.publish(temporary: move.from, to: move.to, overwrite: false, mode: nil)
                done.append(move)
            }
            try library.withDatabase { database in
                do {
                    try database.inTransaction {
                        try record(database)
                        try database.execute("DELETE FROM filing_intents WHERE id = ?", [intent])
                    }
                } catch {
                    // `record` may have noted index terms that the rollback took away: read them again.
                    database.knownTerms = nil
                    throw error
                }
            }
        } catch {
            for move in done.reversed() {
                try? AtomicFile.publish(temporary: move.to, to: move.from, overwrite: false, mode: nil)
            }
            throw error
        }
        // A person folder left empty would still show the name: remove empty folders on the way.
        for folder in Set(moves.map { $0.from.deletingLastPathComponent() }) {
            if rmdir(folder.path) == 0 { _ = rmdir(folder.deletingLastPathComponent().path) }
        }
    }

    func replaceFiles(of id: Int, with files: [ArchivedFile], in database: Database) throws {
        try database.execute("DELETE FROM document_files WHERE document_id = ?", [id])
        for file in files {
            try database.execute("INSERT INTO document_files (document_id, kind, page, path) VALUES (?, ?, ?, ?)",
                                 [id, file.kind.rawValue, file.page, library.paths.stored(file.path)])
        }
    }

    // MARK: Erase

    /// What ``eraseEverything()`` removed.
    public struct ErasedCount: Sendable, Equatable {
        public var documents: Int
        public var files: Int
    }

    /// Removes everything this library holds on this machine: every document's files
    /// (overwritten first), the trash, the database, the key and the library folder itself.
    /// Folders in the archive are removed when empty; files arkivator did not write stay.
    public func eraseEverything() throws -> ErasedCount {
        let (documents, files, origins) = try library.withDatabase { database in
            let count = try database.firstRow("SELECT count(*) FROM documents")?[0].int ?? 0
            let files = try database.rows("SELECT path FROM document_files").compactMap { $0[0].string.map(library.paths.resolved) }
            for path in try database.rows("SELECT path FROM document_originals").compactMap({ $0[0].string.map(library.paths.resolved) }) {
                Shredder.shred(path)
            }
            let origins = try database.rows("SELECT trash_origin FROM documents WHERE trash_origin IS NOT NULL")
                .compactMap { $0[0].string }
                .flatMap { (try? JSONDecoder().decode([ArchivedFile].self, from: Data($0.utf8))) ?? [] }
                .map(library.paths.resolved)
            return (count, files, origins)
        }
        var removed = 0
        for path in files where Shredder.shred(path) { removed += 1 }
        // Every archive folder the library used, emptied of the folders it made (kept when the
        // user keeps own files there).
        var roots: Set<URL> = [library.defaultArchiveRoot]
        for file in files.map({ ArchivedFile(kind: .docx, path: $0) }) + origins {
            if let root = ArchiveLayout.root(of: [file]), !root.path.hasPrefix(library.trashRoot.path) { roots.insert(root) }
        }
        for root in roots { Self.removeEmptyFolders(root) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: thumbnailRoot.path)) ?? [] {
            Shredder.shred(thumbnailRoot.appendingPathComponent(name).path)
        }
        _ = rmdir(thumbnailRoot.path)
        for path in Library.plainFiles(under: library.sharing.shareFolderURL) { Shredder.shred(path) }
        _ = rmdir(library.sharing.shareFolderURL.path)
        // Every file there is arkivator's own, known to this database or not (filed after a backup).
        for path in Library.plainFiles(under: originalsRoot) { Shredder.shred(path) }
        Self.removeEmptyFolders(originalsRoot)
        try? FileManager.default.removeItem(at: library.trashRoot)
        library.removeStaleSnapshots()
        let directory = library.location.directory
        for name in [Database.fileName, Database.fileName + "-wal", Database.fileName + "-shm", LibraryKey.fileName,
                     "filing.lock"] {
            Shredder.shred(directory.appendingPathComponent(name).path)
        }
        // The databases a restore set aside hold the same letters.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(Library.replacedDatabasePrefix) {
            Shredder.shred(directory.appendingPathComponent(name).path)
        }
        _ = rmdir(directory.path)
        return ErasedCount(documents: documents, files: removed)
    }
}

extension DocumentStore {
    /// Removes `root` and every folder below it that holds no files, deepest first.
    static func removeEmptyFolders(_ root: URL) {
        let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey]
        let folders = (FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys)?.allObjects ?? [])
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: Set(keys)))?.isDirectory == true }
        for folder in folders.sorted(by: { $0.path.count > $1.path.count }) { _ = rmdir(folder.path) }
        _ = rmdir(root.path)
    }
}

/// Overwrites a file with zeros (flushed) before removing it, so its content is not left in
/// the file system's free blocks (as far as the disk lets software decide that).
enum Shredder {
    @discardableResult
    static func shred(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        if info.st_mode & S_IFMT == S_IFREG {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
            if descriptor >= 0 {
                let zeros = [UInt8](repeating: 0, count: 1 << 16)
                var left = Int(info.st_size)
                while left > 0 {
                    let written = zeros.withUnsafeBytes { write(descriptor, $0.baseAddress, min(left, $0.count)) }
                    if written <= 0 { break }
                    left -= written
                }
                _ = fsync(descriptor)
                close(descriptor)
            }
        }
        return unlink(path) == 0
    }
}
