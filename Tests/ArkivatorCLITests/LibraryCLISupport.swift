import ArkivatorLibrary
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLI {
    /// `list --json` (or with more arguments) as objects.
    static func list(_ library: URL, _ arguments: [String] = []) throws -> [[String: Any]] {
        let output = try CLI.run(["list", "--json", "--limit", "1000"] + arguments, library: library)
        #expect(output.status == 0, "list: \(output.stderr)")
        return try #require(try CLI.json(output) as? [[String: Any]])
    }
}

/// Test documents that are not in the fixtures' own set of SHA-256s.
enum LibraryInputs {
    /// Six documents (seven pages) in a new folder `dir/inn`: four fixtures and two copies with a
    /// few bytes appended after the image's end marker (decoders ignore them; the SHA-256 differs).
    static func sixDocuments(in dir: URL) throws -> URL {
        let folder = dir.appendingPathComponent("inn")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["clean.png", "photo.jpg", "skew.jpg", "twopage.tif"] {
            try FileManager.default.copyItem(at: Fixtures.url(name), to: folder.appendingPathComponent(name))
        }
        for (name, copy) in [("clean.png", "clean-kopi.png"), ("photo.jpg", "photo-kopi.jpg")] {
            var bytes = try Data(contentsOf: Fixtures.url(name))
            bytes.append(contentsOf: (0..<7).map { _ in UInt8.random(in: 0...255) })
            try bytes.write(to: folder.appendingPathComponent(copy))
        }
        return folder
    }
}

/// What the library database and the archive folder hold, read directly.
struct ArchiveState {
    /// Paths in `document_files`.
    var recorded: Set<String>
    var documents: Int
    var intents: Int
    /// Plain files under `<library>/Arkiv`, temporaries left out.
    var files: Set<String>
    /// `.arkivator-….tmp` files under `<library>/Arkiv`.
    var temporaries: [String]
    /// Any other hidden file under `<library>/Arkiv`.
    var otherHidden: [String]

    var missing: Set<String> { recorded.subtracting(files) }
    var orphans: Set<String> { files.subtracting(recorded) }

    static func read(library: URL) throws -> ArchiveState {
        let database = try Database(url: library.appendingPathComponent(Database.fileName))
        // A stored path is relative to the library folder, or absolute for a file outside it.
        let recorded = Set(try database.rows("SELECT path FROM document_files").compactMap { $0[0].string }
            .map { ($0.hasPrefix("/") ? URL(fileURLWithPath: $0) : library.appendingPathComponent($0)).standardizedFileURL.path })
        let documents = try database.firstRow("SELECT count(*) FROM documents")?[0].int ?? -1
        let intents = try database.firstRow("SELECT count(*) FROM filing_intents")?[0].int ?? -1
        var files: Set<String> = [], temporaries: [String] = [], hidden: [String] = []
        let archive = library.appendingPathComponent("Arkiv").standardizedFileURL
        if let walker = FileManager.default.enumerator(atPath: archive.path) {
            for case let relative as String in walker {
                let path = archive.appendingPathComponent(relative).path
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                let name = URL(fileURLWithPath: relative).lastPathComponent
                if name.hasPrefix(".arkivator-") && name.hasSuffix(".tmp") {
                    temporaries.append(relative)
                } else if name.hasPrefix(".") {
                    hidden.append(relative)
                    files.insert(path)
                } else {
                    files.insert(path)
                }
            }
        }
        return ArchiveState(recorded: recorded, documents: documents, intents: intents, files: files,
                            temporaries: temporaries.sorted(), otherHidden: hidden.sorted())
    }
}

/// The CLI tests' own uses of outside programs (``OutsideTool`` runs them).
extension OutsideTool {
    /// Every piece of text python-docx (via `scripts/test/read_docx.py`) finds in a .docx, joined.
    static func docxText(_ url: URL) throws -> String {
        let result = try run("python3", [Fixtures.root.appendingPathComponent("scripts/test/read_docx.py").path, url.path])
        #expect(result.status == 0, "read_docx.py failed on \(url.lastPathComponent)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let paragraphs = (object["paragraphs"] as? [String]) ?? []
        let custom = ((object["custom"] as? [String: Any]) ?? [:]).values.map { "\($0)" }
        return (paragraphs + custom + [object["header"] as? String ?? "", object["footer"] as? String ?? ""])
            .joined(separator: "\n")
    }
}
