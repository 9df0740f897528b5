import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Library {
    /// Copies the database to `url` with SQLite's online backup, from a snapshot on a read-only
    /// connection: a consistent copy even while documents are being filed, made without the
    /// library's lock, so no change and no read waits for it. The copy is one file (mode 0600),
    /// checked with `PRAGMA integrity_check`; its sealed fødselsnumre open only with this
    /// library's key. Returns the number of documents in the copy.
    public func backup(to url: URL) throws -> Int {
        guard !FileManager.default.fileExists(atPath: url.path) else { throw LibraryFailure.targetExists(url.path) }
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw LibraryFailure.backupFolderMissing(folder.path)
        }
        guard access(folder.path, W_OK) == 0 else { throw LibraryFailure.backupFolderNotWritable(folder.path) }
        return try copySnapshot(to: url)
    }

    /// Merges the full-text index, and the trigram index over its vocabulary, into one segment
    /// each. Searches read each segment of an index for every term, so after many additions (an
    /// import of thousands of letters) this makes them several times faster (a word's compounds
    /// are found in 12 µs instead of 50). The rewritten index then goes from the `-wal` file into
    /// the database file: left in the `-wal`, it is read again by every process that opens the
    /// library first (35 ms at 100,000 letters). Takes seconds on a large library; safe at any time.
    public func optimize() throws {
        try withDatabase { database in
            try database.execute("INSERT INTO documents_fts(documents_fts) VALUES ('optimize')")
            try database.execute("INSERT INTO vocabulary_trigram(vocabulary_trigram) VALUES ('optimize')")
            // While a reader holds an older state, SQLite copies the rest later itself.
            do {
                try database.checkpoint()
            } catch let error as DatabaseError where error.isBusy {}
        }
    }

    /// What ``reindex()`` did.
    public struct ReindexReport: Sendable, Equatable {
        public var documents: Int
        public var terms: Int
        /// Archive files the database names that are not on disk.
        public var missingFiles: [String]
        /// Files in the archive folders that no document names (see ``unknownArchiveFiles()``).
        public var unknownFiles: [String]
        /// The photos as taken (`Originaler/`, or in the trash) the database names that are not on disk.
        public var missingOriginals: [String] = []
        /// The thumbnails the database names that were not on disk, with their documents' short
        /// ids: forgotten, so that ``documentsWithoutThumbnail(limit:)`` lists them to be made again.
        public var missingThumbnails: [MissingThumbnail] = []
    }

    /// A document's thumbnail file that has gone.
    public struct MissingThumbnail: Sendable, Equatable {
        public var id: String
        public var path: String
    }

    /// Every file the database names that is not on disk, by kind, each list sorted.
    public struct MissingFiles: Sendable, Equatable {
        /// The letters' archive files (`.docx`, PDF, page images), in the archive or the trash.
        public var archive: [String]
        /// The photos and files as received.
        public var originals: [String]
        /// The thumbnails.
        public var thumbnails: [String]
    }

    /// Builds the full-text index and the compound vocabulary again from the stored documents,
    /// and lists files that have gone missing from the archive and files in it that the
    /// database does not know.
    public func reindex() throws -> ReindexReport {
        try withDatabase { database in
            let documents: Int
            do {
                documents = try database.inTransaction { () throws -> Int in
                    try database.execute("INSERT INTO documents_fts(documents_fts) VALUES ('delete-all')")
                    try database.execute("DELETE FROM vocabulary")
                    try database.execute("DELETE FROM term_documents")
                    try database.execute("INSERT INTO vocabulary_trigram(vocabulary_trigram) VALUES ('delete-all')")
                    database.knownTerms = []
                    database.batchCounts = [:]
                    defer { database.batchCounts = nil }
                    let ids = try database.rows("SELECT id FROM documents WHERE trashed_at IS NULL ORDER BY id").compactMap { $0[0].int }
                    for id in ids {
                        let terms = try self.documents.index(row: id, in: database)
                        database.knownTerms?.formUnion(terms)
                    }
                    try self.documents.writeCounts(database.batchCounts ?? [:], in: database)
                    try database.execute("INSERT INTO documents_fts(documents_fts) VALUES ('optimize')")
                    try database.execute("INSERT INTO vocabulary_trigram(vocabulary_trigram) VALUES ('optimize')")
                    return ids.count
                }
            } catch {
                database.knownTerms = nil  // the rollback took back the terms noted above
                throw error
            }
            let terms = try database.firstRow("SELECT count(*) FROM vocabulary")?[0].int ?? 0
            let thumbnails = try missingThumbnails(in: database)
            for thumbnail in thumbnails {
                try database.execute("UPDATE documents SET thumbnail = NULL WHERE thumbnail IN (?, ?)",
                                     [paths.stored(thumbnail.path), thumbnail.path])
            }
            return ReindexReport(documents: documents, terms: terms, missingFiles: try missingFiles(in: database),
                                 unknownFiles: try unknownFiles(in: database),
                                 missingOriginals: try missingOriginals(in: database), missingThumbnails: thumbnails)
        }
    }

    /// Every file the database names that is not on disk: archive files, originals, thumbnails.
    public func missingLibraryFiles() throws -> MissingFiles {
        try withReader { database in
            MissingFiles(archive: try missingFiles(in: database), originals: try missingOriginals(in: database),
                         thumbnails: try missingThumbnails(in: database).map(\.path))
        }
    }

    func missingOriginals(in database: Database) throws -> [String] {
        try database.rows("SELECT path FROM document_originals").compactMap { $0[0].string.map(paths.resolved) }
            .filter { !FileManager.default.fileExists(atPath: $0) }
            .sorted()
    }

    func missingThumbnails(in database: Database) throws -> [MissingThumbnail] {
        try database.rows("SELECT sha256, thumbnail FROM documents WHERE thumbnail IS NOT NULL AND thumbnail <> '' ORDER BY id")
            .compactMap { row -> MissingThumbnail? in
                guard let sha = row[0].string, let stored = row[1].string else { return nil }
                let path = paths.resolved(stored)
                return FileManager.default.fileExists(atPath: path) ? nil : MissingThumbnail(id: ShortID.of(sha), path: path)
            }
            .sorted { $0.path < $1.path }
    }

    /// Files the database names that are not on disk, sorted.
    public func missingArchiveFiles() throws -> [String] {
        try withReader { try missingFiles(in: $0) }
    }

    func missingFiles(in database: Database) throws -> [String] {
        try database.rows("SELECT path FROM document_files").compactMap { $0[0].string.map(paths.resolved) }
            .filter { !FileManager.default.fileExists(atPath: $0) }
            .sorted()
    }

    /// What ``export(to:)`` wrote.
    public struct ExportReport: Sendable, Equatable {
        public var documents: Int
        public var files: Int
        /// Files the database names that were not on disk (not exported).
        public var missingFiles: [String]
    }

    /// Every document (not the trash), oldest first, whole: what an export holds. Fødselsnumre
    /// are masked unless `revealNumbers`.
    public func allDocuments(revealNumbers: Bool = false) throws -> [LibraryDocument] {
        // One read transaction: the documents as they all were at one moment.
        try withReader { database in
            try database.rows("SELECT id FROM documents WHERE trashed_at IS NULL ORDER BY document_date, id")
                .compactMap { $0[0].int }
                .map { try documents.read(row: $0, in: database, revealNumbers: revealNumbers) }
        }
    }

    /// Writes every document (not the trash) to `folder`: `arkivator-eksport.json` with the
    /// metadata and full text, and each document's files under `<Person>/Dokumenter` and
    /// `<Person>/Bilder` as in the archive. Fødselsnumre are masked (`DDMMYY •••••`) in the JSON
    /// and in each `.docx`, which is written from the masked text, unless `withNumbers`; the PDFs
    /// and page images are copies of the archive's (pictures of the paper: `redact` boxes the
    /// number there). The folder must be new or empty; it is made private (0700).
    public func export(to folder: URL, withNumbers: Bool = false, programVersion: String = ArkivatorVersion.current) throws -> ExportReport {
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.path),
           !((try? manager.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? false) {
            throw LibraryFailure.targetExists(folder.path)
        }
        try AtomicFile.createDirectory(folder)
        var exported: [LibraryDocument] = []
        var copied = 0
        var missing: [String] = []
        let filing = DocumentFiling(programVersion: programVersion)
        for stored in try allDocuments(revealNumbers: withNumbers) {
            var document = withNumbers ? stored : stored.masked
            // A .docx that shows a number is written again from the masked text.
            let rewriteDocx = !withNumbers && (stored.fodselsnummerCount > 0 || document != stored)
            var files: [ArchivedFile] = []
            for file in document.files {
                let path = file.url.pathComponents.suffix(3).joined(separator: "/")
                let relative = withNumbers ? path : Redaction.redact(path)
                let target = folder.appendingPathComponent(relative)
                guard manager.fileExists(atPath: file.path) else {
                    missing.append(file.path)
                    continue
                }
                try AtomicFile.createDirectory(target.deletingLastPathComponent().deletingLastPathComponent())
                try AtomicFile.createDirectory(target.deletingLastPathComponent())
                let bytes = try file.kind == .docx && rewriteDocx
                    ? filing.docx(for: document) : [UInt8](Data(contentsOf: file.url))
                try AtomicFile.write(bytes, to: target)
                files.append(ArchivedFile(kind: file.kind, page: file.page, path: relative))
                copied += 1
            }
            document.files = files
            exported.append(document)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write([UInt8](try encoder.encode(exported)), to: folder.appendingPathComponent("arkivator-eksport.json"))
        return ExportReport(documents: exported.count, files: copied, missingFiles: missing)
    }
}
