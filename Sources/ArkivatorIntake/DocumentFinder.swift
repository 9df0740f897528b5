import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the files and folders a user names into documents: groups of pages in order.
///
/// One image is one document; `NAME_p1`, `NAME_p2`… (also `-p1`, `_page1`, `-side1`, ` side 1`)
/// in one folder are the pages of one document. Folders are searched recursively; with
/// `foldersAreDocuments`, the images directly inside each subfolder form one document.
public struct DocumentFinder: Sendable {
    /// File name endings that are always looked at when searching folders (see ``FolderWalk``:
    /// other files there are taken by their content). Files named explicitly are always looked at,
    /// so that a wrongly named file gets a clear refusal instead of silence.
    public static var imageExtensions: Set<String> { FolderWalk.imageExtensions }

    public var foldersAreDocuments: Bool

    public init(foldersAreDocuments: Bool = false) {
        self.foldersAreDocuments = foldersAreDocuments
    }

    /// A path that could not be searched, or a name in a folder that was refused.
    public struct Problem: Sendable, Equatable {
        public let path: String
        /// `missing` for a named path that does not exist; the walk's code otherwise
        /// (`symlinkOutside`, `notRegularFile`).
        public let reason: String
        /// What to tell the user.
        public let message: UserMessage

        public init(path: String, reason: String, message: UserMessage) {
            self.path = path
            self.reason = reason
            self.message = message
        }

        /// A named path that does not exist.
        public static func missing(_ path: String) -> Problem {
            let shown = ShownName.of(path)
            return Problem(path: path, reason: "missing",
                           message: UserMessage(nb: "Finner ikke «\(shown)». Sjekk navnet.", en: "Cannot find '\(shown)'. Check the name."))
        }
    }

    /// The documents found under `paths`, in a stable order, plus the paths that do not exist
    /// and the names in folders that were refused (a symlink out of the folder, a FIFO …).
    /// Each folder is searched once, however often it is reached (``FolderWalk``).
    public func find(_ paths: [String]) -> (documents: [DocumentSource], problems: [Problem]) {
        var documents: [DocumentSource] = []
        var problems: [Problem] = []
        var looseFiles: [URL] = []
        var walk = FolderWalk()
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                problems.append(.missing(path))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                let (listings, refused) = walk.walk(path)
                problems += refused.map { Problem(path: $0.path, reason: $0.errorCode, message: $0.userMessage) }
                documents += self.documents(in: listings)
            } else {
                looseFiles.append(URL(fileURLWithPath: path))
            }
        }
        documents = Self.group(looseFiles) + documents
        return (documents, problems)
    }

    /// The documents of one walk, folder by folder.
    private func documents(in listings: [FolderWalk.Listing]) -> [DocumentSource] {
        var documents: [DocumentSource] = []
        for listing in listings {
            let files = listing.documents.map { URL(fileURLWithPath: $0) }
            if foldersAreDocuments && !listing.isRoot && listing.subfolders.isEmpty {
                if !files.isEmpty {
                    let ordered = files.sorted { Self.naturalLess($0.lastPathComponent, $1.lastPathComponent) }
                    documents.append(DocumentSource(name: URL(fileURLWithPath: listing.path).lastPathComponent, pages: ordered))
                }
                continue
            }
            documents += Self.group(files)
        }
        return documents
    }

    /// Groups files whose names say they are numbered pages of one letter.
    static func group(_ files: [URL]) -> [DocumentSource] {
        var order: [String] = []
        var groups: [String: [(number: Int, url: URL)]] = [:]
        var singles: [String: URL] = [:]
        for url in files {
            let stem = url.deletingPathExtension().lastPathComponent
            let folder = url.deletingLastPathComponent().path
            if let (base, number) = pageNumber(in: stem) {
                let key = folder + "/" + base.lowercased()
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append((number, url))
            } else {
                let key = url.path
                order.append(key)
                singles[key] = url
            }
        }
        return order.compactMap { key in
            if let url = singles[key] {
                return DocumentSource(name: url.deletingPathExtension().lastPathComponent, pages: [url])
            }
            guard let pages = groups[key] else { return nil }
            let sorted = pages.sorted { $0.number < $1.number }
            let stem = sorted[0].url.deletingPathExtension().lastPathComponent
            let base = pageNumber(in: stem)?.base ?? stem
            return DocumentSource(name: base, pages: sorted.map(\.url))
        }
    }

    /// `("brev", 2)` for `brev_p2`, `brev-side2`, `brev_page2`, `brev side 2`; nil otherwise.
    static func pageNumber(in stem: String) -> (base: String, number: Int)? {
        let lower = stem.lowercased()
        for marker in ["page", "side", "p"] {
            for separator in ["_", "-", " "] {
                for gap in ["", " ", "_"] {
                    let token = separator + marker + gap
                    guard let range = lower.range(of: token, options: .backwards) else { continue }
                    let digits = lower[range.upperBound...]
                    guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCII),
                          digits.allSatisfy(\.isNumber), let number = Int(digits) else { continue }
                    let offset = lower.distance(from: lower.startIndex, to: range.lowerBound)
                    let base = String(stem.prefix(offset))
                    guard !base.isEmpty else { continue }
                    return (base, number)
                }
            }
        }
        return nil
    }

    /// Orders `side2` before `side10`.
    static func naturalLess(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive]) == .orderedAscending
    }
}

/// One document as found on disk: a name and its page files in order.
public struct DocumentSource: Sendable, Equatable {
    /// A short name for messages and output files (the file name without page suffix).
    public let name: String
    /// The page files, in page order. A multi-page TIFF is one file holding several pages.
    public let pages: [URL]

    public init(name: String, pages: [URL]) {
        self.name = name
        self.pages = pages
    }
}
