import Foundation
import Synchronization
import TestSupport
import Testing

/// The library commands as a user runs them, on the five sample letters filed for the sample
/// household: search, list, show, edit, delete/restore, a second ingest, export, reindex, erase.
@Suite(.serialized) struct LibraryCLITests {
    /// `search --json`.
    struct SearchJSON: Decodable {
        struct Hit: Decodable {
            var id: String
            var title: String
            var docType: String
            var familyMember: String?
            var documentDate: String
            var snippet: String?
            var file: String?
        }
        var query: String
        var total: Int
        var capped: Bool
        var notes: [String]
        var hits: [Hit]
    }

    /// The sample ids by document type: `innkalling`, `epikrise`, `lab-svar`, and the two PDFs,
    /// `resept` (scanned) and `vedtak` (digital).
    struct Samples {
        let library: URL
        let ids: [String: String]
        var innkalling: String { ids["innkalling"] ?? "?" }
        var epikrise: String { ids["epikrise"] ?? "?" }
        var lab: String { ids["lab-svar"] ?? "?" }
        var resept: String { ids["resept"] ?? "?" }
        var vedtak: String { ids["vedtak"] ?? "?" }
    }

    /// The sample household and `samples/` filed once for this run's tests (five letters, about
    /// twelve seconds of reading), in a folder of its own that is removed when the run ends.
    static let filed: Result<Samples, any Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        filedFolder.withLock { $0 = dir.path }
        atexit { if let path = LibraryCLITests.filedFolder.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) } }
        let library = dir.appendingPathComponent("bibliotek")
        let family = try CLI.run(["family", "import", Fixtures.root.appendingPathComponent("samples/familie.json").path],
                                 library: library)
        guard family.status == 0 else { throw SamplesNotFiled("family import: \(family.stderr)") }
        let ingest = try CLI.run(["ingest", Fixtures.root.appendingPathComponent("samples").path], library: library)
        guard ingest.status == 0 else { throw SamplesNotFiled("ingest: \(ingest.stderr)") }
        let documents = try CLI.list(library)
        let ids = Dictionary(documents.compactMap { d in (d["docType"] as? String).map { ($0, d["id"] as? String ?? "") } },
                             uniquingKeysWith: { a, _ in a })
        guard Set(ids.keys) == ["innkalling", "epikrise", "lab-svar", "resept", "vedtak"] else {
            throw SamplesNotFiled("the samples were filed as \(documents)")
        }
        return Samples(library: library, ids: ids)
    }
    static let filedFolder = Mutex<String?>(nil)
    struct SamplesNotFiled: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A library of its own in `dir` holding the sample household and `samples/` as filed once
    /// for the run (a copy: each test changes its library as it likes).
    func filedSamples(in dir: URL) throws -> Samples {
        let filed = try Self.filed.get()
        let library = dir.appendingPathComponent("bibliotek")
        let copy = try OutsideTool.run("cp", ["-a", filed.library.path, library.path])
        guard copy.status == 0 else { throw SamplesNotFiled("cp: \(copy.stdout)") }
        return Samples(library: library, ids: filed.ids)
    }

    func search(_ arguments: [String], _ library: URL) throws -> SearchJSON {
        let output = try CLI.run(["search", "--json"] + arguments, library: library)
        #expect(output.status == 0, "search \(arguments): \(output.stderr)")
        return try JSONDecoder().decode(SearchJSON.self, from: Data(output.stdout.utf8))
    }

    func ids(_ arguments: [String], _ library: URL) throws -> Set<String> { Set(try search(arguments, library).hits.map(\.id)) }

    @Test func searchFindsEachSampleAndFiltersCombine() throws {
        try withTemporaryDirectory { dir in
            let s = try filedSamples(in: dir)
            // One word of each letter's text finds that letter, with the word marked in the snippet.
            for (word, id) in [("Hemoglobin", s.lab), ("lungebetennelse", s.epikrise), ("hofte", s.innkalling)] {
                let result = try search([word], s.library)
                #expect(result.hits.map(\.id) == [id], "\(word)")
                #expect(result.total == 1 && !result.capped && result.query == word)
                let snippet = try #require(result.hits.first?.snippet, "\(word): no snippet")
                #expect(snippet.lowercased().contains("[\(word.lowercased())]"), "\(word): \(snippet)")
                #expect(!snippet.contains("\u{2}") && !snippet.contains("\u{3}"))
                let plain = try CLI.run(["search", word], library: s.library)
                #expect(plain.status == 0 && plain.stdout.contains("1 treff for «\(word)»"), "\(plain.stdout)")
                #expect(plain.stdout.contains("id \(id)") && plain.stdout.lowercased().contains("[\(word.lowercased())]"))
                #expect(!plain.stdout.contains("\u{1B}"), "no colour when not on a terminal")
            }
            // Another inflection of a word finds the letter.
            #expect(try ids(["innkallingen"], s.library) == [s.innkalling])

            // Filters narrow a word that all three letters hold; together they intersect.
            let all: Set = [s.innkalling, s.epikrise, s.lab]
            #expect(try ids(["pasient"], s.library) == all)
            #expect(try search(["pasient"], s.library).total == 3)
            let cases: [([String], Set<String>)] = [
                (["--person", "Randi"], [s.epikrise]),
                (["--person", "erik haugland"], [s.lab]),
                (["--type", "innkalling"], [s.innkalling]),
                (["--from", "2025-04-01"], [s.epikrise, s.lab]),
                (["--to", "2025-04-03"], [s.epikrise, s.innkalling]),
                (["--from", "2025-04-01", "--to", "2025-05-31"], [s.epikrise]),
                (["--from", "2025-03-12", "--to", "2025-03-12"], [s.innkalling]),
                (["--person", "Erik", "--type", "lab-svar", "--from", "2025-06-01"], [s.lab]),
                (["--person", "Erik", "--type", "epikrise"], []),
                (["--type", "lab-svar", "--to", "2025-06-17"], []),
                (["--institution", "Vestlia"], [s.innkalling]),
            ]
            for (filters, expected) in cases {
                #expect(try ids(["pasient"] + filters, s.library) == expected, "search \(filters)")
                // The letters without the word: only the three with it are checked here.
                let listed = Set(try CLI.list(s.library, filters).compactMap { $0["id"] as? String }).intersection(all)
                #expect(listed == expected, "list \(filters)")
            }
            let none = try CLI.run(["search", "pasient", "--person", "Erik", "--type", "epikrise"], library: s.library)
            #expect(none.status == 0 && none.stdout.contains("Ingen treff"), "\(none.stdout) \(none.stderr)")
            let badType = try CLI.run(["search", "pasient", "--type", "brev"], library: s.library)
            #expect(badType.status != 0 && badType.stderr.contains("dokumenttype"), "\(badType.stderr)")
        }
    }

    @Test func garbageQueriesGetOnePlainLine() throws {
        try withTemporaryDirectory { dir in
            let s = try filedSamples(in: dir)
            let queries = ["\"", "ortopedi AND", "*", "(", ")", "NOT", "-", "AND OR NOT", "\"ortopedi", "hofte NEAR(",
                           "title:x", "^", "{x}", "'", "ortopedi OR", "hofte)", "(((", "x* * *", "🙂", "NEAR(a b, 2)",
                           String(repeating: "a OR ", count: 300)]
            for query in queries {
                for json in [false, true] {
                    let output = try CLI.run(["search", query] + (json ? ["--json"] : []), library: s.library)
                    let errors = output.stderr.split(separator: "\n")
                    if ["\"", "ortopedi AND", "*"].contains(query) {
                        // With --json a note goes into "notes"; an error still goes to stderr.
                        let notes = ((try? CLI.json(output)) as? [String: Any])?["notes"] as? [String] ?? []
                        #expect(errors.count + notes.count == 1, "\(query): one plain line: \(output.stderr) \(notes)")
                    }
                    #expect(output.status == 0 || output.status == 1, "\(query): exit \(output.status)")
                    if output.status == 1 {
                        #expect(errors.count == 1 && output.stdout.isEmpty, "\(query): \(output.stderr)")
                    } else {
                        // A note for each thing not taken literally (a long query can have two).
                        #expect(errors.count <= 3, "\(query): \(output.stderr)")
                        if json { #expect((try? CLI.json(output)) != nil, "\(query): \(output.stdout)") }
                    }
                    for bad in ["SQLite", "sqlite", "fts5", "FTS5", "syntax error", "Fatal", "Error:", "error:", "Swift/", "0x"] {
                        #expect(!output.stderr.contains(bad), "\(query): \(bad) in \(output.stderr)")
                    }
                    #expect(!output.stdout.contains("SQLite") && !output.stdout.contains("fts5"), "\(query): \(output.stdout)")
                    // Norwegian first: the English run says something else.
                    if !json, let line = errors.first {
                        let english = try CLI.run(["search", query], library: s.library, environment: ["LANG": "en_GB.UTF-8"])
                        #expect(english.stderr.split(separator: "\n").first != line, "\(query): not Norwegian: \(line)")
                    }
                }
            }
            // A hit query still works after all that.
            #expect(try ids(["hofte"], s.library) == [s.innkalling])
        }
    }

    @Test func listShowEditDeleteRestoreAndIngestAgain() throws {
        try withTemporaryDirectory { dir in
            let s = try filedSamples(in: dir)
            // Newest letter first.
            let listed = try CLI.list(s.library)
            #expect(listed.compactMap { $0["id"] as? String } == [s.resept, s.lab, s.vedtak, s.epikrise, s.innkalling])
            let dates = listed.compactMap { $0["documentDate"] as? String }
            #expect(dates == dates.sorted(by: >) && dates.count == 5)
            let plain = try CLI.run(["list"], library: s.library)
            #expect(plain.lines.count == 5 && plain.lines[0].hasSuffix(s.resept) && plain.lines[4].hasSuffix(s.innkalling),
                    "\(plain.stdout)")

            // show --text prints the text, the same as show --json holds.
            let text = try CLI.run(["show", s.lab, "--text"], library: s.library)
            #expect(text.status == 0 && text.stdout.contains("Hemoglobin") && text.stdout.contains("Erik Haugland"))
            let shown = try #require(try CLI.json(try CLI.run(["show", s.epikrise, "--json"], library: s.library))
                as? [String: Any])
            let stored = try #require(shown["text"] as? String)
            let twoPages = try CLI.run(["show", s.epikrise, "--text"], library: s.library)
            #expect(twoPages.stdout == stored.replacingOccurrences(of: "\u{0C}", with: "\n\n") + "\n")
            #expect(try CLI.run(["show", String(s.lab.prefix(6))], library: s.library).stdout.contains("Hemoglobin"))
            for unknown in ["ffffffffff", "zz", "not-an-id"] {
                let missing = try CLI.run(["show", unknown], library: s.library)
                #expect(missing.status == 1 && missing.stdout.isEmpty, "\(unknown)")
                #expect(missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("Fant ikke"), "\(missing.stderr)")
            }

            // edit --person moves every file to the new person's folder.
            func files(_ id: String) throws -> [String] {
                let object = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: s.library))
                    as? [String: Any])
                return ((object["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
            }
            let before = try files(s.innkalling)
            #expect(before.count == 3 && before.allSatisfy { $0.contains("/Arkiv/Per Fjellheim/") })
            let edit = try CLI.run(["edit", s.innkalling, "--person", "Erik Haugland"], library: s.library)
            #expect(edit.status == 0, "\(edit.stderr)")
            let after = try files(s.innkalling)
            #expect(after.count == 3)
            for path in after {
                #expect(path.contains("/Arkiv/Erik Haugland/") && FileManager.default.fileExists(atPath: path), "\(path)")
            }
            for path in before { #expect(!FileManager.default.fileExists(atPath: path), "left behind: \(path)") }
            // The scanned prescription is addressed to Erik and names his GP in its letterhead; whom it
            // is filed to is the person rules' business (ClassifierTests), not this test's.
            #expect(Set(try CLI.list(s.library, ["--person", "Erik"]).compactMap { $0["id"] as? String }).subtracting([s.resept])
                    == [s.innkalling, s.lab])
            var state = try ArchiveState.read(library: s.library)
            #expect(state.missing.isEmpty && state.orphans.isEmpty && state.temporaries.isEmpty, "\(state)")

            // delete, the trash, restore.
            let delete = try CLI.run(["delete", s.lab], library: s.library)
            #expect(delete.status == 0 && delete.stdout.contains("restore \(s.lab)"), "\(delete.stdout) \(delete.stderr)")
            #expect(try CLI.list(s.library).compactMap { $0["id"] as? String } == [s.resept, s.vedtak, s.epikrise, s.innkalling])
            #expect(try CLI.list(s.library, ["--trash"]).compactMap { $0["id"] as? String } == [s.lab])
            #expect(try ids(["Hemoglobin"], s.library).isEmpty, "a trashed document is not found")
            let restore = try CLI.run(["restore", s.lab], library: s.library)
            #expect(restore.status == 0, "\(restore.stderr)")
            #expect(try CLI.list(s.library, ["--trash"]).isEmpty)
            #expect(try CLI.list(s.library).count == 5)
            #expect(try ids(["Hemoglobin"], s.library) == [s.lab])
            for path in try files(s.lab) { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
            #expect(try CLI.run(["restore", s.lab], library: s.library).status == 1, "not in the trash any more")

            // The same files again: nothing new.
            let again = try CLI.run(["ingest", Fixtures.root.appendingPathComponent("samples").path], library: s.library)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.lines.filter { $0.hasPrefix("=") && $0.contains("Allerede i biblioteket") }.count == 5, "\(again.stdout)")
            #expect(again.stderr.contains("Alle 5 dokumentene fantes fra før i biblioteket"), "\(again.stderr)")
            #expect(!again.stderr.contains("Leste 0"), "\(again.stderr)")
            state = try ArchiveState.read(library: s.library)
            #expect(state.documents == 5 && state.files.count == state.recorded.count && state.orphans.isEmpty, "\(state)")
        }
    }

    @Test func exportReindexAndErase() throws {
        try withTemporaryDirectory { dir in
            let s = try filedSamples(in: dir)
            // A thumbnail of each letter's first page (the digital PDF's drawn), made as it was filed.
            let thumbnails = try FileManager.default.contentsOfDirectory(atPath: s.library.appendingPathComponent("Miniatyrer").path)
            #expect(thumbnails.filter { $0.hasSuffix(".jpg") }.count == 5, "\(thumbnails)")
            let target = dir.appendingPathComponent("eksport")
            let export = try CLI.run(["export", target.path], library: s.library)
            #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
            let exported = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: target.appendingPathComponent("arkivator-eksport.json"))) as? [[String: Any]])
            #expect(exported.count == 5)
            for document in exported {
                #expect((document["text"] as? String)?.isEmpty == false)
                for file in (document["files"] as? [[String: Any]]) ?? [] {
                    let path = try #require(file["path"] as? String)
                    #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent(path).path), "\(path)")
                }
            }
            #expect(try CLI.run(["export", target.path], library: s.library).status == 1, "the folder must be new or empty")

            let reindex = try CLI.run(["reindex"], library: s.library)
            #expect(reindex.status == 0 && reindex.stdout.contains("Indekserte 5 dokumenter"), "\(reindex.stdout) \(reindex.stderr)")
            #expect(try ids(["lungebetennelse"], s.library) == [s.epikrise])
            #expect(!reindex.stdout.contains("miniatyrbilder"), "every thumbnail was made already")

            // erase without --yes removes nothing.
            func everything() -> [String] {
                (FileManager.default.enumerator(atPath: s.library.path)?.allObjects as? [String] ?? []).sorted()
            }
            let before = everything()
            for arguments in [["erase", "--all"], ["erase"], ["erase", "--yes"]] {
                let refused = try CLI.run(arguments, library: s.library)
                #expect(refused.status == 1 && refused.stderr.contains("--yes"), "\(arguments): \(refused.stderr)")
                #expect(everything() == before)
            }
            #expect(try CLI.list(s.library).count == 5)
            let erase = try CLI.run(["erase", "--all", "--yes"], library: s.library)
            #expect(erase.status == 0, "\(erase.stderr)")
            #expect(erase.stdout.contains("Slettet 5 dokumenter"), "\(erase.stdout)")
            #expect(!FileManager.default.fileExists(atPath: s.library.path))
            // The export is the user's own copy: erase leaves it.
            #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent("arkivator-eksport.json").path))
        }
    }
}
