import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// Letters made on a computer (saved from a health portal or an office program): their own
/// text is read instead of OCR and the PDF is kept as it came; a scan whose text layer another
/// program guessed is read again by OCR.
@Suite(.serialized) struct DigitalPDFTests {
    static let letter: [[String]] = [
        ["Helse Vestvik HF", "Avdeling for hudsykdommer", "",
         "Vestvik, 14. oktober 2025", "",
         "Innkalling til poliklinisk time", "",
         "Du har fått time ved hudpoliklinikken tirsdag 4. november 2025 klokka 09:30.",
         "Møt opp i skranken i 2. etasje ti minutter før timen, og ta med liste over medisiner du bruker.", "",
         "Med vennlig hilsen", "Åse Bjørkli", "sekretær"],
        ["Praktiske opplysninger", "",
         "Parkering er mulig i kjelleren under bygg Ø. Gi beskjed om du trenger tolk.",
         "Timen koster egenandel etter gjeldende satser (frikort gjelder), jf. § 3-2 og rom 1-2."],
    ]

    /// The text the layer should give: lines joined by newlines (an empty line is a paragraph
    /// break), pages by a form feed.
    static var letterText: String { letter.map { $0.joined(separator: "\n") }.joined(separator: "\u{0C}") }

    @Test func aDigitalPDFIsFiledWithItsOwnTextAndNoOCR() throws {
        try withTemporaryDirectory { dir in
            let bytes = PDFMaker.digital(Self.letter)
            let pdf = dir.appendingPathComponent("innkalling.pdf")
            try Data(bytes).write(to: pdf)
            let output = try CLI.run(["ingest", "--json", "--library", dir.appendingPathComponent("bibliotek").path, pdf.path])
            #expect(output.status == 0, "\(output.stderr)")
            let record = try #require(try CLI.records(output).first)
            #expect(record["pages"] as? Int == 2)
            #expect(record["text"] as? String == Self.letterText)
            #expect(record["ocrConfidence"] as? Double == 1)
            #expect((record["lowConfidenceWords"] as? [Any])?.isEmpty == true)
            let timings = try #require(record["timings"] as? [String: Double])
            #expect(timings["ocr"] == 0 && timings["cleanup"] == 0, "\(timings)")
            let reports = try #require(record["pageReports"] as? [[String: Any]])
            #expect(reports.map { $0["textLayer"] as? Bool } == [true, true])
            #expect(record["docType"] as? String == "innkalling")
            #expect(record["documentDate"] as? String == "2025-10-14")
            let files = try #require(record["files"] as? [String: Any])
            #expect((files["images"] as? [String])?.isEmpty == true, "no page is drawn")
            let archived = try #require(files["pdf"] as? String)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: archived))) == bytes, "the PDF is kept as it came")
        }
    }

    @Test func redactingMakesTheArchivePDFFromPagesWithTheNumberMasked() throws {
        try withTemporaryDirectory { dir in
            var pages = Self.letter
            pages[0].insert(contentsOf: ["Pasient: Ola Vestvik, fødselsnummer 17097243859", ""], at: 5)
            let bytes = PDFMaker.digital(pages)
            let pdf = dir.appendingPathComponent("innkalling.pdf")
            try Data(bytes).write(to: pdf)
            let output = try CLI.run(["ingest", "--json", "--redact", "--library", dir.appendingPathComponent("bibliotek").path,
                                      pdf.path])
            #expect(output.status == 0, "\(output.stderr)")
            let record = try #require(try CLI.records(output).first)
            let text = try #require(record["text"] as? String)
            #expect(!text.contains("17097243859") && text.contains("170972 •••••"))
            let files = try #require(record["files"] as? [String: Any])
            #expect((files["images"] as? [String])?.count == 2, "pages drawn for the archive PDF")
            let archived = try #require(files["pdf"] as? String)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: archived))) != bytes)
            if OutsideTool.which("pdftotext") != nil {
                let layer = try OutsideTool.run("pdftotext", ["-enc", "UTF-8", archived, "-"])
                #expect(layer.status == 0 && !layer.stdout.contains("43859") && layer.stdout.contains("Innkalling"))
            }
        }
    }

    @Test func aScanWithAPoorTextLayerAndAMixedPDFAreReadPageByPage() throws {
        try withTemporaryDirectory { dir in
            let page = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first).grayscale()
            let scan = (try page.jpegData(quality: 85), page.width, page.height)
            let guessed = ["Tlie qulck brovvn f0x", "jurnps ovcr 1he", "lazv d0g"]
            let poor = PDFMaker.make([PDFMaker.Page(image: scan, lines: guessed, invisible: true)])
            let mixed = PDFMaker.make([PDFMaker.Page(lines: Self.letter[0]), PDFMaker.Page(image: scan)])
            let poorURL = dir.appendingPathComponent("skann-med-tekst.pdf"), mixedURL = dir.appendingPathComponent("blandet.pdf")
            try Data(poor).write(to: poorURL)
            try Data(mixed).write(to: mixedURL)
            let output = try CLI.run(["ingest", "--json", "--library", dir.appendingPathComponent("bibliotek").path,
                                      poorURL.path, mixedURL.path])
            #expect(output.status == 0, "\(output.stderr)")
            let records = try CLI.records(output)
            #expect(records.count == 2)
            let truth = try Fixtures.text("clean.txt")

            let scanned = try #require(records.first)
            let scannedText = scanned["text"] as? String ?? ""
            #expect(characterErrorRate(truth: truth, predicted: scannedText) < 0.06)
            #expect(!scannedText.contains("brovvn"))
            #expect((scanned["pageReports"] as? [[String: Any]])?.first?["textLayer"] == nil)

            let both = try #require(records.last)
            let texts = (both["text"] as? String ?? "").components(separatedBy: "\u{0C}")
            #expect(texts.first == Self.letter[0].joined(separator: "\n"))
            #expect(characterErrorRate(truth: truth, predicted: texts.last ?? "") < 0.06)
            #expect((both["pageReports"] as? [[String: Any]])?.map { $0["textLayer"] as? Bool } == [true, nil])
            let files = try #require(both["files"] as? [String: Any])
            #expect((files["images"] as? [String])?.count == 2)
        }
    }
}
