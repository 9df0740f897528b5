import ArkivatorArchive
import ArkivatorCore
import Foundation

/// Migration 8: every absolute path an older arkivator stored for a file inside the library
/// folder becomes relative to it (``LibraryPaths``) — in `document_files`, in the trash's
/// `trash_origin`, in unfinished `filing_intents` and in the journal's sources (the web app's
/// uploads wait in `<library>/Innboks`).
///
/// A library moved or copied before this version still names its old place. A path that is
/// not inside the library and whose tail from `Arkiv/`, `Papirkurv/` or `Innboks/` names a file that is
/// here is taken to be that file, even when the old place still exists: a copy must use its
/// own files, never the original's. Any other path outside the library (an archive folder of
/// its own, chosen with `--archive`) stays as it is.
enum StoredPathMigration {
    static func run(_ database: Database, _ paths: LibraryPaths) throws {
        let files = try database.rows("SELECT rowid, path FROM document_files WHERE path LIKE '/%'")
        for row in files {
            guard let rowid = row[0].int, let path = row[1].string else { continue }
            let new = relocated(path, paths)
            if new != path {
                // A row whose new form another row already has keeps its old form (never two rows for one file).
                try database.execute("UPDATE OR IGNORE document_files SET path = ? WHERE rowid = ?", [new, rowid])
            }
        }
        let origins = try database.rows("SELECT id, trash_origin FROM documents WHERE trash_origin IS NOT NULL")
        for row in origins {
            guard let id = row[0].int, let json = row[1].string,
                  let list = try? JSONDecoder().decode([ArchivedFile].self, from: Data(json.utf8)) else { continue }
            let moved = list.map { ArchivedFile(kind: $0.kind, page: $0.page, path: relocated($0.path, paths)) }
            guard moved != list else { continue }
            let encoded = String(decoding: try JSONEncoder().encode(moved), as: UTF8.self)
            try database.execute("UPDATE documents SET trash_origin = ? WHERE id = ?", [encoded, id])
        }
        for row in try database.rows("SELECT sha256, source FROM journal") {
            guard let sha = row[0].string, let source = row[1].string else { continue }
            let moved = source.split(separator: "\n", omittingEmptySubsequences: false)
                .map { relocated(String($0), paths) }.joined(separator: "\n")
            if moved != source { try database.execute("UPDATE journal SET source = ? WHERE sha256 = ?", [moved, sha]) }
        }
        for row in try database.rows("SELECT id, action, paths FROM filing_intents") {
            guard let id = row[0].int, let json = row[2].string.map({ Data($0.utf8) }) else { continue }
            var encoded: Data?
            if row[1].string == "file", let list = try? JSONDecoder().decode([String].self, from: json) {
                encoded = try JSONEncoder().encode(list.map { relocated($0, paths) })
            } else if row[1].string == "move", let moves = try? JSONDecoder().decode([[String]].self, from: json) {
                encoded = try JSONEncoder().encode(moves.map { $0.map { relocated($0, paths) } })
            }
            if let encoded {
                try database.execute("UPDATE filing_intents SET paths = ? WHERE id = ?",
                                     [String(decoding: encoded, as: UTF8.self), id])
            }
        }
    }

    /// The stored form of an old absolute path (see the type's summary).
    static func relocated(_ path: String, _ paths: LibraryPaths) -> String {
        let relative = paths.stored(path)
        guard relative == path, path.hasPrefix("/") else { return relative }
        let manager = FileManager.default
        let components = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        for (index, component) in components.enumerated()
        where [LibraryFolder.archive, .trash, .inbox].map(\.rawValue).contains(component) {
            let tail = components[index...].joined(separator: "/")
            if manager.fileExists(atPath: paths.resolved(tail)) { return tail }
        }
        return path
    }
}
