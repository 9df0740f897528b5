import ArkivatorCore
import ArkivatorIntake
import ArkivatorPipeline
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Watcher {
    /// What one file looked like when the folder was last looked at.
    struct Stamp: Equatable, Sendable {
        let path: String
        let size: Int64
        let modified: Int64
        let changed: Int64
        let inode: UInt64

        /// The file's metadata, following symlinks; nil when it is gone.
        static func of(_ path: String) -> Stamp? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return Stamp(path: path, size: Int64(info.st_size),
                         modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                         changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                         inode: UInt64(info.st_ino))
        }

        /// The newer of the modification and status-change times.
        var lastChange: Date {
            Date(timeIntervalSince1970: Double(max(modified, changed)) / 1_000_000_000)
        }
    }

    /// One document waiting in the watched folder.
    struct Found: Sendable {
        enum Shape: Sendable { case file, group, folder }

        /// Stays the same while the document is being written: the folder's path for a folder, the
        /// file's for a single file, `folder/name*` for a group of numbered pages.
        let key: String
        let document: DocumentSource
        let shape: Shape
        /// Every file that makes up the document (for a folder: everything in it, and the folder).
        let stamps: [Stamp]
        /// It holds a download that is not finished (`*.part`, `*.crdownload`).
        let downloading: Bool

        /// The folder (for a folder document) or the page files: what moves when it is done.
        var originals: [String] {
            shape == .folder ? [key] : document.pages.map(\.path)
        }

        /// What the journal records as the source: the folder, or the page files one per line.
        var journalSource: String { originals.joined(separator: "\n") }

        /// For messages and logs: the path relative to the watched folder, control characters
        /// escaped (``ShownName``).
        func displayName(relativeTo root: String) -> String {
            let first = ShownName.of(Watcher.relative(originals[0], to: root))
            return originals.count > 1 ? "\(first) (+\(originals.count - 1))" : first
        }
    }

    /// Names the watch never reads: hidden files, unfinished downloads and temporary files.
    static func isIgnored(_ name: String) -> Bool { FolderWalk.isIgnored(name) }

    /// A download still in progress in a folder makes the whole folder wait for it.
    static func isDownloadMarker(_ name: String) -> Bool { FolderWalk.isDownloadMarker(name) }

    /// The folders in the watched folder that are arkivator's own: never entered, by any path.
    static let ownFolders: Set<String> = ["processed", "failed"]

    /// `path` relative to `root` (unchanged when it is not below it).
    static func relative(_ path: String, to root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// What one look through the watched folder found.
    struct Scan: Sendable {
        var documents: [Found] = []
        /// Every folder looked at (each once), for inotify.
        var folders: [String] = []
        /// Names refused (a symlink out of the folder, a FIFO …).
        var problems: [FolderWalk.Problem] = []
    }

    /// Looks through the watched folder as `ingest --folders-are-documents` does, with the same
    /// ``FolderWalk`` (so it never loops and never enters `processed/` or `failed/`): loose files
    /// are documents (numbered pages `NAME_p1`, `NAME_p2` … grouped into one), a folder without
    /// subfolders is one document of all its images in name order; ignored names are left out.
    static func scan(_ root: String) -> Scan {
        var walk = FolderWalk(skipping: ownFolders)
        let (listings, problems) = walk.walk(root)
        var result = Scan(problems: problems)
        for listing in listings {
            result.folders.append(listing.path)
            result.documents += documents(in: listing)
        }
        return result
    }

    private static func documents(in listing: FolderWalk.Listing) -> [Found] {
        let folder = listing.path
        let images = listing.documents, others = listing.others
        if !listing.isRoot && listing.subfolders.isEmpty {
            // A folder of pages: one document, settled as a whole (everything in it counts).
            guard !images.isEmpty else { return [] }
            let pages = images.sorted {
                URL(fileURLWithPath: $0).lastPathComponent.compare(
                    URL(fileURLWithPath: $1).lastPathComponent, options: [.numeric, .caseInsensitive]) == .orderedAscending
            }
            let downloading = others.contains { isDownloadMarker(URL(fileURLWithPath: $0).lastPathComponent) }
            let stamps = ([folder] + pages + others.sorted()).compactMap(Stamp.of)
            return [Found(key: folder, document: DocumentSource(name: URL(fileURLWithPath: folder).lastPathComponent,
                                                                pages: pages.map { URL(fileURLWithPath: $0) }),
                          shape: .folder, stamps: stamps, downloading: downloading)]
        }
        // Loose files, grouped by their page numbers exactly as `ingest` groups them.
        guard !images.isEmpty else { return [] }
        return DocumentFinder().find(images).documents.map { document in
            let pages = document.pages.map(\.path)
            // Numbered pages are a group even while only the first has arrived, so that the
            // next page joins it (and restarts its wait) instead of making a new document.
            let stem = URL(fileURLWithPath: pages[0]).deletingPathExtension().lastPathComponent
            let grouped = pages.count > 1 || stem.lowercased() != document.name.lowercased()
            let key = grouped ? folder + "/" + document.name.lowercased() + "*" : pages[0]
            // A page that is still arriving holds back its whole group.
            let partial = others.contains { path in
                isDownloadMarker(path) && URL(fileURLWithPath: path).lastPathComponent.lowercased()
                    .hasPrefix(document.name.lowercased())
            }
            return Found(key: key, document: document, shape: grouped ? .group : .file,
                         stamps: pages.compactMap(Stamp.of), downloading: partial)
        }
    }
}
