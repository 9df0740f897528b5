import Foundation
import ArkivatorCore

/// Where a document's files go in the archive: one folder per family member.
///
///     <root>/<Person>/Dokumenter/<title>.docx
///     <root>/<Person>/Bilder/<title>.jpeg                      (one page)
///     <root>/<Person>/Bilder/<title> - side 1.jpeg … side N    (several pages)
///     <root>/<Person>/Bilder/<title>.pdf
///
/// A letter about no known person goes to `Ukjent person/`. Person and title are cleaned by
/// ``FileName/sanitized(_:maxBytes:fallback:)``. When any name of a document is taken, the
/// whole document gets the same suffix: `<title> (2).docx`, `<title> (2) - side 1.jpeg` ….
public struct ArchiveLayout: Sendable, Equatable {
    /// The archive folder.
    public let root: URL

    /// The folder for letters about someone outside the household, or no one found.
    public static let unknownPerson = ShownPerson.unknown.norwegian
    /// The folder (inside a person's folder) for the `.docx` files.
    public static let documentsFolder = "Dokumenter"
    /// The folder (inside a person's folder) for page images and the searchable PDF.
    public static let imagesFolder = "Bilder"
    /// The highest collision number tried before giving up (` (9999)`).
    public static let maximumCopy = 9999

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// The folder name for `person`: cleaned, or ``unknownPerson`` for nil, empty or nothing left.
    public func personFolderName(_ person: String?) -> String {
        guard let person else { return Self.unknownPerson }
        return FileName.sanitized(person, maxBytes: 200, fallback: Self.unknownPerson)
    }

    /// The person's folder.
    public func personFolder(_ person: String?) -> URL {
        root.appendingPathComponent(personFolderName(person), isDirectory: true)
    }

    /// The folder a file of `kind` goes to.
    public func folder(person: String?, for kind: ArchivedFile.Kind) -> URL {
        personFolder(person).appendingPathComponent(kind == .docx ? Self.documentsFolder : Self.imagesFolder,
                                                    isDirectory: true)
    }

    /// The title as it appears in file names: cleaned and short enough that the longest name
    /// of a document with `pageCount` pages, with a ` (9999)` suffix, stays within 255 bytes.
    public func fileStem(title: String, pageCount: Int) -> String {
        let longestTail = Self.tail(kind: .image, page: max(pageCount, 1), pageCount: max(pageCount, 2)).utf8.count
        let suffixRoom = " (\(Self.maximumCopy))".utf8.count
        let budget = min(200, FileName.maximumComponentBytes - max(longestTail, ".docx".utf8.count) - suffixRoom)
        return FileName.sanitized(title, maxBytes: budget)
    }

    /// The names a document would get, without writing anything. `copy` 1 is the plain name,
    /// 2 and up add ` (2)` ….
    public func plan(person: String?, title: String, pageCount: Int, copy: Int = 1) -> ArchivePlan {
        let stem = fileStem(title: title, pageCount: pageCount)
        let name = copy <= 1 ? stem : stem + " (\(copy))"
        let documents = folder(person: person, for: .docx)
        let images = folder(person: person, for: .image)
        return ArchivePlan(
            personFolder: personFolder(person),
            name: name,
            copy: max(copy, 1),
            docx: documents.appendingPathComponent(name + Self.tail(kind: .docx, page: 0, pageCount: 0)),
            images: (0..<max(pageCount, 0)).map {
                images.appendingPathComponent(name + Self.tail(kind: .image, page: $0 + 1, pageCount: pageCount))
            },
            pdf: images.appendingPathComponent(name + Self.tail(kind: .pdf, page: 0, pageCount: 0)))
    }

    /// The archive folder that files laid out by a layout lie in: the inverse of
    /// ``folder(person:for:)`` (`<root>/<Person>/<Dokumenter|Bilder>/<file>`), nil without files.
    public static func root(of files: [ArchivedFile]) -> URL? {
        files.first.map { $0.url.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
    }

    /// The first plan (`copy` 1, 2 …) none of whose names is taken, as the disk is now. Another
    /// writer may still take a name before this one writes; ``write(_:person:title:)`` copes.
    public func availablePlan(person: String?, title: String, pageCount: Int) throws -> ArchivePlan {
        for copy in 1...Self.maximumCopy {
            let candidate = plan(person: person, title: title, pageCount: pageCount, copy: copy)
            if !isTaken(candidate) { return candidate }
        }
        throw ArchiveLayoutError.tooManyCopies(title: fileStem(title: title, pageCount: pageCount))
    }

    /// What follows the name: ` - side 2.jpeg`, `.docx` ….
    static func tail(kind: ArchivedFile.Kind, page: Int, pageCount: Int) -> String {
        if kind == .image && pageCount > 1 { return " - side \(page).\(kind.fileExtension)" }
        return "." + kind.fileExtension
    }

    /// True when any name the plan's document could use is taken: its docx, pdf and page
    /// images, and both ways its first page can be named (so a name never holds parts of two
    /// documents). Dangling symlinks count as taken.
    func isTaken(_ plan: ArchivePlan) -> Bool {
        let images = plan.docx.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(Self.imagesFolder, isDirectory: true)
        var names = [plan.docx, plan.pdf] + plan.images
        names.append(images.appendingPathComponent(plan.name + Self.tail(kind: .image, page: 1, pageCount: 1)))
        names.append(images.appendingPathComponent(plan.name + Self.tail(kind: .image, page: 1, pageCount: 2)))
        return names.contains { url in
            var info = stat()
            return lstat(url.path, &info) == 0
        }
    }
}

/// The names of one document in the archive.
public struct ArchivePlan: Sendable, Equatable {
    /// `<root>/<Person>`.
    public let personFolder: URL
    /// The file name without tail and extension, suffix included (`2024-03-01 Innkalling (2)`).
    public let name: String
    /// 1 for the plain name, 2 for ` (2)` ….
    public let copy: Int
    /// `<root>/<Person>/Dokumenter/<name>.docx`.
    public let docx: URL
    /// `<root>/<Person>/Bilder/<name>.jpeg`, or `<name> - side 1.jpeg` … for several pages.
    public let images: [URL]
    /// `<root>/<Person>/Bilder/<name>.pdf`.
    public let pdf: URL
}

/// Why the layout refused to write a document.
public struct ArchiveLayoutError: UserFacingError, Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// A path would have left the archive folder (through `..` or a symbolic link).
        case outsideArchive
        /// Every name up to ` (9999)` is taken.
        case tooManyCopies
        /// The document has no files to write.
        case nothingToWrite
    }

    public let kind: Kind
    /// The path or title concerned.
    public let detail: String

    static func outsideArchive(_ path: String) -> ArchiveLayoutError { .init(kind: .outsideArchive, detail: path) }
    static func tooManyCopies(title: String) -> ArchiveLayoutError { .init(kind: .tooManyCopies, detail: title) }
    static let nothingToWrite = ArchiveLayoutError(kind: .nothingToWrite, detail: "")

    /// A short machine-readable code, stable across languages.
    public var errorCode: String { kind.rawValue }

    public var userMessage: UserMessage {
        switch kind {
        case .outsideArchive:
            UserMessage(
                nb: "Nektet å skrive \(detail): stien går ut av arkivmappen (en symbolsk lenke eller ..). Fjern lenken i arkivet og prøv igjen.",
                en: "Refused to write \(detail): the path leads out of the archive folder (a symbolic link or ..). Remove the link in the archive and try again.")
        case .tooManyCopies:
            UserMessage(
                nb: "Det finnes allerede \(ArchiveLayout.maximumCopy) dokumenter som heter «\(detail)». Rydd i arkivmappen og prøv igjen.",
                en: "There are already \(ArchiveLayout.maximumCopy) documents named “\(detail)”. Tidy the archive folder and try again.")
        case .nothingToWrite:
            UserMessage(nb: "Dokumentet har ingen filer å lagre.", en: "The document has no files to save.")
        }
    }

}
