import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Library {
    /// What ``adoptUnknownFiles()`` did.
    public struct AdoptionReport: Sendable, Equatable {
        /// Documents taken in from their files.
        public var adopted: [String] = []
        /// Documents the library had whose files were missing, linked to the files found.
        public var relinked: [String] = []
        /// Files left as they were, each with the reason.
        public var left: [(path: String, reason: UserMessage)] = []

        public static func == (a: AdoptionReport, b: AdoptionReport) -> Bool {
            a.adopted == b.adopted && a.relinked == b.relinked && a.left.map(\.path) == b.left.map(\.path)
        }
    }

    /// Files in the library's archive folders (the default `Arkiv/`, those its documents use,
    /// and the trash) that no document of the database names: after a restore, the files of
    /// documents filed after the backup was made. Hidden files and arkivator's temporaries are
    /// not counted. Sorted.
    public func unknownArchiveFiles() throws -> [String] {
        try withReader { database in try unknownFiles(in: database) }
    }

    func unknownFiles(in database: Database) throws -> [String] {
        let known = Set(try database.rows("SELECT path FROM document_files UNION ALL SELECT path FROM document_originals").compactMap {
            $0[0].string.map { URL(fileURLWithPath: paths.resolved($0)).standardizedFileURL.path }
        })
        var roots = try archiveRoots(in: database)
        roots.insert(trashRoot)
        roots.insert(documents.originalsRoot)
        var found: Set<String> = []
        for root in roots {
            for path in Self.plainFiles(under: root) where !known.contains(path) { found.insert(path) }
        }
        return found.sorted()
    }

    /// Every plain file below `root` (symbolic links not followed), hidden names left out.
    static func plainFiles(under root: URL) -> [String] {
        let base = root.standardizedFileURL
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var files: [String] = []
        for case let relative as String in walker {
            let path = base.appendingPathComponent(relative).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                  !URL(fileURLWithPath: relative).lastPathComponent.hasPrefix(".") else { continue }
            files.append(path)
        }
        return files
    }

    /// Takes the archive files no document names back into the library, one document per
    /// `.docx` arkivator wrote (its metadata and text read back, see ``LetterDocx/read(from:)``)
    /// with the page images and PDF of the same name. A document the library already has (same
    /// SHA-256) is never added twice: when none of its recorded files is on disk any more it is
    /// linked to the files found, else the files found are a stray copy and are left. A
    /// document's files in the trash (`Papirkurv/<id>/docx-0-<name>.docx` …) are taken in as a
    /// document in the trash. Files that are no part of such a document (no `.docx`, another
    /// program's file) are left and listed. Adopted documents are not queued for upload (they
    /// were filed before).
    public func adoptUnknownFiles() throws -> AdoptionReport {
        var report = AdoptionReport()
        let unknown = try unknownArchiveFiles()
        let trash = trashRoot.standardizedFileURL.path + "/"
        var groups: [String: [ArchivedFile]] = [:]
        var originals: [String] = []
        for path in unknown {
            if documents.isOriginalPath(path) {
                originals.append(path)  // linked below, with the document they belong to
            } else if path.hasPrefix(trash), let part = Self.trashPart(path) {
                groups[part.key, default: []].append(part.file)
            } else if !path.hasPrefix(trash), let part = Self.archivePart(path) {
                groups[part.key, default: []].append(part.file)
            } else {
                report.left.append((path, UserMessage(nb: "ikke en fil arkivator skriver", en: "not a file arkivator writes")))
            }
        }
        let members = try withReader { try $0.rows("SELECT name FROM family").compactMap { $0[0].string } }
        for key in groups.keys.sorted() {
            let files = (groups[key] ?? []).sorted { ($0.kind.rawValue, $0.page) < ($1.kind.rawValue, $1.page) }
            guard let docx = files.docx, let letter = try? LetterDocx.read(from: docx.url) else {
                let reason = UserMessage(nb: "ingen .docx fra arkivator å lese dokumentet fra",
                                         en: "no .docx from arkivator to read the document from")
                report.left += files.map { (path: $0.path, reason: reason) }
                continue
            }
            try adopt(letter, files: files, members: members, trashed: key.hasPrefix(trash), into: &report)
            try withDatabase { database in
                if let row = try database.firstRow("SELECT id FROM documents WHERE sha256 = ?", [letter.sha256])?[0].int {
                    try documents.adoptOriginals(ofRow: row, sha256: letter.sha256, in: database)
                }
            }
        }
        let stillUnknown = Set(try unknownArchiveFiles())
        for path in originals where stillUnknown.contains(path) {
            report.left.append((path, UserMessage(nb: "et bilde slik det ble tatt, uten dokument i biblioteket",
                                                  en: "a photo as taken, with no document in the library")))
        }
        return report
    }

    /// Adds, or links, one document read back from its files (see ``adoptUnknownFiles()``).
    private func adopt(_ letter: LetterDocx, files: [ArchivedFile], members: [String], trashed: Bool,
                       into report: inout AdoptionReport) throws {
        if let existing = try withReader({ try $0.firstRow("SELECT id FROM documents WHERE sha256 = ?", [letter.sha256]) })?[0].int {
            let recorded = try withReader { try self.documents.files(of: existing, in: $0) }
            if recorded.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) {
                let reason = UserMessage(nb: "en kopi av et dokument biblioteket har (\(ShortID.of(letter.sha256)))",
                                         en: "a copy of a document the library has (\(ShortID.of(letter.sha256)))")
                report.left += files.map { (path: $0.path, reason: reason) }
                return
            }
            try withDatabase { database in
                try database.inTransaction {
                    try documents.replaceFiles(of: existing, with: files, in: database)
                    if trashed { try markTrashed(existing, in: database) }
                }
            }
            report.relinked.append(ShortID.of(letter.sha256))
            return
        }
        let folder = files.first?.url.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        let layout = ArchiveLayout(root: URL(fileURLWithPath: "/"))
        let member = trashed ? members.first { $0 == letter.person } : members.first { layout.personFolderName($0) == folder }
        let unknown = ArchiveLayout.unknownPerson
        let images = files.images
        var document = LibraryDocument(
            sha256: letter.sha256, sourceName: letter.sourceName, title: letter.title,
            docType: letter.docType.flatMap(DocumentType.init(rawValue:)) ?? .annet,
            person: letter.person == unknown ? nil : letter.person, familyMember: member,
            institution: letter.institution, specialty: letter.specialty,
            documentDate: letter.documentDate ?? letter.date, scanDate: letter.scanDate, keywords: letter.keywords,
            ocrConfidence: letter.ocrConfidence, text: letter.text,
            pages: images.map { LibraryDocument.Page(number: $0.page, ocrConfidence: nil, width: 0, height: 0) },
            files: files)
        document.pageCount = max(images.count, 1)
        document.uploadStatus = "none"
        try withDatabase { database in
            do {
                let terms = try database.inTransaction { () throws -> Set<String> in
                    let (stored, terms) = try documents.insert(document, into: database)
                    if trashed { try markTrashed(stored.number, in: database) }
                    // An adopted letter is copied to the destination like a filed one.
                    try enqueueUpload(document: stored.number, in: database)
                    return terms
                }
                database.knownTerms?.formUnion(terms)
            } catch {
                database.knownTerms = nil  // the rollback took back the terms noted
                throw error
            }
        }
        report.adopted.append(ShortID.of(letter.sha256))
    }

    /// Puts a row in the trash as ``delete(_:purge:)`` does, its files already there (no record
    /// of where they were: ``restore(_:)`` then files them under the default archive folder).
    private func markTrashed(_ id: Int, in database: Database) throws {
        guard try database.firstRow("SELECT 1 FROM documents WHERE id = ? AND trashed_at IS NULL", [id]) != nil else { return }
        try documents.unindex(row: id, in: database)
        try database.execute("UPDATE documents SET trashed_at = ?, trash_origin = NULL, updated_at = ? WHERE id = ?",
                             [Self.now(), Self.now(), id])
    }

    /// Which trashed document a file in the trash belongs to (`<trash>/<id>/<kind>-<page>-<name>`,
    /// as ``DocumentFiling`` names them) and what it is; nil for any other file.
    static func trashPart(_ path: String) -> (key: String, file: ArchivedFile)? {
        let url = URL(fileURLWithPath: path)
        let parts = url.lastPathComponent.split(separator: "-", maxSplits: 2)
        guard parts.count == 3, let kind = ArchivedFile.Kind(rawValue: String(parts[0])), let page = Int(parts[1]) else {
            return nil
        }
        return (url.deletingLastPathComponent().path, ArchivedFile(kind: kind, page: page, path: path))
    }

    /// Which document an archive file belongs to (`<root>/<Person>/<Dokumenter|Bilder>/<name>`:
    /// the person folder and the name without page and extension) and what it is; nil for a
    /// file arkivator does not write there.
    static func archivePart(_ path: String) -> (key: String, file: ArchivedFile)? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let person = folder.deletingLastPathComponent().path
        let name = url.lastPathComponent
        switch (folder.lastPathComponent, url.pathExtension) {
        case (ArchiveLayout.documentsFolder, "docx"):
            return (person + "/" + url.deletingPathExtension().lastPathComponent, ArchivedFile(kind: .docx, path: path))
        case (ArchiveLayout.imagesFolder, "pdf"):
            return (person + "/" + url.deletingPathExtension().lastPathComponent, ArchivedFile(kind: .pdf, path: path))
        case (ArchiveLayout.imagesFolder, "jpeg"):
            let stem = String(name.dropLast(".jpeg".count))
            if let marker = stem.range(of: " - side ", options: .backwards),
               let page = Int(stem[marker.upperBound...]), page > 0 {
                return (person + "/" + stem[..<marker.lowerBound], ArchivedFile(kind: .image, page: page, path: path))
            }
            return (person + "/" + stem, ArchivedFile(kind: .image, page: 1, path: path))
        default:
            return nil
        }
    }
}
