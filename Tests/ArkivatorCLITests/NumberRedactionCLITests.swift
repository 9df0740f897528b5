import ArkivatorCore
import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// A letter carrying every kind of fødselsnummer (ordinary, D, H, synthetic, D with synthetic,
/// and one whose first control digit follows the rule from 2032), drawn at 300 DPI and filed
/// through real OCR, with one number in its file name: `show` says where the numbers are,
/// `export` masks them, and after `redact` none is left in the database file's bytes, the
/// `.docx`, the PDF's text, a file name, a printed line or the export, and the page image has a
/// box where each was (reading it again finds none).
@Suite(.serialized) struct NumberRedactionCLITests {
    /// The first number for `ddmmyy` from individual `from` whose first control sum leaves `remainder`.
    static func number(_ ddmmyy: String, from individual: Int = 40, remainder: Int = 0) -> String {
        Fodselsnummer.first(bornOn: ddmmyy, from: individual, remainder: remainder) ?? ""
    }

    /// Ordinary, D, H, synthetic, D with synthetic, the rule from 2032.
    static let numbers = [number("260187"), number("521178"), number("034590"), number("128263"),
                          number("678105"), number("150395", remainder: 2)]

    static func spaced(_ n: String) -> String { n.prefix(6) + " " + n.suffix(5) }

    /// Fails for every number `text` holds, as 11 digits or `DDMMYY NNNNN`.
    static func expectNone(in text: String, _ label: String) {
        for n in numbers {
            #expect(!text.contains(n) && !text.contains(spaced(n)), "\(label) holds \(n)")
        }
    }

    /// The letter as a scanner gives it: a gray PNG at 300 DPI, drawn from a PDF by poppler.
    static func letterImage() throws -> [UInt8] {
        let n = numbers
        let pdf = PDFMaker.digital([[
            "Helse Vestvik HF, Medisinsk poliklinikk", "",
            "Innkalling til kontroll", "",
            "Pasient: Kari Nordmann, fødselsnummer \(n[0])",
            "D-nummer: \(n[1])",
            "Hjelpenummer: \(spaced(n[2]))",
            "Testperson: \(n[3])",
            "Testperson med D-nummer: \(n[4])",
            "Nytt nummer: \(n[5])", "",
            "Du har time på poliklinikken 14. oktober 2025.",
            "Med vennlig hilsen",
        ]])
        let page = try EncodedPages.inspect(pdf).decode(page: 0)
        return try page.grayscale().pngData()
    }

    func databaseFiles(_ library: URL) -> [URL] {
        ["arkivator.sqlite", "arkivator.sqlite-wal", "arkivator.sqlite-journal"].map { library.appendingPathComponent($0) }
    }

    /// The bytes of `files` as Latin-1 (every byte one character: a `strings`-like scan).
    func bytes(_ files: [URL]) throws -> String {
        try files.filter { FileManager.default.fileExists(atPath: $0.path) }
            .map { String(decoding: try Data(contentsOf: $0), as: Unicode.ASCII.self) }.joined(separator: "\n")
    }

    func archiveFiles(_ library: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? [])
    }

    func exported(_ library: URL, to folder: URL, _ extra: [String] = []) throws -> (line: String, json: String, docx: String) {
        let export = try CLI.run(["export", folder.path] + extra, library: library)
        #expect(export.status == 0, "\(export.stderr)")
        let json = try String(contentsOf: folder.appendingPathComponent("arkivator-eksport.json"), encoding: .utf8)
        let docx = try archiveFiles(folder).filter { $0.pathExtension == "docx" }.map { try OutsideTool.docxText($0) }.joined()
        return (export.stdout, json, docx)
    }

    @Test func everyKindIsFoundAndRedactReachesEveryCopy() throws {
        #expect(Set(Self.numbers.map { $0.count }) == [11])
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let scan = dir.appendingPathComponent("brev \(Self.numbers[0]).png")
            try Data(try Self.letterImage()).write(to: scan)
            let ingest = try CLI.run(["ingest", scan.path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            Self.expectNone(in: ingest.stdout + ingest.stderr, "ingest's lines")
            let listed = try CLI.list(library)
            let id = try #require(listed.first?["id"] as? String)
            let shown = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: library)) as? [String: Any])
            #expect(shown["fodselsnummerCount"] as? Int == Self.numbers.count, "every kind is found: \(shown["text"] ?? "")")
            Self.expectNone(in: try bytes(databaseFiles(library)), "the database after ingest")

            let show = try CLI.run(["show", id], library: library)
            #expect(show.stdout.contains("i teksten og .docx-filen") && show.stdout.contains("i PDF-teksten")
                    && show.stdout.contains("i sidebildet"), "\(show.stdout)")

            // export masks unless asked, and says so.
            let masked = try exported(library, to: dir.appendingPathComponent("eksport"))
            #expect(masked.line.contains("skjult") && masked.line.contains("--with-numbers"), "\(masked.line)")
            Self.expectNone(in: masked.json + masked.docx, "export")
            #expect(masked.json.contains(String(Self.numbers[0].prefix(6)) + " •••••"))
            let revealed = try exported(library, to: dir.appendingPathComponent("eksport-med"), ["--with-numbers"])
            #expect(revealed.json.contains(Self.numbers[0]) && revealed.line.contains("klartekst"), "\(revealed.line)")

            // redact: every copy.
            let redact = try CLI.run(["redact", id], library: library)
            #expect(redact.status == 0 && redact.stdout.contains("Skjulte \(Self.numbers.count) fødselsnummer"),
                    "\(redact.stdout) \(redact.stderr)")
            Self.expectNone(in: redact.stdout + redact.stderr, "redact's lines")
            let document = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: library)) as? [String: Any])
            Self.expectNone(in: document["text"] as? String ?? "", "show --json")
            #expect(document["fodselsnummerCount"] as? Int == 0)
            Self.expectNone(in: try bytes(databaseFiles(library)), "the database file's bytes")
            let files = archiveFiles(library)
            Self.expectNone(in: files.map(\.lastPathComponent).joined(separator: "\n"), "file names")
            Self.expectNone(in: try files.filter { $0.pathExtension == "docx" }.map { try OutsideTool.docxText($0) }.joined(), ".docx")
            let pdf = try #require(files.first { $0.pathExtension == "pdf" })
            let layer = try #require(PDFTextLayer.pageTexts(ofPDF: [UInt8](try Data(contentsOf: pdf)))).joined(separator: "\n")
            #expect(layer.contains("Nordmann"), "the PDF keeps its text: \(layer)")
            Self.expectNone(in: layer, "the PDF's text")
            if OutsideTool.which("pdftotext") != nil {
                Self.expectNone(in: try OutsideTool.run("pdftotext", ["-enc", "UTF-8", pdf.path, "-"]).stdout, "pdftotext")
            }
            #expect(!(try CLI.run(["show", id], library: library).stdout.contains("står fortsatt")))
            let after = try exported(library, to: dir.appendingPathComponent("eksport-etter"), ["--with-numbers"])
            Self.expectNone(in: after.json + after.docx, "export after redact")

            // The page image: reading it again finds the letter, and no number.
            let image = try #require(files.first { $0.pathExtension == "jpeg" || $0.pathExtension == "jpg" })
            let copy = dir.appendingPathComponent("side.jpg")
            try FileManager.default.copyItem(at: image, to: copy)
            let again = try CLI.run(["ingest", "--json", "--no-archive", copy.path], library: dir.appendingPathComponent("andre"))
            let record = try #require(try CLI.records(again).first)
            let text = record["text"] as? String ?? ""
            #expect(text.contains("Nordmann") && text.contains("poliklinikken"), "\(text)")
            Self.expectNone(in: text, "the page image read again")
        }
    }
}
