import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Corrections to one document; nil fields stay as they are.
public struct DocumentChanges: Sendable, Equatable {
    public var title: String?
    public var type: DocumentType?
    public var person: String?
    public var date: CalendarDate?
    public var institution: String?
    /// The department or specialty (empty: none).
    public var specialty: String?
    /// The keywords, replacing the old ones.
    public var keywords: [String]?
    /// The household member and the printed name exactly as given (nil: none), where ``person``
    /// sets both to one name: what an undo puts back.
    public var filing: PersonFiling?

    public init(title: String? = nil, type: DocumentType? = nil, person: String? = nil, date: CalendarDate? = nil,
                institution: String? = nil, specialty: String? = nil, keywords: [String]? = nil) {
        self.specialty = specialty
        self.keywords = keywords
        self.title = title
        self.type = type
        self.person = person
        self.date = date
        self.institution = institution
    }

    public var isEmpty: Bool {
        title == nil && type == nil && person == nil && date == nil && institution == nil && specialty == nil && keywords == nil
            && filing == nil
    }

    /// Throws ``FieldTooLong`` for the first value longer than its field may hold (see ``StoredField``).
    public func checkLengths() throws(FieldTooLong) {
        try StoredField.title.check(title)
        try StoredField.person.check(person)
        try StoredField.institution.check(institution)
        try StoredField.specialty.check(specialty)
        try StoredField.keywords.check(keywords?.joined(separator: ", "))
    }
}

/// Whom a letter is filed to and about: the household member (its folder) and the name printed
/// in it, each nil when there is none.
public struct PersonFiling: Sendable, Equatable {
    public var familyMember: String?
    public var person: String?

    public init(familyMember: String?, person: String?) {
        self.familyMember = familyMember
        self.person = person
    }
}

extension DocumentStore {
    /// Corrects a document's metadata. Its files get the new title and move to the new person's
    /// folder (never replacing a file; a ` (2)` is added when a name is taken), the `.docx` is
    /// written again with the new header, and the index is updated, all or nothing.
    @discardableResult
    public func edit(_ id: String, _ changes: DocumentChanges, programVersion: String) throws -> LibraryDocument {
        guard !changes.isEmpty else { throw LibraryFailure.nothingToChange }
        try changes.checkLengths()
        var document = try self.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let old = document
        if let date = changes.date?.iso {
            document.title = DocumentTitle.redated(document.title, from: document.documentDate, to: date)
            document.documentDate = date
        }
        if let type = changes.type {
            document.title = DocumentTitle.retyped(document.title, date: document.documentDate, from: old.docType.titleWord,
                                                   to: type.titleWord)
            document.docType = type
        }
        if let institution = changes.institution.map(StoredField.visible) {
            let trimmed = institution.trimmingCharacters(in: .whitespaces)
            document.institution = trimmed.isEmpty ? nil : trimmed
        }
        if let specialty = changes.specialty.map(StoredField.visible) {
            let trimmed = specialty.trimmingCharacters(in: .whitespacesAndNewlines)
            document.specialty = trimmed.isEmpty ? nil : trimmed
        }
        if let keywords = changes.keywords {
            document.keywords = keywords.map { StoredField.visible($0).trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        }
        if let person = changes.person {
            let name = StoredField.visible(person).trimmingCharacters(in: .whitespaces)
            document.person = name.isEmpty ? nil : name
            document.familyMember = name.isEmpty ? nil : name
        }
        if let filing = changes.filing {
            document.familyMember = filing.familyMember
            document.person = filing.person
        }
        if let title = changes.title {
            let trimmed = StoredField.visible(title).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw LibraryFailure.badTitle }
            document.title = DocumentTitle.dated(trimmed, date: document.documentDate)
        }
        document.title = Redaction.redact(document.title)
        try rewrite(document, from: old, programVersion: programVersion)
        try noteCorrected(changes, row: document.number)
        return try self.document(document.sha256)
    }

    /// Moves the files to names for the new title and person, writes the `.docx` again (both
    /// through the filing layer), and records the new metadata and paths, with a `move` intent
    /// around the file steps.
    func rewrite(_ document: LibraryDocument, from old: LibraryDocument, programVersion: String,
                 text newText: String? = nil) throws {
        let filing = DocumentFiling(programVersion: programVersion)
        let plan = try DocumentFiling.refilePlan(document, from: old)
        try move(plan.moves) { database in
            try update(document, text: newText, files: plan.files, in: database)
        }
        // The .docx header shows the metadata: write it again (a crash here leaves the old header).
        var updated = document
        updated.files = plan.files
        if let newText { updated.text = newText }
        try filing.rewriteDocx(of: updated)
    }

    /// Writes the metadata, text (if given) and file paths of an existing row, index included.
    private func update(_ document: LibraryDocument, text: String?, files: [ArchivedFile], in database: Database) throws {
        let id = document.number
        try unindex(row: id, in: database)
        try database.execute("""
            UPDATE documents SET title = ?, doc_type = ?, person = ?, family_member = ?, institution = ?,
                document_date = ?, specialty = ?, keywords = ?, updated_at = ? WHERE id = ?
            """, [Redaction.redact(document.title), document.docType.rawValue, document.person.map(Redaction.redact),
                  document.familyMember.map(Redaction.redact), document.institution.map(Redaction.redact), document.documentDate,
                  document.specialty.map(Redaction.redact), Redaction.redact(document.keywords.joined(separator: ", ")),
                  Library.now(), id])
        if let text {
            let sealed = try SealedText.seal(text, document: document.sha256, key: library.key)
            try database.execute("UPDATE documents SET text = ?, fnr_sealed = ?, fnr_count = ? WHERE id = ?",
                                 [sealed.masked, sealed.sealed, sealed.count, id])
        }
        try replaceFiles(of: id, with: files, in: database)
        let terms = try index(row: id, in: database)
        database.knownTerms?.formUnion(terms)
    }

    // MARK: Redaction

    /// Replaces every fødselsnummer in the document's text and metadata with `DDMMYY •••••` (in
    /// every written form the detector reads, and each of the letter's numbers however OCR split
    /// it): in the stored text, every column, the index, the `.docx`, the file names (the title),
    /// the kept readings of the text, the explanation, the appointments it holds, the numbers in
    /// doubt, and the journal's record of the file received; the share packs made of it are
    /// shredded (made again, masked, when next asked for). Then the database file is cleaned: the
    /// index's old segments merged away, terms no document holds forgotten, and the `-wal`
    /// emptied into the file, whose freed pages `secure_delete` has zeroed; no old row survives
    /// in its bytes. Returns how many numbers the text held (0: the text had none; the metadata
    /// and the file are cleaned all the same). The page images and the PDF are the pipeline's
    /// part (see `Household.redact`).
    @discardableResult
    public func redact(_ id: String, programVersion: String) throws -> Int {
        let document = try self.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let count = Fodselsnummer.matches(in: document.text).count
        let held = document.heldNumbers
        func hide(_ text: String) -> String { Redaction.redact(text, known: held) }
        var updated = document.masked(known: held)
        updated.fodselsnummerCount = 0
        try rewrite(updated, from: document, programVersion: programVersion, text: updated.text)
        try library.withDatabase { database in
            try database.execute("PRAGMA secure_delete = ON")
            try database.inTransaction {
                try database.execute("UPDATE documents SET source_name = ?, number_marks = ? WHERE id = ?",
                                     [hide(document.sourceName), try NumberMark.json(Self.marksHiding(held, in: document.numberMarks)),
                                      document.number])
                for row in try database.rows("SELECT sha256, source, reason FROM journal WHERE document_id = ? OR sha256 = ?",
                                             [document.number, document.sha256]) {
                    guard let sha = row[0].string else { continue }
                    try database.execute("UPDATE journal SET source = ?, reason = ? WHERE sha256 = ?",
                                         [hide(row[1].string ?? ""), row[2].string.map(hide), sha])
                }
                // The kept readings of the text too: masked for good.
                for row in try database.rows("SELECT id, text, number_marks FROM text_versions WHERE document_id = ?", [document.number]) {
                    let marks = Self.marksHiding(held, in: NumberMark.marks(row[2].string))
                    try database.execute("UPDATE text_versions SET text = ?, fnr_sealed = NULL, number_marks = ? WHERE id = ?",
                                         [hide(row[1].string ?? ""), try NumberMark.json(marks), row[0].int])
                }
                // The explanation, as a model may have written a number out in any form.
                if let row = try database.firstRow("SELECT what, steps, model FROM explanations WHERE document_id = ?", [document.number]) {
                    let steps = (try? JSONDecoder().decode([String].self, from: Data((row[1].string ?? "[]").utf8))) ?? []
                    let hiddenSteps = String(decoding: try JSONEncoder().encode(steps.map(hide)), as: UTF8.self)
                    try database.execute("UPDATE explanations SET what = ?, steps = ?, model = ? WHERE document_id = ?",
                                         [hide(row[0].string ?? ""), hiddenSteps, hide(row[2].string ?? ""), document.number])
                }
                // The appointments it holds or changed: what the calendar feed shows.
                for row in try database.rows("""
                    SELECT id, person, sender, specialty, place, bring, change FROM appointments
                    WHERE document_id = ? OR changed_by = ?
                    """, [document.number, document.number]) {
                    try database.execute("""
                        UPDATE appointments SET person = ?, sender = ?, specialty = ?, place = ?, bring = ?, change = ? WHERE id = ?
                        """, (1...6).map { row[$0].string.map(hide) } + [row[0].int])
                }
                try database.execute("DELETE FROM term_documents WHERE documents <= 0")
                try library.sharing.shredSharePacks(ofRow: document.number, in: database)
            }
            try database.execute("INSERT INTO documents_fts(documents_fts) VALUES ('optimize')")
            try database.execute("INSERT INTO vocabulary_trigram(vocabulary_trigram) VALUES ('optimize')")
            // A reader holding the -wal open makes the checkpoint wait: a few tries, then it is
            // emptied when the last connection closes.
            for attempt in 0..<5 {
                do {
                    try database.checkpoint()
                    break
                } catch let error as DatabaseError where error.isBusy {
                    if attempt < 4 { usleep(100_000) }
                }
            }
        }
        return count
    }

    /// `marks` without those whose text holds four or more digits of one of `numbers` in a row
    /// (a piece of a number OCR read as a number in doubt), the rest masked.
    static func marksHiding(_ numbers: Set<String>, in marks: [NumberMark]?) -> [NumberMark] {
        NumberMark.redacted((marks ?? []).filter { mark in
            let digits = mark.text.filter { $0.isASCII && $0.isNumber }
            return digits.count < 4 || !numbers.contains { $0.contains(digits) }
        })
    }
}
