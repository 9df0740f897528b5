import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one walk through a folder tree, used by `ingest` (``DocumentFinder``), `watch` and its
/// rescan (and so the folders it registers with inotify): it never loops and never leaves the tree.
///
/// - A folder reached twice (the same device and inode, by a symlink or a bind mount) is walked
///   once, so `a -> .` beside `b -> .` costs one look at the folder.
/// - A symlink whose target is outside the tree is not followed; it comes back as a ``Problem``
///   with a sentence. One into a skipped folder (`processed/`, `failed/`) is passed over silently.
/// - Files are documents by their content: a name with an image ending is always taken (so a
///   wrongly named file gets a clear refusal); any other regular file is taken when its first
///   bytes are an image or PDF Arkivator reads. Hidden and temporary names and the endings of
///   obvious non-documents (text, office files, archives, sound, video) are never opened.
/// - Anything that is not a regular file or folder (a FIFO, a socket, a device) is never opened:
///   it comes back as a ``Problem``.
public struct FolderWalk: Sendable {
    /// What the walk saw in one folder.
    public struct Listing: Sendable, Equatable {
        /// The folder, as reached from the root the walk was given.
        public let path: String
        public let isRoot: Bool
        /// Files that may be documents, by name.
        public let documents: [String]
        /// Every other name in the folder that was not entered or refused (hidden and temporary
        /// names, hidden folders, files that are no documents): what a watch must see settle too.
        public let others: [String]
        /// The folders below that the walk enters (each listed after this one).
        public let subfolders: [String]
    }

    /// A name the walk refused, and why.
    public struct Problem: Sendable, Equatable, UserFacingError {
        public enum Reason: Sendable, Equatable {
            /// A symlink whose target is outside the tree that was named.
            case leavesTree(target: String)
            /// A FIFO, socket or device: `kind` says which.
            case notRegularFile(kind: String)
        }

        public let path: String
        public let reason: Reason

        public var errorCode: String {
            switch reason {
            case .leavesTree: "symlinkOutside"
            case .notRegularFile: "notRegularFile"
            }
        }

        public var userMessage: UserMessage {
            let name = ShownName.of(path)
            switch reason {
            case .leavesTree(let target):
                let shownTarget = ShownName.of(target)
                return UserMessage(
                    nb: "«\(name)» er en snarvei (symlenke) til \(shownTarget), utenfor mappen som leses, og følges ikke. "
                        + "Legg filene selv i mappen om de skal arkiveres.",
                    en: "“\(name)” is a symlink to \(shownTarget), outside the folder being read, and is not followed. "
                        + "Put the files themselves in the folder to have them filed.")
            case .notRegularFile(let kind):
                let what = InputError.kindName(kind)
                return UserMessage(nb: "«\(name)» er ikke en vanlig fil (\(what.norwegian)) og hoppes over.",
                                   en: "“\(name)” is not a regular file (\(what.english)) and is skipped.")
            }
        }
    }

    /// Names below the root that are never entered, by any path (`watch`: `processed`, `failed`).
    public let skipping: Set<String>

    /// The folders (and files) seen so far, by device and inode: shared by every root one walk is
    /// given, so a folder named twice, or inside another, is walked once.
    private var seen: Set<Identity> = []

    public init(skipping: Set<String> = []) {
        self.skipping = skipping
    }

    struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Walks `root` (a folder): one ``Listing`` per folder entered, each before its subfolders',
    /// in name order; and the names refused. A root that cannot be listed gives nothing.
    public mutating func walk(_ named: String) -> (listings: [Listing], problems: [Problem]) {
        var root = named
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return ([], []) }
        guard seen.insert(Identity(info)).inserted else { return ([], []) }
        let realRoot = RealPath.of(root) ?? root
        var listings: [Listing] = []
        var problems: [Problem] = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard let listing = list(folder, isRoot: folder == root, realRoot: realRoot, problems: &problems) else { continue }
            listings.append(listing)
            pending += listing.subfolders.reversed()
        }
        return (listings, problems)
    }

    private mutating func list(_ folder: String, isRoot: Bool, realRoot: String, problems: inout [Problem]) -> Listing? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var documents: [String] = [], others: [String] = [], subfolders: [String] = []
        for name in names.sorted() {
            if isRoot && skipping.contains(name) { continue }
            let path = (folder == "/" ? "" : folder) + "/" + name
            if Self.isIgnored(name) {
                others.append(path)
                continue
            }
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }  // gone meanwhile
            if info.st_mode & S_IFMT == S_IFLNK {
                guard let target = RealPath.of(path) else { continue }  // a dangling link: nothing to read
                guard target == realRoot || target.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") else {
                    problems.append(Problem(path: path, reason: .leavesTree(target: target)))
                    continue
                }
                let inside = target.dropFirst(realRoot.count).split(separator: "/").first.map(String.init)
                if let inside, skipping.contains(inside) { continue }
                guard stat(path, &info) == 0 else { continue }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if seen.insert(Identity(info)).inserted { subfolders.append(path) }
            case S_IFREG:
                guard seen.insert(Identity(info)).inserted else { continue }
                if Self.mayBeDocument(path, name: name) {
                    documents.append(path)
                } else {
                    others.append(path)
                }
            case S_IFIFO:
                problems.append(Problem(path: path, reason: .notRegularFile(kind: "fifo")))
            case S_IFSOCK:
                problems.append(Problem(path: path, reason: .notRegularFile(kind: "socket")))
            case S_IFCHR, S_IFBLK:
                problems.append(Problem(path: path, reason: .notRegularFile(kind: "device")))
            default:
                continue
            }
        }
        return Listing(path: folder, isRoot: isRoot, documents: documents, others: others, subfolders: subfolders)
    }

    // MARK: - Names and content

    /// File name endings that are always taken when searching folders (whatever the content says:
    /// a wrongly named file gets a clear refusal instead of silence).
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "gif", "bmp", "dib", "pdf"]

    /// Endings of files that are obviously no scanned letter: never opened to look.
    static let otherExtensions: Set<String> = [
        "txt", "md", "csv", "json", "xml", "html", "htm", "log", "ini", "docx", "doc", "odt", "rtf", "xlsx", "xls", "ods",
        "pptx", "ppt", "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "mp3", "m4a", "wav", "ogg", "flac", "mp4",
        "mov", "avi", "mkv", "webm", "sqlite", "db", "exe", "dmg", "iso", "swift", "py", "sh",
    ]

    /// Hidden names, unfinished downloads and temporary files (ours among them): never read.
    public static func isIgnored(_ name: String) -> Bool {
        let lower = name.lowercased()
        return name.hasPrefix(".") || name.hasSuffix("~")
            || [".part", ".tmp", ".crdownload", ".partial", ".download"].contains { lower.hasSuffix($0) }
    }

    /// A download still in progress (`*.part`, `*.crdownload`, `*.partial`).
    public static func isDownloadMarker(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".part") || lower.hasSuffix(".crdownload") || lower.hasSuffix(".partial")
    }

    /// True when the regular file at `path` is taken as a document: by its image ending, or by
    /// its first bytes being a format Arkivator reads (the same sniffing as for a named file).
    static func mayBeDocument(_ path: String, name: String) -> Bool {
        let ending = URL(fileURLWithPath: name).pathExtension.lowercased()
        if imageExtensions.contains(ending) { return true }
        if otherExtensions.contains(ending) { return false }
        guard let head = head(of: path), !head.isEmpty else { return false }
        do {
            _ = try ImageFormat.sniff(head)
            return true
        } catch {
            // Only the start was read: a known signature whose end is missing is still an image.
            return error == .truncated
        }
    }

    /// The first bytes of a regular file; never blocks (a FIFO put there meanwhile is refused).
    static func head(of path: String, count: Int = 64) -> [UInt8]? {
        guard let (handle, _) = try? ReceivedFile.openRegularFile(path) else { return nil }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.read(upToCount: count) ?? Data())  // nil at the end: an empty file
        } catch {
            return nil
        }
    }
}
