import Foundation

/// Turns the files and folders a user names into documents: groups of pages in order.
///
/// One image is one document; `NAME_p1`, `NAME_p2`… (also `-p1`, `_page1`, `-side1`, ` side 1`)
/// in one folder are the pages of one document. Folders are searched recursively; with
/// `foldersAreDocuments`, the images directly inside each subfolder form one document.
public struct DocumentFinder: Sendable {
    /// File name endings that are looked at when searching folders. Files named explicitly are
    /// always looked at, so that a wrongly named file gets a clear refusal instead of silence.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "gif", "bmp", "dib", "pdf"]

    public var foldersAreDocuments: Bool

    public init(foldersAreDocuments: Bool = false) {
        self.foldersAreDocuments = foldersAreDocuments
    }

    /// A path that could not be searched.
    public struct Problem: Sendable, Equatable {
        public let path: String
        public let reason: String
    }

    /// The documents found under `paths`, in a stable order, plus the paths that do not exist.
    public func find(_ paths: [String]) -> (documents: [DocumentSource], problems: [Problem]) {
        var documents: [DocumentSource] = []
        var problems: [Problem] = []
        var looseFiles: [URL] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(Problem(path: path, reason: "missing"))
                continue
            }
            let url = URL(fileURLWithPath: path)
            if isDirectory.boolValue {
                documents += searchFolder(url, isRoot: true)
            } else {
                looseFiles.append(url)
            }
        }
        documents = Self.group(looseFiles) + documents
        return (documents, problems)
    }

    private func searchFolder(_ folder: URL, isRoot: Bool) -> [DocumentSource] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return [] }
        var files: [URL] = []
        var folders: [URL] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                folders.append(url)
            } else if Self.imageExtensions.contains(url.pathExtension.lowercased()) {
                files.append(url)
            }
        }
        var documents: [DocumentSource] = []
        if foldersAreDocuments && !isRoot && folders.isEmpty {
            if !files.isEmpty {
                let ordered = files.sorted { Self.naturalLess($0.lastPathComponent, $1.lastPathComponent) }
                documents.append(DocumentSource(name: folder.lastPathComponent, pages: ordered))
            }
            return documents
        }
        documents += Self.group(files)
        for sub in folders {
            documents += searchFolder(sub, isRoot: false)
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
