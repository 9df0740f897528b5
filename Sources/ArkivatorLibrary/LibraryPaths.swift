import ArkivatorArchive
import ArkivatorCore
import Foundation

/// The one place where the paths the library stores are made and read back.
///
/// A file inside the library folder (the default archive `Arkiv/`, the trash `Papirkurv/`) is
/// stored relative to that folder (`Arkiv/Kari/Dokumenter/x.docx`), so a library that is copied
/// (`cp -a`) or moved finds its own files and never touches another copy's. A file outside it (an
/// archive chosen with `--archive` elsewhere) stays absolute: it is the same file wherever the
/// library goes. Every read of a stored path goes through ``resolved(_:)``, every write through
/// ``stored(_:)``.
struct LibraryPaths: Sendable {
    /// The library folder, standardised, without a trailing slash.
    let directory: String
    /// The same folder with symbolic links resolved, when that differs (a path written through
    /// the link's target is inside the library too).
    private let physical: String?

    init(_ location: LibraryLocation) {
        let standard = location.directory.standardizedFileURL.path
        directory = standard.count > 1 && standard.hasSuffix("/") ? String(standard.dropLast()) : standard
        let real = location.directory.resolvingSymlinksInPath().standardizedFileURL.path
        physical = real == directory ? nil : real
    }

    /// The form a path is stored in: relative to the library folder when it lies inside it,
    /// else the absolute path unchanged. A path already relative is kept.
    func stored(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        for base in [directory] + (physical.map { [$0] } ?? []) {
            let prefix = base == "/" ? "/" : base + "/"
            if standard.hasPrefix(prefix), standard.count > prefix.count {
                return String(standard.dropFirst(prefix.count))
            }
        }
        return path
    }

    /// The absolute path of a stored path: a relative one lies in the library folder.
    func resolved(_ stored: String) -> String {
        stored.hasPrefix("/") ? stored : directory + "/" + stored
    }

    func stored(_ file: ArchivedFile) -> ArchivedFile {
        ArchivedFile(kind: file.kind, page: file.page, path: stored(file.path))
    }

    func resolved(_ file: ArchivedFile) -> ArchivedFile {
        ArchivedFile(kind: file.kind, page: file.page, path: resolved(file.path))
    }

    /// Both forms a file may be recorded under (the stored one first): for a lookup that must
    /// also find a row an older arkivator wrote.
    func lookupForms(_ path: String) -> [String] {
        let relative = stored(path)
        return relative == path ? [path] : [relative, resolved(relative)]
    }
}
