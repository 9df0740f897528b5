import ArkivatorCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The files of one document, ready to go into the archive.
public struct ArchiveFiles: Sendable, Equatable {
    /// A file's content: bytes in memory, or a complete file another writer left at a
    /// temporary path (best made with ``ArchiveLayout/temporaryURL(person:for:)``, so it is on
    /// the archive's disk). ``ArchiveLayout/write(_:person:title:)`` takes over temporary files:
    /// they are gone afterwards, whether it succeeds or fails.
    public enum Content: Sendable, Equatable {
        case bytes([UInt8])
        case temporaryFile(URL)
    }

    /// The `.docx`, if any.
    public var docx: Content?
    /// The cleaned page images (JPEG), in page order.
    public var images: [[UInt8]]
    /// The searchable PDF at a temporary path, if any.
    public var pdf: URL?

    /// A document whose `.docx` (if any) is in memory.
    public init(docx: [UInt8]? = nil, images: [[UInt8]] = [], pdf: URL? = nil) {
        self.docx = docx.map(Content.bytes)
        self.images = images
        self.pdf = pdf
    }

    /// A document whose `.docx` another writer left at a temporary path.
    public init(docxFile: URL, images: [[UInt8]] = [], pdf: URL? = nil) {
        self.docx = .temporaryFile(docxFile)
        self.images = images
        self.pdf = pdf
    }
}

/// Where a document's files ended up.
public struct WrittenArchive: Sendable, Equatable {
    /// `<root>/<Person>`.
    public let personFolder: URL
    /// The file name without tail and extension, suffix included.
    public let name: String
    /// 1 for the plain name, 2 when ` (2)` was added ….
    public let copy: Int
    public let docx: URL?
    public let images: [URL]
    public let pdf: URL?

    /// Every file written, docx first, then the pages, then the PDF.
    public var files: [URL] { archivedFiles.map(\.url) }

    /// Every file written, as the archive's file list: docx, pages, PDF.
    public var archivedFiles: [ArchivedFile] {
        (docx.map { [ArchivedFile(kind: .docx, path: $0.path)] } ?? [])
            + images.enumerated().map { ArchivedFile(kind: .image, page: $0.offset + 1, path: $0.element.path) }
            + (pdf.map { [ArchivedFile(kind: .pdf, path: $0.path)] } ?? [])
    }
}

extension ArchiveLayout {
    /// Writes a document's files into the person's folder, all under one free name.
    ///
    /// Folders are made as needed (mode 0700). Bytes are first written to flushed temporary
    /// files beside their targets; then every file is published without replacing anything.
    /// When a name turns out to be taken (another writer was faster), what this call published
    /// is taken back and the whole document moves on to the next suffix. On any other failure
    /// everything this call published is removed and the error is rethrown: no document is
    /// ever left half-written, no existing file is ever replaced, and no temporary file stays.
    /// Every path is checked to lie inside the archive folder, with symbolic links resolved.
    ///
    /// - Throws: ``AtomicFileError`` (disk full, no permission …) or ``ArchiveLayoutError``.
    public func write(_ files: ArchiveFiles, person: String?, title: String) throws -> WrittenArchive {
        try write(files, person: person, title: title, willPublish: { _ in }, beforePublishing: nil)
    }

    /// ``write(_:person:title:)``, telling `willPublish` the full paths about to be published
    /// before the first of them appears (again for each further name tried), so a caller can
    /// record them durably and find them after a crash.
    public func write(_ files: ArchiveFiles, person: String?, title: String,
                      willPublish: ([URL]) throws -> Void) throws -> WrittenArchive {
        try write(files, person: person, title: title, willPublish: willPublish, beforePublishing: nil)
    }

    /// ``write(_:person:title:)`` with a hook run before each file is published (tests use it
    /// to simulate another writer taking a name, or a disk failing midway).
    func write(_ files: ArchiveFiles, person: String?, title: String,
               willPublish: ([URL]) throws -> Void = { _ in },
               beforePublishing: ((_ target: URL) throws(AtomicFileError) -> Void)?) throws -> WrittenArchive {
        var items: [Item] = []
        // Temporary files are ours from here on: whatever happens, none stays.
        defer { for item in items { _ = unlink(item.temporary.path) } }
        if case .temporaryFile(let url)? = files.docx { items.append(Item(kind: .docx, page: 0, temporary: url, given: true)) }
        if let pdf = files.pdf { items.append(Item(kind: .pdf, page: 0, temporary: pdf, given: true)) }
        guard files.docx != nil || !files.images.isEmpty || files.pdf != nil else { throw ArchiveLayoutError.nothingToWrite }

        let realRoot = try prepareRoot()
        let pageCount = files.images.count
        let first = plan(person: person, title: title, pageCount: pageCount)
        try makeFolder(first.personFolder, realRoot: realRoot)
        var folders: [URL] = []
        if files.docx != nil { folders.append(first.docx.deletingLastPathComponent()) }
        if !files.images.isEmpty || files.pdf != nil { folders.append(first.pdf.deletingLastPathComponent()) }
        for folder in folders { try makeFolder(folder, realRoot: realRoot) }

        // Stage the bytes as flushed temporary files beside their targets, so publishing is
        // only renames and links, and a retry under the next name rewrites nothing.
        if case .bytes(let bytes)? = files.docx {
            let temporary = try AtomicFile.writeTemporary(bytes, beside: first.docx)
            items.append(Item(kind: .docx, page: 0, temporary: temporary, given: false))
        }
        for (index, image) in files.images.enumerated() {
            let temporary = try AtomicFile.writeTemporary(image, beside: first.images[index])
            items.append(Item(kind: .image, page: index + 1, temporary: temporary, given: false))
        }
        for (index, item) in items.enumerated() where item.given {
            try AtomicFile.flushTemporary(item.temporary.path, mode: AtomicFile.defaultMode)
            // A file on another disk is copied beside its target first, so that taking it
            // back after a lost race is a rename too.
            let folder = first.url(for: item.kind, page: item.page).deletingLastPathComponent()
            if !sameDevice(item.temporary.path, folder.path) {
                let copy = try AtomicFile.copyBeside(source: item.temporary.path, target: folder.appendingPathComponent("x").path)
                _ = unlink(item.temporary.path)
                items[index] = Item(kind: item.kind, page: item.page, temporary: URL(fileURLWithPath: copy), given: true)
            }
        }
        items.sort { ($0.kind.order, $0.page) < ($1.kind.order, $1.page) }

        var copy = 1
        while copy <= Self.maximumCopy {
            let candidate = plan(person: person, title: title, pageCount: pageCount, copy: copy)
            copy += 1
            if isTaken(candidate) { continue }
            let targets = items.map { candidate.url(for: $0.kind, page: $0.page) }
            for target in targets { try checkInside(target, realRoot: realRoot) }
            try willPublish(targets)

            var published: [(target: URL, temporary: URL)] = []
            do throws(AtomicFileError) {
                for (item, target) in zip(items, targets) {
                    try beforePublishing?(target)
                    try AtomicFile.place(temporary: item.temporary.path, at: target.path, overwrite: false)
                    published.append((target, item.temporary))
                }
            } catch where error.kind == .exists {
                // Someone took one of the names meanwhile: take ours back, try the next name.
                guard takeBack(published) else { throw error }
                continue
            } catch {
                _ = takeBack(published)
                throw error
            }
            items.removeAll()  // all published: nothing left to clean up
            for folder in folders {
                do {
                    try AtomicFile.syncDirectory(folder)
                } catch {
                    for entry in published { _ = unlink(entry.target.path) }
                    throw error
                }
            }
            return WrittenArchive(
                personFolder: candidate.personFolder, name: candidate.name, copy: candidate.copy,
                docx: files.docx == nil ? nil : candidate.docx,
                images: pageCount == 0 ? [] : candidate.images,
                pdf: files.pdf == nil ? nil : candidate.pdf)
        }
        throw ArchiveLayoutError.tooManyCopies(title: fileStem(title: title, pageCount: pageCount))
    }

    /// A temporary path in the folder a file of `kind` for `person` goes to (the folder is made
    /// if needed), for a writer that cannot write to memory: hand the finished file to
    /// ``write(_:person:title:)`` through ``ArchiveFiles/init(docxFile:images:pdf:)`` or as the `pdf`.
    public func temporaryURL(person: String?, for kind: ArchivedFile.Kind) throws -> URL {
        let realRoot = try prepareRoot()
        try makeFolder(personFolder(person), realRoot: realRoot)
        let folder = folder(person: person, for: kind)
        try makeFolder(folder, realRoot: realRoot)
        return folder.appendingPathComponent(AtomicFile.temporaryName())
    }

    /// True when `url` lies inside the archive folder: no `.` or `..` components, below the root
    /// as written, and its folder (as far as it exists) below the root with symlinks resolved.
    public func contains(_ url: URL) -> Bool {
        guard let realRoot = RealPath.of(root.path) else { return false }
        return (try? checkInside(url, realRoot: realRoot)) != nil
    }

    // MARK: - Helpers

    /// One file to publish: its kind, page number (images) and temporary path.
    struct Item {
        let kind: ArchivedFile.Kind
        let page: Int
        let temporary: URL
        /// Handed over by the caller (not staged here from bytes).
        let given: Bool
    }

    /// Makes the root (0700 where new) and returns its real path.
    func prepareRoot() throws -> String {
        try AtomicFile.createDirectory(root)
        guard let real = RealPath.of(root.path) else {
            throw AtomicFileError(errno: errno, operation: "realpath", path: root.path)
        }
        return real
    }

    /// Makes a folder inside the archive (0700 where new), refusing one that resolves outside.
    func makeFolder(_ url: URL, realRoot: String) throws {
        try checkInside(url, realRoot: realRoot, isFolder: true)
        try AtomicFile.createDirectory(url)
        try checkInside(url, realRoot: realRoot, isFolder: true)
    }

    /// Throws ``ArchiveLayoutError/Kind/outsideArchive`` unless `url` lies inside the root.
    func checkInside(_ url: URL, realRoot: String, isFolder: Bool = false) throws {
        let path = url.path
        let components = url.pathComponents
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard !components.contains(".."), !components.contains("."),
              url.standardizedFileURL.path == path, isPath(path, below: rootPath),
              components.allSatisfy({ $0.utf8.count <= FileName.maximumComponentBytes }) else {
            throw ArchiveLayoutError.outsideArchive(path)
        }
        // The deepest existing folder on the way (the file's own folder, or the folder itself),
        // resolved, must be the root or below it.
        var folder = isFolder ? url : url.deletingLastPathComponent()
        while RealPath.of(folder.path) == nil, isPath(folder.path, below: rootPath) {
            folder = folder.deletingLastPathComponent()
        }
        guard let real = RealPath.of(folder.path), real == realRoot || isPath(real, below: realRoot == "/" ? "/" : realRoot + "/") else {
            throw ArchiveLayoutError.outsideArchive(path)
        }
        // An existing entry under the file's name that is a symlink never counts as inside.
        if !isFolder {
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                throw ArchiveLayoutError.outsideArchive(path)
            }
        }
    }

    /// Puts published files back at their temporary paths (so a retry can publish them again).
    /// False when one could not be moved back; then all published files are removed.
    private func takeBack(_ published: [(target: URL, temporary: URL)]) -> Bool {
        var allBack = true
        for entry in published.reversed() {
            if rename(entry.target.path, entry.temporary.path) != 0 {
                allBack = false
            }
            // rename() between two names of one file does nothing: drop the target name then.
            var info = stat()
            if lstat(entry.target.path, &info) == 0 { _ = unlink(entry.target.path) }
        }
        return allBack
    }
}

extension ArchivePlan {
    /// The URL for the file of `kind` (`page` counts from 1 for images).
    public func url(for kind: ArchivedFile.Kind, page: Int = 1) -> URL {
        switch kind {
        case .docx: docx
        case .pdf: pdf
        case .image: images[page - 1]
        }
    }

    /// Every name in the plan: docx, pages, PDF.
    public var files: [URL] { [docx] + images + [pdf] }
}

/// True when `path` starts with `folder` (ending in `/`), byte for byte: `String.hasPrefix`
/// compares characters, and a name starting with a combining mark would merge with the `/`.
func isPath(_ path: String, below folder: String) -> Bool {
    path.utf8.count > folder.utf8.count && path.utf8.starts(with: folder.utf8)
}

/// True when both paths exist and lie on the same file system.
func sameDevice(_ first: String, _ second: String) -> Bool {
    var a = stat(), b = stat()
    guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
    return a.st_dev == b.st_dev
}
