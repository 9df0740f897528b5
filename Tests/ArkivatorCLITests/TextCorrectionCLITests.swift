import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// A letter read by real OCR, one word of its text corrected with `arkivator edit --text-file`:
/// search, the `.docx` (read by `scripts/test/read_docx.py`) and `pdftotext` of the PDF hold the
/// new word and not the old; `show` lists the versions; `edit --ocr-text` brings the OCR's
/// reading back everywhere.
@Suite(.serialized) struct TextCorrectionCLITests {
    static func letterImage() throws -> [UInt8] {
        let pdf = PDFMaker.digital([[
            "Helse Vestvik HF", "",
            "Innkalling til kontroll", "",
            "Pasient: Kari Nordmann",
            "Du har time hos legen 14. oktober 2025.",
            "Ta med briller og legeliste.",
            "Med vennlig hilsen",
        ]])
        return try EncodedPages.inspect(pdf).decode(page: 0).grayscale().pngData()
    }

    /// The `.docx` body (python-docx) and `pdftotext` of the PDF.
    static func copies(_ library: URL, _ id: String) throws -> (docx: String, pdf: String) {
        let shown = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: library)) as? [String: Any])
        let files = try #require(shown["files"] as? [[String: Any]])
        let docx = try #require(files.first { $0["kind"] as? String == "docx" }?["path"] as? String)
        let pdf = try #require(files.first { $0["kind"] as? String == "pdf" }?["path"] as? String)
        let read = try OutsideTool.run("python3", [Fixtures.root.appendingPathComponent("scripts/test/read_docx.py").path, docx])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        let body = ((object["paragraphs"] as? [String]) ?? []).dropFirst().joined(separator: "\n")
        return (body, try OutsideTool.run("pdftotext", ["-enc", "UTF-8", pdf, "-"]).stdout)
    }

    static func found(_ library: URL, _ word: String) throws -> [String] {
        let result = try #require(try CLI.json(try CLI.run(["search", word, "--json"], library: library)) as? [String: Any])
        return ((result["hits"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    @Test func aCorrectedWordReachesSearchTheDocxAndThePDFAndTheOCRReadingComesBack() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let scan = dir.appendingPathComponent("brev.png")
            try Data(try Self.letterImage()).write(to: scan)
            #expect(try CLI.run(["ingest", scan.path], library: library).status == 0)
            let id = try #require(try CLI.list(library).first?["id"] as? String)
            let ocr = try CLI.run(["show", id, "--text"], library: library).stdout
            try #require(ocr.contains("briller"), "the OCR read the word: \(ocr)")
            #expect(try Self.found(library, "briller") == [id])

            let file = dir.appendingPathComponent("rettet.txt")
            try Data(ocr.replacingOccurrences(of: "briller", with: "resepter").utf8).write(to: file)
            let edit = try CLI.run(["edit", id, "--text-file", file.path], library: library)
            #expect(edit.status == 0 && edit.stdout.contains("PDF-en"), "\(edit.stdout) \(edit.stderr)")
            #expect(try Self.found(library, "resepter") == [id])
            #expect(try Self.found(library, "briller").isEmpty)
            let corrected = try Self.copies(library, id)
            #expect(corrected.docx.contains("resepter") && !corrected.docx.contains("briller"), "\(corrected.docx)")
            #expect(corrected.pdf.contains("Ta med resepter og legeliste.") && !corrected.pdf.contains("briller"), "\(corrected.pdf)")
            let show = try CLI.run(["show", id], library: library).stdout
            #expect(show.contains("OCR-lesningen") && show.contains("«briller» → «resepter»"), "\(show)")

            let back = try CLI.run(["edit", id, "--ocr-text"], library: library)
            #expect(back.status == 0, "\(back.stderr)")
            #expect(try Self.found(library, "briller") == [id])
            #expect(try Self.found(library, "resepter").isEmpty)
            let restored = try Self.copies(library, id)
            #expect(restored.docx.contains("briller") && !restored.docx.contains("resepter"))
            #expect(restored.pdf.contains("briller") && !restored.pdf.contains("resepter"))

            let nothing = try CLI.run(["edit", id], library: library)
            #expect(nothing.status != 0 && nothing.stderr.contains("--text-file"), "\(nothing.stderr)")
            let both = try CLI.run(["edit", id, "--ocr-text", "--text-file", file.path], library: library)
            #expect(both.status != 0 && both.stderr.contains("ikke begge"), "\(both.stderr)")
        }
    }
}
