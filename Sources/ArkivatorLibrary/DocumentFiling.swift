import ArkivatorArchive
import ArkivatorCore
import Foundation

/// The filing layer: owns "document → files in the archive" for every step that makes or
/// changes them — ingest, edit, redact and re-filing. It holds the one mapping from a document
/// to its `.docx`, names files through ``ArchiveLayout`` (the one archive-root rule), and speaks
/// in ``ArchivedFile`` lists. The library keeps the SQL, the intents and the index; it calls
/// this layer for the files.
public struct DocumentFiling: Sendable {
    /// Printed in each `.docx` footer.
    public let programVersion: String

    public init(programVersion: String) {
        self.programVersion = programVersion
    }

    /// The one mapping from a document to its `.docx`: a header with title, date, sender,
    /// person and type; the text with low-confidence words highlighted; a footer with scan
    /// date, version and file name; the metadata as custom properties. Fødselsnumre are masked
    /// in the metadata (never changed in the text itself).
    public func docx(for document: LibraryDocument) throws -> [UInt8] {
        let letter = LetterDocx(
            title: document.title, date: document.documentDate, institution: document.institution,
            specialty: document.specialty, person: ShownPerson.name(familyMember: document.familyMember, person: document.person),
            docType: document.docType.rawValue, documentDate: document.documentDate, scanDate: document.scanDate,
            keywords: document.keywords, ocrConfidence: document.ocrConfidence, sha256: document.sha256,
            text: document.text, lowConfidence: document.lowConfidence.map { (start: $0.start, length: $0.length) },
            sourceName: document.sourceName, programVersion: programVersion)
        return try DocxWriter(content: letter.content(mask: Redaction.redact)).data()
    }

    // MARK: Ingest

    /// Files a new document under `root`: its `.docx`, its page JPEGs and its searchable PDF
    /// (already written at `pdf`, a temporary path from ``temporaryPDF(root:person:)``, taken over
    /// here), all under one free name in the person's folder. `willPublish` hears the paths
    /// before the first appears (the library records them durably first).
    public func write(_ document: LibraryDocument, root: URL, images: [[UInt8]], pdf: URL?,
                      willPublish: ([URL]) throws -> Void = { _ in }) throws -> [ArchivedFile] {
        let docx: [UInt8]
        do {
            docx = try self.docx(for: document)
        } catch {
            if let pdf { try? FileManager.default.removeItem(at: pdf) }
            throw error
        }
        let layout = ArchiveLayout(root: root)
        let written = try layout.write(ArchiveFiles(docx: docx, images: images, pdf: pdf),
                                       person: document.familyMember, title: document.title, willPublish: willPublish)
        return written.archivedFiles
    }

    /// A private temporary path in the folder a document's PDF goes to, for a PDF written
    /// before the document's name is chosen.
    public func temporaryPDF(root: URL, person: String?) throws -> URL {
        try ArchiveLayout(root: root).temporaryURL(person: person, for: .pdf)
    }

    // MARK: Re-filing

    // The plans only move files: they need no program version.

    /// Moves of a document's files, and its file list once they are done.
    struct Plan {
        var moves: [(from: URL, to: URL)] = []
        var files: [ArchivedFile]
    }

    /// The moves that give an edited document's files the names of its new title and person
    /// (never a taken name: ` (2)` is added). No moves when neither changed. The target folders
    /// are made; nothing is moved yet.
    static func refilePlan(_ document: LibraryDocument, from old: LibraryDocument) throws -> Plan {
        guard let root = ArchiveLayout.root(of: old.files),
              old.title != document.title || old.familyMember != document.familyMember else {
            return Plan(files: document.files)
        }
        let targets = try placement(of: old.files, root: root, person: document.familyMember, title: document.title)
        return try plan(old.files, to: targets)
    }

    /// The moves that put a deleted document's files in its own trash folder
    /// (`<trash>/<id>/<kind>-<page>-<name>`).
    static func trashPlan(_ document: LibraryDocument, folder: URL) throws -> Plan {
        let targets = document.files.map { file in
            ArchivedFile(kind: file.kind, page: file.page,
                         path: folder.appendingPathComponent("\(file.kind.rawValue)-\(file.page)-" + file.url.lastPathComponent).path)
        }
        return try plan(document.files, to: targets)
    }

    /// The moves that bring a document back from the trash to where its files were (`origin`),
    /// under the next free name when another document has taken that one meanwhile. Without a
    /// usable record of where they were, they go to the person's folder under `defaultRoot`.
    static func restorePlan(_ document: LibraryDocument, origin: [ArchivedFile], defaultRoot: URL) throws -> Plan {
        let covered = document.files.allSatisfy { file in origin.contains { $0.kind == file.kind && $0.page == file.page } }
        guard covered, let root = ArchiveLayout.root(of: origin) else {
            return try plan(document.files, to: try placement(of: document.files, root: defaultRoot,
                                                            person: document.familyMember, title: document.title))
        }
        var targets = origin
        if origin.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            targets = try placement(of: origin, root: root, person: document.familyMember, title: document.title)
        }
        return try plan(document.files, to: targets)
    }

    /// Each file's place under the first free name for `title` in `person`'s folder.
    private static func placement(of files: [ArchivedFile], root: URL, person: String?, title: String) throws -> [ArchivedFile] {
        let plan = try ArchiveLayout(root: root).availablePlan(person: person, title: title, pageCount: files.images.count)
        return files.map { ArchivedFile(kind: $0.kind, page: $0.page, path: plan.url(for: $0.kind, page: max($0.page, 1)).path) }
    }

    /// Moves of `files` to the target of the same kind and page; a file without a target stays.
    private static func plan(_ files: [ArchivedFile], to targets: [ArchivedFile]) throws -> Plan {
        var result = Plan(files: [])
        for file in files {
            guard let target = targets.first(where: { $0.kind == file.kind && $0.page == file.page }) else {
                result.files.append(file)
                continue
            }
            result.moves.append((file.url, target.url))
            result.files.append(target)
        }
        for folder in Set(result.moves.map { $0.to.deletingLastPathComponent() }) {
            try AtomicFile.createDirectory(folder)
        }
        return result
    }

    /// Writes a filed document's `.docx` again (after an edit or a redaction), in place.
    func rewriteDocx(of document: LibraryDocument) throws {
        guard let docx = document.files.docx else { return }
        try AtomicFile.write(try self.docx(for: document), to: docx.url, overwrite: true)
    }
}
