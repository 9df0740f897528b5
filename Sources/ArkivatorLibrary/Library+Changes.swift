import ArkivatorArchive
import ArkivatorClassify
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
    public var type: String?
    public var person: String?
    public var date: String?
    public var institution: String?

    public init(title: String? = nil, type: String? = nil, person: String? = nil, date: String? = nil,
                institution: String? = nil) {
        self.title = title
        self.type = type
        self.person = person
        self.date = date
        self.institution = institution
    }

    public var isEmpty: Bool { title == nil && type == nil && person == nil && date == nil && institution == nil }
}

extension Library {
    /// Corrects a document's metadata. Its files get the new title and move to the new person's
    /// folder (never replacing a file; a ` (2)` is added when a name is taken), the `.docx` is
    /// written again with the new header, and the index is updated, all or nothing.
    @discardableResult
    public func edit(_ id: String, _ changes: DocumentChanges, programVersion: String) throws -> LibraryDocument {
        guard !changes.isEmpty else { throw LibraryFailure.nothingToChange }
        var document = try self.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let old = document
        if let date = changes.date {
            guard CalendarDate(iso: date) != nil else { throw LibraryFailure.badDate(date) }
            if document.title.hasPrefix(document.documentDate) {
                document.title = date + document.title.dropFirst(document.documentDate.count)
            }
            document.documentDate = date
        }
        if let typeName = changes.type {
            guard let type = DocumentType(rawValue: typeName.lowercased()) else { throw LibraryFailure.badType(typeName) }
            let oldWord = document.documentDate + " " + old.docType.titleWord
            if document.title.hasPrefix(oldWord) {
                document.title = document.documentDate + " " + type.titleWord + document.title.dropFirst(oldWord.count)
            }
            document.docType = type
        }
        if let institution = changes.institution {
            document.institution = institution.isEmpty ? nil : institution
        }
        if let person = changes.person {
            let name = person.trimmingCharacters(in: .whitespaces)
            document.person = name.isEmpty ? nil : name
            document.familyMember = name.isEmpty ? nil : name
        }
        if let title = changes.title {
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw LibraryFailure.badTitle }
            let datedPrefix = trimmed.prefix(10)
            document.title = CalendarDate(iso: String(datedPrefix)) != nil ? trimmed : document.documentDate + " " + trimmed
        }
        document.title = Fodselsnummer.masking(document.title)
        try rewrite(document, from: old, programVersion: programVersion)
        return try self.document(document.sha256)
    }

    /// Moves the files to names for the new title and person, writes the `.docx` again, and
    /// records the new metadata and paths, with a `move` intent around the file steps.
    func rewrite(_ document: LibraryDocument, from old: LibraryDocument, programVersion: String,
                 text newText: String? = nil) throws {
        var moves: [(from: URL, to: URL)] = []
        var files = document.files
        if let root = Self.archiveRoot(of: old.files), old.title != document.title || old.familyMember != document.familyMember {
            let layout = ArchiveLayout(root: root)
            let images = old.files.filter { $0.kind == .image }.count
            let plan = try layout.availablePlan(person: document.familyMember, title: document.title, pageCount: images)
            files = old.files.map { file in
                let target = plan.url(for: ArchiveLayout.FileKind(file.kind), page: max(file.page, 1))
                moves.append((file.url, target))
                return ArchivedFile(kind: file.kind, page: file.page, path: target.path)
            }
            for folder in Set(moves.map { $0.to.deletingLastPathComponent() }) {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
        }
        try move(moves) { database in
            try update(document, text: newText, files: files, in: database)
        }
        // The .docx header shows the metadata: write it again (a crash here leaves the old header).
        if let docx = files.first(where: { $0.kind == .docx }) {
            var updated = document
            if let newText { updated.text = newText }
            let bytes = try DocxWriter(content: Self.letter(updated, programVersion: programVersion)
                .content(mask: Fodselsnummer.masking)).data()
            try AtomicFile.write(bytes, to: docx.url, overwrite: true)
        }
    }

    /// Writes the metadata, text (if given) and file paths of an existing row, index included.
    private func update(_ document: LibraryDocument, text: String?, files: [ArchivedFile], in database: Database) throws {
        let id = document.number
        try unindex(row: id, in: database)
        try database.execute("""
            UPDATE documents SET title = ?, doc_type = ?, person = ?, family_member = ?, institution = ?,
                document_date = ?, updated_at = ? WHERE id = ?
            """, [Fodselsnummer.masking(document.title), document.docType.rawValue, document.person.map(Fodselsnummer.masking),
                  document.familyMember.map(Fodselsnummer.masking), document.institution.map(Fodselsnummer.masking), document.documentDate,
                  Self.now(), id])
        if let text {
            let sealed = try SealedText.seal(text, document: document.sha256, key: key)
            try database.execute("UPDATE documents SET text = ?, fnr_sealed = ?, fnr_count = ? WHERE id = ?",
                                 [sealed.masked, sealed.sealed, sealed.count, id])
        }
        try replaceFiles(of: id, with: files, in: database)
        let terms = try index(row: id, in: database)
        knownTerms?.formUnion(terms)
    }

    /// The archive folder a document's files lie in: `<root>/<Person>/<Dokumenter|Bilder>/<file>`.
    static func archiveRoot(of files: [ArchivedFile]) -> URL? {
        files.first.map { $0.url.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
    }

    /// The `.docx` description of a stored document.
    static func letter(_ document: LibraryDocument, programVersion: String) -> LetterDocx {
        LetterDocx(title: document.title, date: document.documentDate, institution: document.institution,
                   specialty: document.specialty, person: document.familyMember ?? document.person,
                   docType: document.docType.rawValue, documentDate: document.documentDate, scanDate: document.scanDate,
                   keywords: document.keywords, ocrConfidence: document.ocrConfidence, sha256: document.sha256,
                   text: document.text, lowConfidence: document.lowConfidence.map { (start: $0.start, length: $0.length) },
                   sourceName: document.sourceName, programVersion: programVersion)
    }

    // MARK: Redaction

    /// Replaces every fødselsnummer in the document's text with `DDMMYY •••••`: in the index, the
    /// stored text and the `.docx`. Returns how many numbers were replaced (0: nothing to do).
    /// The page images and the PDF are pictures of the paper and still show the number.
    @discardableResult
    public func redact(_ id: String, programVersion: String) throws -> Int {
        let document = try self.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let count = Fodselsnummer.matches(in: document.text).count
        guard count > 0 else { return 0 }
        let redacted = Fodselsnummer.masking(document.text)
        var updated = document
        updated.text = redacted
        try rewrite(updated, from: document, programVersion: programVersion, text: redacted)
        return count
    }
}

extension ArchiveLayout.FileKind {
    init(_ kind: ArchivedFile.Kind) {
        switch kind {
        case .docx: self = .docx
        case .image: self = .image
        case .pdf: self = .pdf
        }
    }
}
