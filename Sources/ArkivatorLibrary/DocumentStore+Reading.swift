import ArkivatorArchive
import ArkivatorCore
import Foundation

/// Which documents a list or search covers.
public struct DocumentFilter: Sendable, Equatable {
    /// A household member's or a printed name (case-insensitive; matches either).
    public var person: String?
    public var type: DocumentType?
    /// Letter dates from and to (inclusive).
    public var from: CalendarDate?
    public var to: CalendarDate?
    /// Part of the institution's name (case-insensitive).
    public var institution: String?
    /// Documents in the trash instead of the archive.
    public var trashed = false
    /// Only documents waiting for review: uncertain fields (`needsReview`, the scan date used),
    /// no household member, or no text; and not yet looked over (``Library/markReviewed(_:)``).
    public var waitingForReview = false
    /// Only documents filed to no household member: those in the `Ukjent person/` folder (a
    /// list shows the name printed in the letter, when there is one). Combines with the other
    /// filters like they do with each other.
    public var withoutPerson = false
    /// Only documents filed to these household members (an account's own, ``Access/narrowed(_:)``);
    /// nil: every document. An empty list holds none.
    public var members: [String]?

    public init(person: String? = nil, type: DocumentType? = nil, from: CalendarDate? = nil, to: CalendarDate? = nil,
                institution: String? = nil, trashed: Bool = false, waitingForReview: Bool = false,
                withoutPerson: Bool = false) {
        self.waitingForReview = waitingForReview
        self.withoutPerson = withoutPerson
        self.person = person
        self.type = type
        self.from = from
        self.to = to
        self.institution = institution
        self.trashed = trashed
    }

    /// SQL conditions on `documents AS d` and their arguments. Each condition is written as the
    /// partial indexes of migration 5 write theirs, so SQLite walks those indexes alone.
    var sql: (conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var conditions = [trashed ? "d.trashed_at IS NOT NULL" : "d.trashed_at IS NULL"]
        var arguments: [any DatabaseValueConvertible] = []
        if let person = person?.trimmingCharacters(in: .whitespaces), !person.isEmpty {
            conditions.append("(d.family_member LIKE ? ESCAPE '\\' OR d.person LIKE ? ESCAPE '\\')")
            let pattern = "%" + Self.escapeLike(person) + "%"
            arguments += [pattern, pattern]
        }
        if let type {
            conditions.append("d.doc_type = ?")
            arguments.append(type.rawValue)
        }
        if let from {
            conditions.append("d.document_date >= ?")
            arguments.append(from.iso)
        }
        if let to {
            conditions.append("d.document_date <= ?")
            arguments.append(to.iso)
        }
        if let institution = institution?.trimmingCharacters(in: .whitespaces), !institution.isEmpty {
            conditions.append("d.institution LIKE ? ESCAPE '\\'")
            arguments.append("%" + Self.escapeLike(institution) + "%")
        }
        if withoutPerson {
            conditions.append("d.family_member IS NULL")
        }
        if waitingForReview {
            conditions.append("(d.needs_review != '' OR d.text = '' OR d.family_member IS NULL) AND d.reviewed_at IS NULL")
        }
        if let members {
            conditions.append(Self.memberCondition(members))
            arguments += members
        }
        return (conditions, arguments)
    }

    /// The conditions of a list in date order. One member's letters are read in that order from
    /// documents_by_member; several members' from the list's own index, their names tested in
    /// it (`+` keeps SQLite from reading each member's letters and sorting them all for one page).
    var orderedSQL: (conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var (conditions, arguments) = sql
        if let members, members.count > 1, let last = conditions.indices.last {
            conditions[last] = "+" + conditions[last]
        }
        return (conditions, arguments)
    }

    /// The library list's statement for this filter: newest first (letter date, then the order
    /// they came in); its last two arguments are the limit and the offset.
    func listQuery(limit: Int, offset: Int) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        let (conditions, arguments) = orderedSQL
        return ("""
            SELECT \(DocumentStore.summaryColumns) FROM documents d WHERE \(conditions.joined(separator: " AND "))
            ORDER BY d.document_date DESC, d.id DESC LIMIT ? OFFSET ?
            """, arguments + [max(limit, 0), max(offset, 0)])
    }

    /// The statement that counts the documents of this filter.
    var countQuery: (sql: String, arguments: [any DatabaseValueConvertible]) {
        let (conditions, arguments) = sql
        return ("SELECT count(*) FROM documents d WHERE \(conditions.joined(separator: " AND "))", arguments)
    }

    /// `d.family_member IN (?, …)` for `members` (as the index documents_by_member is read), or
    /// a condition no row meets when there are none.
    static func memberCondition(_ members: [String]) -> String {
        members.isEmpty ? "0" : "d.family_member IN (" + Array(repeating: "?", count: members.count).joined(separator: ", ") + ")"
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}

/// One line of a list or a search result.
public struct DocumentSummary: Sendable, Equatable, Codable {
    public var id: String
    public var title: String
    public var docType: String
    public var person: String?
    public var familyMember: String?
    public var institution: String?
    public var documentDate: String
    public var pageCount: Int
    /// The document's main file (the .docx, else the first page image).
    public var file: String?
    /// Search only: the best passage, hits between `[` `]` markers (``SearchHit/markStart``…).
    public var snippet: String?
    /// Search only: bm25 score (lower is better).
    public var score: Double?
    /// Search only: true when the document holds only some of the words (such hits come last).
    public var partial: Bool?
    public var trashedAt: String?
    /// `none`, `pending`, `queued`, `uploading`, `done` or `error` (see ``UploadJob``).
    public var uploadStatus: String?
    /// The thumbnail's version (part of its address), nil when none is made yet.
    public var thumbnailVersion: String?
    /// True when the document has no page to make a thumbnail from.
    public var hasNoThumbnail: Bool?

    /// Who the document is shown as being about (see ``ShownPerson``).
    public var shownPerson: UserMessage { ShownPerson.message(familyMember: familyMember, person: person) }
}

extension DocumentStore {
    /// Columns read for a ``DocumentSummary``, from `documents AS d`.
    static let summaryColumns = """
        d.sha256, d.title, d.doc_type, d.person, d.family_member, d.institution, d.document_date, d.page_count,
        (SELECT path FROM document_files f WHERE f.document_id = d.id ORDER BY f.kind = 'docx' DESC, f.page LIMIT 1),
        d.trashed_at, d.upload_status, d.thumbnail
        """

    func summary(_ row: Row) -> DocumentSummary {
        let thumbnail = Thumbnail.of(stored: row[11].string)
        return DocumentSummary(id: ShortID.of(row[0].string ?? ""), title: row[1].string ?? "",
                        docType: row[2].string ?? "annet", person: row[3].string, familyMember: row[4].string,
                        institution: row[5].string, documentDate: row[6].string ?? "", pageCount: row[7].int ?? 0,
                        file: row[8].string.map(library.paths.resolved), snippet: nil, score: nil, partial: nil, trashedAt: row[9].string,
                        uploadStatus: row[10].string, thumbnailVersion: thumbnail.version,
                        hasNoThumbnail: thumbnail.none ? true : nil)
    }

    /// Documents newest first (letter date, then the order they came in).
    public func list(_ filter: DocumentFilter = DocumentFilter(), limit: Int = 50, offset: Int = 0) throws -> [DocumentSummary] {
        let query = filter.listQuery(limit: limit, offset: offset)
        return try library.withReader { try $0.rows(query.sql, query.arguments).map(summary) }
    }

    /// One page of the list and how many documents the filter holds in all, read together (the
    /// count and the page agree even while documents are being filed).
    public func page(_ filter: DocumentFilter = DocumentFilter(), limit: Int = 50,
                     offset: Int = 0) throws -> (total: Int, documents: [DocumentSummary]) {
        let query = filter.listQuery(limit: limit, offset: offset)
        let count = filter.countQuery
        return try library.withReader { database in
            (try database.firstRow(count.sql, count.arguments)?[0].int ?? 0,
             try database.rows(query.sql, query.arguments).map(summary))
        }
    }

    /// Marks a document as looked over: it leaves the review queue.
    public func markReviewed(_ id: String) throws {
        try library.withDatabase { database in
            let row = try resolve(id, in: database)
            try database.execute("UPDATE documents SET reviewed_at = ? WHERE id = ?", [Library.now(), row])
        }
    }

    /// The short id (10 hex digits) of the document in library row `row`, nil when there is none.
    public func shortID(row: Int) throws -> String? {
        try library.withReader { database in
            try database.firstRow("SELECT sha256 FROM documents WHERE id = ?", [row])?[0].string.map(ShortID.of)
        }
    }

    /// How many documents match the filter.
    public func count(_ filter: DocumentFilter = DocumentFilter()) throws -> Int {
        let query = filter.countQuery
        return try library.withReader { try $0.firstRow(query.sql, query.arguments)?[0].int ?? 0 }
    }

    /// The row number of the document whose SHA-256 starts with `id` (at least 4 hex digits).
    func resolve(_ id: String, in database: Database) throws -> Int {
        let prefix = id.trimmingCharacters(in: .whitespaces).lowercased()
        guard prefix.count >= 4, prefix.count <= 64, prefix.allSatisfy(\.isHexDigit) else {
            throw LibraryFailure.notFound(id)
        }
        let rows = try database.rows("SELECT id FROM documents WHERE sha256 >= ? AND sha256 < ? LIMIT 2",
                                     [prefix, prefix + "~"])
        guard let first = rows.first?[0].int else { throw LibraryFailure.notFound(id) }
        guard rows.count == 1 else {
            let count = try database.firstRow("SELECT count(*) FROM documents WHERE sha256 >= ? AND sha256 < ?",
                                              [prefix, prefix + "~"])?[0].int ?? 2
            throw LibraryFailure.ambiguous(id, count: count)
        }
        return first
    }

    /// The document `id` (a prefix of its id) names among the letters `access` sees: its full id,
    /// or ``LibraryFailure/notFound(_:)``. For an account the prefix is resolved among its own
    /// letters alone, so no answer tells whether a letter it does not see exists. The owner's
    /// `id` is returned as it is (the call that reads the letter resolves it).
    public func seen(_ id: String, by access: Access) throws -> String {
        guard !access.isOwner else { return id }
        let prefix = id.trimmingCharacters(in: .whitespaces).lowercased()
        guard prefix.count >= 4, prefix.count <= 64, prefix.allSatisfy(\.isHexDigit), !access.members.isEmpty else {
            throw LibraryFailure.notFound(id)
        }
        let rows = try library.withReader { database in
            try database.rows("""
                SELECT d.sha256 FROM documents d WHERE d.sha256 >= ? AND d.sha256 < ? AND d.trashed_at IS NULL
                    AND \(DocumentFilter.memberCondition(access.members)) LIMIT 2
                """, [prefix, prefix + "~"] + access.members)
        }
        guard rows.count == 1, let full = rows[0][0].string else { throw LibraryFailure.notFound(id) }
        return full
    }

    /// The whole document. With `revealNumbers` the fødselsnumre are put back into the text
    /// (in memory only); otherwise they stay masked.
    public func document(_ id: String, revealNumbers: Bool = false) throws -> LibraryDocument {
        try library.withReader { database in
            try read(row: try resolve(id, in: database), in: database, revealNumbers: revealNumbers)
        }
    }

    func read(row id: Int, in database: Database, revealNumbers: Bool) throws -> LibraryDocument {
        guard let row = try database.firstRow("""
            SELECT sha256, source_name, title, doc_type, person, family_member, institution, specialty, document_date,
                   scan_date, keywords, ocr_confidence, needs_review, page_count, text, fnr_sealed, fnr_count,
                   low_confidence, upload_status, added_at, updated_at, trashed_at, field_confidence, number_marks
            FROM documents WHERE id = ?
            """, [id]) else { throw LibraryFailure.notFound(String(id)) }
        let sha = row[0].string ?? ""
        let sealed = SealedText(masked: row[14].string ?? "", sealed: row[15].data, count: row[16].int ?? 0)
        // A number of a kind the detector did not know when the row was written stands in clear in
        // the masked text: it is masked when read, and counted, until `redact` seals the row again.
        let unmasked = Fodselsnummer.matches(in: sealed.masked).count
        let text = revealNumbers ? try sealed.open(document: sha, key: library.key)
            : unmasked > 0 ? Redaction.redact(sealed.masked) : sealed.masked
        let low = (try? JSONDecoder().decode([[Int]].self, from: Data((row[17].string ?? "[]").utf8))) ?? []
        var document = LibraryDocument(
            sha256: sha, sourceName: row[1].string ?? "", title: row[2].string ?? "",
            docType: DocumentType(rawValue: row[3].string ?? "") ?? .annet, person: row[4].string,
            familyMember: row[5].string, institution: row[6].string, specialty: row[7].string,
            documentDate: row[8].string ?? "", scanDate: row[9].string,
            keywords: (row[10].string ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty },
            ocrConfidence: row[11].double,
            needsReview: (row[12].string ?? "").split(separator: ",").map(String.init),
            text: text,
            lowConfidence: low.compactMap { $0.count == 2 ? LibraryDocument.TextRange(start: $0[0], length: $0[1]) : nil })
        document.number = id
        document.pageCount = row[13].int ?? 0
        document.fodselsnummerCount = sealed.count + unmasked
        document.uploadStatus = row[18].string ?? ""
        document.addedAt = row[19].string ?? ""
        document.updatedAt = row[20].string ?? ""
        document.trashedAt = row[21].string
        document.fieldConfidence = row[22].string.flatMap { try? JSONDecoder().decode([String: Double].self, from: Data($0.utf8)) }
        document.numberMarks = NumberMark.marks(row[23].string)
        document.pages = try database.rows("""
            SELECT number, ocr_confidence, width, height, original, original_page, crop FROM pages
            WHERE document_id = ? ORDER BY number
            """, [id]).map {
                LibraryDocument.Page(number: $0[0].int ?? 0, ocrConfidence: $0[1].double, width: $0[2].int ?? 0,
                                     height: $0[3].int ?? 0, original: $0[4].int, originalPage: $0[5].int,
                                     crop: $0[6].string.flatMap(Self.crop))
            }
        document.files = try files(of: id, in: database)
        return document
    }

    func files(of id: Int, in database: Database) throws -> [ArchivedFile] {
        try database.rows("""
            SELECT kind, page, path FROM document_files WHERE document_id = ?
            ORDER BY CASE kind WHEN 'docx' THEN 0 WHEN 'image' THEN 1 ELSE 2 END, page
            """, [id]).compactMap { row in
                guard let kind = row[0].string.flatMap(ArchivedFile.Kind.init(rawValue:)), let path = row[2].string else {
                    return nil
                }
                return ArchivedFile(kind: kind, page: row[1].int ?? 0, path: library.paths.resolved(path))
            }
    }
}
