import Foundation
import TestSupport
import Testing

/// The fødselsnummer in `clean.png` (a household member's own letter): never in the database
/// files or a backup; shown by `show --text` until `redact`; gone from text, .docx, PDF text and
/// page image after `redact`, and everywhere with `ingest --redact`.
@Suite(.serialized) struct LibraryPrivacyCLITests {
    let fnr: String
    var spaced: String { fnr.prefix(6) + " " + fnr.suffix(5) }
    var masked: String { fnr.prefix(6) + " •••••" }

    init() throws {
        fnr = try #require(try Fixtures.json("clean.json")["fnr"] as? String)
    }

    /// The raw bytes of `files` hold neither the 11 digits nor the `DDMMYY NNNNN` form.
    func expectNoNumber(in files: [URL], _ label: String) throws {
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            let bytes = try Data(contentsOf: file)
            // The -wal is empty once `redact` has copied it into the database file.
            #expect(bytes.count > 0 || file.lastPathComponent.hasSuffix("-wal"))
            #expect(bytes.range(of: Data(fnr.utf8)) == nil, "\(label): \(file.lastPathComponent) holds the number")
            #expect(bytes.range(of: Data(spaced.utf8)) == nil, "\(label): \(file.lastPathComponent) holds the spaced number")
            // UTF-16 too (SQLite can store text so).
            #expect(bytes.range(of: fnr.data(using: .utf16LittleEndian)!) == nil, "\(label): \(file.lastPathComponent)")
        }
    }

    func databaseFiles(_ library: URL) -> [URL] {
        ["arkivator.sqlite", "arkivator.sqlite-wal", "arkivator.sqlite-journal"].map { library.appendingPathComponent($0) }
    }

    func onlyDocument(_ library: URL) throws -> (id: String, files: [String: String]) {
        let listed = try CLI.list(library)
        #expect(listed.count == 1)
        let id = try #require(listed.first?["id"] as? String)
        let shown = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: library)) as? [String: Any])
        var files: [String: String] = [:]
        for file in (shown["files"] as? [[String: Any]]) ?? [] {
            if let kind = file["kind"] as? String, let path = file["path"] as? String, files[kind] == nil { files[kind] = path }
        }
        #expect(Set(files.keys) == ["docx", "image", "pdf"], "\(files)")
        return (id, files)
    }

    func pdfText(_ path: String?) throws -> String? {
        guard let path, OutsideTool.which("pdftotext") != nil else {
            print("[LibraryPrivacyCLITests] pdftotext is not installed: the PDF text is not checked")
            return nil
        }
        let result = try OutsideTool.run("pdftotext", ["-enc", "UTF-8", path, "-"])
        #expect(result.status == 0)
        return result.stdout
    }

    @Test func theNumberStaysOutOfTheDatabaseAndRedactRemovesIt() throws {
        let truth = try Fixtures.text("clean.txt")
        let name = try #require(truth.split(separator: "\n").first { $0.hasPrefix("Pasient:") }
            .map { $0.dropFirst("Pasient:".count).split(separator: ",")[0].trimmingCharacters(in: .whitespaces) })
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let add = try CLI.run(["family", "add", name, "--fnr", fnr], library: library)
            #expect(add.status == 0, "\(add.stderr)")
            let ingest = try CLI.run(["ingest", Fixtures.url("clean.png").path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            #expect(!(ingest.stdout + ingest.stderr).contains(fnr))
            let (id, files) = try onlyDocument(library)
            #expect(files["docx"]?.contains("/Arkiv/\(name)/Dokumenter/") == true, "filed under the member: \(files)")

            // The database, its journal and a backup: never the number, in any form.
            try expectNoNumber(in: databaseFiles(library), "after ingest")
            let backup = dir.appendingPathComponent("kopi.sqlite")
            #expect(try CLI.run(["backup", backup.path], library: library).status == 0)
            try expectNoNumber(in: [backup], "backup")

            // show says where the number is; show --text shows it: it is the user's own letter.
            let show = try CLI.run(["show", id], library: library)
            #expect(show.status == 0)
            #expect(show.stdout.contains("står fortsatt i teksten og .docx-filen, i PDF-teksten, i sidebildet")
                    && show.stdout.contains("arkivator redact \(id)"), "\(show.stdout)")
            let text = try CLI.run(["show", id, "--text"], library: library)
            #expect(text.stdout.contains(fnr), "show --text shows the letter as written")
            #expect(text.stdout.contains("Pasient: \(name)"))
            let json = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: library)) as? [String: Any])
            #expect(json["fodselsnummerCount"] as? Int == 1)
            // Search and list never print it.
            let search = try CLI.run(["search", "føflekk", "--json"], library: library)
            #expect(search.status == 0 && search.stdout.contains(id) && !search.stdout.contains(fnr))
            #expect(!(try CLI.run(["list"], library: library).stdout.contains(fnr)))
            #expect(try OutsideTool.docxText(URL(fileURLWithPath: try #require(files["docx"]))).contains(fnr),
                    "before redact the .docx holds the letter as written")

            // redact: text, index, .docx, PDF text and page image.
            let redact = try CLI.run(["redact", id], library: library)
            #expect(redact.status == 0 && redact.stdout.contains("Skjulte 1 fødselsnummer"), "\(redact.stdout) \(redact.stderr)")
            let after = try CLI.run(["show", id, "--text"], library: library)
            #expect(!after.stdout.contains(fnr) && !after.stdout.contains(spaced))
            #expect(after.stdout.contains(masked), "\(after.stdout)")
            #expect(!(try CLI.run(["show", id], library: library).stdout.contains("står fortsatt")))
            let docx = try OutsideTool.docxText(URL(fileURLWithPath: try #require(files["docx"])))
            #expect(!docx.contains(fnr) && !docx.contains(spaced), "the .docx still holds the number")
            #expect(docx.contains(masked))
            #expect(try CLI.run(["search", String(fnr)], library: library).stdout.contains("Ingen treff"))
            try expectNoNumber(in: databaseFiles(library), "after redact")
            let second = dir.appendingPathComponent("kopi-2.sqlite")
            #expect(try CLI.run(["backup", second.path], library: library).status == 0)
            try expectNoNumber(in: [second], "backup after redact")
            if let pdf = try pdfText(files["pdf"]) { #expect(!pdf.filter(\.isNumber).contains(fnr) && !pdf.contains(spaced)) }
            // A second redact finds nothing.
            #expect(try CLI.run(["redact", id], library: library).stdout.contains("Fant ingen fødselsnummer"))
        }
    }

    @Test func ingestRedactHidesTheNumberEverywhere() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let out = dir.appendingPathComponent("sider")
            let ingest = try CLI.run(["ingest", "--redact", "--json", "--out", out.path, Fixtures.url("clean.png").path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            // The page image written with --out is the boxed one, as in the archive.
            let pages = try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil)
            #expect(pages.count == 1 && pages.allSatisfy { (try? Data(contentsOf: $0))?.range(of: Data("fodselsnummer redacted".utf8)) != nil },
                    "\(pages)")
            #expect(!ingest.stdout.contains(fnr) && !ingest.stdout.contains(spaced), "the JSON record holds the number")
            let (id, files) = try onlyDocument(library)

            let text = try CLI.run(["show", id, "--text"], library: library)
            #expect(!text.stdout.contains(fnr) && !text.stdout.contains(spaced))
            #expect(text.stdout.contains(masked), "\(text.stdout)")
            let json = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: library)) as? [String: Any])
            #expect(json["fodselsnummerCount"] as? Int == 0)
            let docx = try OutsideTool.docxText(URL(fileURLWithPath: try #require(files["docx"])))
            #expect(!docx.contains(fnr) && !docx.contains(spaced) && docx.contains(masked))
            let show = try CLI.run(["show", id], library: library).stdout
            #expect(!show.contains("står fortsatt"), "the page image is boxed too: \(show)")
            if let pdf = try pdfText(files["pdf"]) {
                #expect(!pdf.filter(\.isNumber).contains(fnr), "the PDF text holds the number")
                #expect(!pdf.contains(spaced))
                #expect(pdf.contains(String(fnr.prefix(6))), "the date part stays: \(pdf.prefix(400))")
            }
            try expectNoNumber(in: databaseFiles(library), "ingest --redact")
            let backup = dir.appendingPathComponent("kopi.sqlite")
            #expect(try CLI.run(["backup", backup.path], library: library).status == 0)
            try expectNoNumber(in: [backup], "backup")
        }
    }
}
