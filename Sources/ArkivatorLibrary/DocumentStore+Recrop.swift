import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page read again (with corners and a turn set by hand): the document as it is to be, and
/// the new page image and PDF, for ``DocumentStore/replacePage(_:programVersion:)``.
public struct PageRereading: Sendable {
    /// 1…
    public var page: Int
    /// The document with its new text, low-confidence words, metadata and pages (the page's new
    /// outline included); its files are the library's business.
    public var document: LibraryDocument
    /// The `updatedAt` of the document the re-reading started from: a change made meanwhile
    /// refuses it (``RecropFailure/changedMeanwhile``).
    public var startedFrom: String
    /// The new page image (JPEG).
    public var jpeg: [UInt8]
    /// The new searchable PDF; nil leaves the PDF as it is.
    public var pdf: [UInt8]?

    public init(page: Int, document: LibraryDocument, startedFrom: String, jpeg: [UInt8], pdf: [UInt8]?) {
        self.page = page
        self.document = document
        self.startedFrom = startedFrom
        self.jpeg = jpeg
        self.pdf = pdf
    }
}

extension DocumentStore {
    /// Replaces a page that was read again, and everything that follows from it, in one step:
    /// the text, metadata and index; the page's image, the PDF and the `.docx` (new content);
    /// the file names when the title or person changed.
    ///
    /// Crash-safe like filing: the new contents are written to flushed temporary files beside
    /// their targets and announced (a `replace` intent) before anything changes; the renames
    /// for a new title go through the `move` intent; the intent is marked committed in the
    /// transaction that records the change, and only then do the new contents take their
    /// places. After a crash, an intent not committed is undone (temporaries removed, moves
    /// taken back) and a committed one is finished, so files and database always agree.
    @discardableResult
    public func replacePage(_ rereading: PageRereading, programVersion: String) throws -> LibraryDocument {
        let old = try document(rereading.document.sha256, revealNumbers: true)
        guard old.trashedAt == nil else { throw LibraryFailure.trashed(old.shortID) }
        guard old.updatedAt == rereading.startedFrom else { throw RecropFailure.changedMeanwhile }
        guard old.files.images.contains(where: { $0.page == rereading.page }) else { throw RecropFailure.textLayerPage }
        var updated = rereading.document
        updated.number = old.number
        updated.files = old.files
        updated.title = Redaction.redact(updated.title)
        let plan = try DocumentFiling.refilePlan(updated, from: old)
        updated.files = plan.files

        // New contents beside their final places, flushed.
        var staged: [(temporary: URL, target: URL)] = []
        do {
            if let image = plan.files.images.first(where: { $0.page == rereading.page }) {
                staged.append(try Self.stage(rereading.jpeg, for: image.url))
            }
            if let pdf = plan.files.pdf, let bytes = rereading.pdf { staged.append(try Self.stage(bytes, for: pdf.url)) }
            if let docx = plan.files.docx {
                staged.append(try Self.stage(try DocumentFiling(programVersion: programVersion).docx(for: updated), for: docx.url))
            }
        } catch {
            for item in staged { _ = unlink(item.temporary.path) }
            throw error
        }
        let intent = try library.beginIntent(PageReplacement.Action.prepared.rawValue,
                                     paths: staged.map { [library.paths.stored($0.temporary.path), library.paths.stored($0.target.path)] })
        do {
            try move(plan.moves) { database in
                guard try database.firstRow("SELECT updated_at FROM documents WHERE id = ?", [old.number])?[0].string
                    == rereading.startedFrom else { throw RecropFailure.changedMeanwhile }
                try record(updated, page: rereading.page, in: database)
                try replaceFiles(of: old.number, with: plan.files, in: database)
                try database.execute("UPDATE filing_intents SET action = ? WHERE id = ?",
                                     [PageReplacement.Action.committed.rawValue, intent])
            }
        } catch {
            for item in staged { _ = unlink(item.temporary.path) }
            library.endIntent(intent)
            throw error
        }
        // Committed: the new contents take their places. One that cannot now (finished by the
        // recovery after a crash) keeps the intent, so the next open of the library finishes it.
        if PageReplacement.place(staged) { library.endIntent(intent) }
        return try document(old.sha256)
    }

    /// Writes the re-read document's row, its page and its index entry (in the caller's transaction).
    private func record(_ document: LibraryDocument, page: Int, in database: Database) throws {
        let id = document.number
        try unindex(row: id, in: database)
        let sealed = try SealedText.seal(document.text, document: document.sha256, key: library.key)
        let low = String(decoding: try JSONEncoder().encode(document.lowConfidence.map { [$0.start, $0.length] }), as: UTF8.self)
        let confidence = try document.fieldConfidence.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try database.execute("""
            UPDATE documents SET title = ?, doc_type = ?, person = ?, family_member = ?, institution = ?,
                document_date = ?, specialty = ?, keywords = ?, ocr_confidence = ?, needs_review = ?, low_confidence = ?,
                field_confidence = ?, text = ?, fnr_sealed = ?, fnr_count = ?, updated_at = ?, number_marks = ? WHERE id = ?
            """, [Redaction.redact(document.title), document.docType.rawValue, document.person.map(Redaction.redact),
                  document.familyMember.map(Redaction.redact), document.institution.map(Redaction.redact),
                  document.documentDate, document.specialty.map(Redaction.redact),
                  Redaction.redact(document.keywords.joined(separator: ", ")), document.ocrConfidence,
                  document.needsReview.joined(separator: ","), low, confidence, sealed.masked, sealed.sealed, sealed.count,
                  Library.now(), try NumberMark.json(document.numberMarks.map(NumberMark.redacted)), id])
        if let row = document.pages.first(where: { $0.number == page }) {
            try database.execute("""
                UPDATE pages SET ocr_confidence = ?, width = ?, height = ?, crop = ? WHERE document_id = ? AND number = ?
                """, [row.ocrConfidence, row.width, row.height, try row.crop.map(Self.cropJSON), id, page])
        }
        let terms = try index(row: id, in: database)
        database.knownTerms?.formUnion(terms)
    }

    /// The fields a person corrected by hand (`title`, `docType`, `person`, `documentDate`,
    /// `institution`, `specialty`, `keywords`): a page read again keeps them.
    public func correctedFields(_ id: String) throws -> Set<String> {
        try library.withReader { database in
            let row = try resolve(id, in: database)
            let text = try database.firstRow("SELECT corrected_fields FROM documents WHERE id = ?", [row])?[0].string ?? ""
            return Set(text.split(separator: ",").map(String.init))
        }
    }

    /// Notes the fields an edit corrected by hand.
    func noteCorrected(_ changes: DocumentChanges, row id: Int) throws {
        var fields: [String] = []
        if changes.title != nil { fields.append("title") }
        if changes.type != nil { fields.append("docType") }
        if changes.person != nil || changes.filing != nil { fields.append("person") }
        if changes.date != nil { fields.append("documentDate") }
        if changes.institution != nil { fields.append("institution") }
        if changes.specialty != nil { fields.append("specialty") }
        if changes.keywords != nil { fields.append("keywords") }
        guard !fields.isEmpty else { return }
        try library.withDatabase { database in
            let old = try database.firstRow("SELECT corrected_fields FROM documents WHERE id = ?", [id])?[0].string ?? ""
            let all = Set(old.split(separator: ",").map(String.init)).union(fields).sorted()
            try database.execute("UPDATE documents SET corrected_fields = ? WHERE id = ?", [all.joined(separator: ","), id])
        }
    }

    // MARK: Stored outlines

    static func cropJSON(_ crop: PageCrop) throws -> String {
        String(decoding: try JSONEncoder().encode(crop), as: UTF8.self)
    }

    static func crop(_ json: String) -> PageCrop? {
        try? JSONDecoder().decode(PageCrop.self, from: Data(json.utf8))
    }

    /// `bytes` in a flushed temporary file beside `target` (`.arkivator-….tmp`).
    private static func stage(_ bytes: [UInt8], for target: URL) throws -> (temporary: URL, target: URL) {
        let temporary = AtomicFile.makeTemporaryURL(beside: target)
        try AtomicFile.write(bytes, to: temporary, overwrite: false)
        return (temporary, target)
    }
}

/// The file step of ``DocumentStore/replacePage(_:programVersion:)``, and its recovery after a crash.
enum PageReplacement {
    /// The intent's action: prepared (the change is not recorded: undo) or committed (finish it).
    enum Action: String {
        case prepared = "replace"
        case committed = "replace-committed"
    }

    /// Puts each staged file in its place (replacing the old content at once); false when one
    /// could not be.
    static func place(_ staged: [(temporary: URL, target: URL)]) -> Bool {
        var all = true
        for item in staged {
            guard rename(item.temporary.path, item.target.path) == 0 else {
                all = false
                continue
            }
            try? AtomicFile.syncDirectory(item.target.deletingLastPathComponent())
        }
        return all
    }

    /// Recovery of an intent a crashed process left: a prepared one's temporaries are removed
    /// (nothing was recorded), a committed one's are put in place. Returns the files fixed.
    static func recover(_ action: Action, paths: Data, library: Library) -> Int {
        guard let pairs = try? JSONDecoder().decode([[String]].self, from: paths) else { return 0 }
        var fixed = 0
        for pair in pairs where pair.count == 2 {
            let temporary = library.paths.resolved(pair[0]), target = library.paths.resolved(pair[1])
            guard FileManager.default.fileExists(atPath: temporary) else { continue }
            switch action {
            case .prepared:
                if unlink(temporary) == 0 { fixed += 1 }
            case .committed:
                if rename(temporary, target) == 0 { fixed += 1 }
            }
        }
        return fixed
    }
}
