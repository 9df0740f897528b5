import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DocumentStore {
    /// The document with this SHA-256, if the library has it (in the trash too).
    public func existing(sha256: String) throws -> (id: String, title: String, trashed: Bool)? {
        try library.withReader { database in
            guard let row = try database.firstRow("SELECT title, trashed_at FROM documents WHERE sha256 = ?", [sha256]) else {
                return nil
            }
            return (ShortID.of(sha256), row[0].string ?? "", !row[1].isNull)
        }
    }

    /// Files a document: `write` puts its files into the archive, then the document, its files
    /// and its index entries are recorded in one transaction.
    ///
    /// Before `write` publishes a file it must announce the names through the reservation; that
    /// is committed first. So after a crash at any point either the document is recorded with
    /// all its files, or the files it had published are found and removed on the next open.
    /// When recording fails, the published files are removed before the error is thrown.
    ///
    /// - Throws: ``LibraryFailure`` `.duplicate` / `.inTrash` when the library already has the
    ///   document (nothing is written), or whatever `write` or the database threw.
    ///
    /// `originals` (the files as received) are kept in the library folder (``originalsRoot``),
    /// announced and recorded in the same step.
    @discardableResult
    public func file(_ document: LibraryDocument, originals: [ReceivedOriginal] = [],
                     write: (FilingReservation) throws -> [ArchivedFile]) throws -> LibraryDocument {
        if let existing = try existing(sha256: document.sha256) {
            throw existing.trashed ? LibraryFailure.inTrash(existing.title, id: existing.id)
                                   : LibraryFailure.duplicate(existing.title, id: existing.id)
        }
        let places = keptOriginals(originals, of: document)
        let intent = try library.beginIntent("file", paths: places.map { library.paths.stored($0.path) })
        defer { library.endIntent(intent) }
        let files: [ArchivedFile]
        let kept: [DocumentOriginal]
        do {
            kept = try writeOriginals(originals, to: places)
            files = try write(FilingReservation(library: library, intent: intent, kept: places.map { $0.url }))
        } catch {
            // Whatever the writer had published under the names it reserved goes too.
            _ = try? library.withDatabase { database in try library.undo(intent: intent, in: database) }
            throw error
        }
        // What the files hold, read now while they are in memory, so their copy never reads them twice.
        let written = library.digests(of: files.map { (library.paths.stored($0.path), $0.path, nil) }).read
        do {
            var recorded = document
            recorded.files = files
            return try library.withDatabase { database in
                let (stored, terms) = try database.inTransaction {
                    let result = try insert(recorded, into: database)
                    try library.recordDigests(written, in: database)
                    try recordOriginals(kept, of: result.0.number, in: database)
                    try library.enqueueUpload(document: result.0.number, in: database)
                    try database.execute("DELETE FROM filing_intents WHERE id = ?", [intent])
                    return result
                }
                database.knownTerms?.formUnion(terms)
                return stored
            }
        } catch {
            for file in files { _ = unlink(file.path) }
            removeOriginals(kept)
            if let failure = error as? DatabaseError, failure.isUniqueConstraintViolation,
               let existing = try? existing(sha256: document.sha256) {
                throw LibraryFailure.duplicate(existing.title, id: existing.id)
            }
            throw error
        }
    }

    /// Records documents that have no files in the archive (imports and benchmarks), all in one
    /// transaction. Documents the library already has are skipped; returns how many were added.
    @discardableResult
    public func record(_ documents: [LibraryDocument]) throws -> Int {
        try library.withDatabase { database in
            var added: Set<String> = []
            database.batchCounts = [:]
            defer { database.batchCounts = nil }
            let count = try database.inTransaction { () throws -> Int in
                var count = 0
                for document in documents {
                    if try database.firstRow("SELECT 1 FROM documents WHERE sha256 = ?", [document.sha256]) != nil { continue }
                    added.formUnion(try insert(document, into: database).1)
                    count += 1
                }
                try writeCounts(database.batchCounts ?? [:], in: database)
                return count
            }
            database.knownTerms?.formUnion(added)
            return count
        }
    }

    // MARK: - Rows

    /// Inserts the document, its files and pages, its index entry and its new vocabulary.
    /// Runs inside the caller's transaction, with the lock held. Returns the stored document and
    /// the terms added to the vocabulary (to be remembered once the transaction commits).
    func insert(_ document: LibraryDocument, into database: Database) throws -> (LibraryDocument, Set<String>) {
        let sealed = try SealedText.seal(document.text, document: document.sha256, key: library.key)
        let now = Library.now()
        let low = document.lowConfidence.map { [$0.start, $0.length] }
        let lowJSON = String(decoding: try JSONEncoder().encode(low), as: UTF8.self)
        try database.execute("""
            INSERT INTO documents (sha256, source_name, title, doc_type, person, family_member, institution, specialty,
                document_date, scan_date, keywords, ocr_confidence, needs_review, page_count, text, fnr_sealed,
                fnr_count, low_confidence, upload_status, added_at, updated_at, field_confidence, number_marks)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [document.sha256, Redaction.redact(document.sourceName), Redaction.redact(document.title), document.docType.rawValue,
                  document.person.map(Redaction.redact), document.familyMember.map(Redaction.redact),
                  document.institution.map(Redaction.redact), document.specialty.map(Redaction.redact),
                  document.documentDate, document.scanDate, Redaction.redact(document.keywords.joined(separator: ", ")),
                  document.ocrConfidence, document.needsReview.joined(separator: ","), document.pageCount,
                  sealed.masked, sealed.sealed, sealed.count, lowJSON, document.uploadStatus, now, now,
                  document.fieldConfidence.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) },
                  try NumberMark.json(document.numberMarks.map(NumberMark.redacted))])
        let id = database.lastInsertedRowID
        for file in document.files {
            try database.execute("INSERT INTO document_files (document_id, kind, page, path) VALUES (?, ?, ?, ?)",
                                 [id, file.kind.rawValue, file.page, library.paths.stored(file.path)])
        }
        for page in document.pages {
            try database.execute("""
                INSERT INTO pages (document_id, number, ocr_confidence, width, height, original, original_page, crop)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [id, page.number, page.ocrConfidence, page.width, page.height, page.original, page.originalPage,
                      try page.crop.map(Self.cropJSON)])
        }
        let terms = try index(row: id, in: database)
        try library.calendar.fileAppointments(of: document, row: id, now: now, in: database)
        if let labs = document.labs {
            if !labs.isEmpty { try fileLabs(labs, row: id, in: database) }
        } else if Self.labTypes.contains(document.docType) {
            // Not read (an import): read from its text by the household (``lettersWithLabsToRead(limit:)``).
            try database.execute("INSERT OR IGNORE INTO lab_values_pending (document_id) VALUES (?)", [id])
        }
        var stored = document
        stored.number = id
        stored.addedAt = now
        stored.updatedAt = now
        stored.fodselsnummerCount = sealed.count
        return (stored, terms)
    }

    /// The indexed columns of a row, as stored (the text masked).
    static let indexedColumns = "title, text, institution, specialty, keywords, people, kind, sender, period"

    /// Adds a row to the full-text index and its new terms to the vocabulary.
    @discardableResult
    func index(row id: Int, in database: Database) throws -> Set<String> {
        try database.execute("""
            INSERT INTO documents_fts (rowid, \(Self.indexedColumns))
            SELECT id, \(Self.indexedColumns) FROM documents WHERE id = ?
            """, [id])
        let terms = try terms(ofRow: id, in: database)
        try count(terms, by: 1, in: database)
        return try addVocabulary(terms, in: database)
    }

    /// Takes a row out of the full-text index (an external-content index needs the old values).
    func unindex(row id: Int, in database: Database) throws {
        try count(try terms(ofRow: id, in: database), by: -1, in: database)
        try database.execute("""
            INSERT INTO documents_fts (documents_fts, rowid, \(Self.indexedColumns))
            SELECT 'delete', id, \(Self.indexedColumns) FROM documents WHERE id = ?
            """, [id])
    }

    /// The distinct index terms of a row's searchable columns (not its filter words).
    func terms(ofRow id: Int, in database: Database) throws -> Set<String> {
        guard let row = try database.firstRow("SELECT \(Self.indexedColumns) FROM documents WHERE id = ?", [id]) else {
            return []
        }
        return Set(try database.norwegianTerms((0..<5).compactMap { row[$0].string }.joined(separator: "\n")))
    }

    /// Adds the terms the vocabulary lacks; returns them.
    func addVocabulary(_ terms: Set<String>, in database: Database) throws -> Set<String> {
        if database.knownTerms == nil {
            database.knownTerms = Set(try database.rows("SELECT term FROM vocabulary").compactMap { $0[0].string })
        }
        var added: Set<String> = []
        let insert = try database.prepare("INSERT OR IGNORE INTO vocabulary (term) VALUES (?)")
        for term in terms where CompoundVocabulary.worthKeeping(term) {
            guard database.knownTerms?.contains(term) != true, !added.contains(term) else { continue }
            try insert.bind([term])
            try insert.step()
            added.insert(term)
        }
        return added
    }

    /// Changes how many documents hold each term (for the ranking's inverse document frequency):
    /// at once, or at the end of a batch of ``record(_:)``.
    func count(_ terms: Set<String>, by change: Int, in database: Database) throws {
        if database.batchCounts != nil {
            for term in terms { database.batchCounts?[term, default: 0] += change }
            return
        }
        try writeCounts(Dictionary(uniqueKeysWithValues: terms.map { ($0, change) }), in: database)
    }

    func writeCounts(_ counts: [String: Int], in database: Database) throws {
        let upsert = try database.prepare("""
            INSERT INTO term_documents (term, documents) VALUES (?, ?)
            ON CONFLICT (term) DO UPDATE SET documents = max(0, documents + excluded.documents)
            """)
        for (term, change) in counts where change != 0 {
            try upsert.bind([term, change])
            try upsert.step()
        }
    }
}

/// Which index terms go into the compound vocabulary: words of four letters or more (a trigram
/// lookup needs three, and shorter words are not compounds), not numbers.
enum CompoundVocabulary {
    static func worthKeeping(_ term: String) -> Bool {
        term.unicodeScalars.count >= 4 && term.unicodeScalars.contains { $0.properties.isAlphabetic }
            && !term.unicodeScalars.contains { ("0"..."9").contains($0) }
    }
}
