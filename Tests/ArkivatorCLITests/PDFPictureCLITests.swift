import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// A letter made on a computer with a scanned paragraph pasted into it: the paragraph is read
/// by OCR and its text stands between the letter's own lines, where it stands on the page, in
/// the record, the search index and the .docx.
@Suite(.serialized) struct PDFPictureCLITests {
    static let above = ["Helse Vestvik HF", "Avdeling for hudsykdommer", "",
                        "Vestvik, 14. oktober 2025", "",
                        "Vi har mottatt henvisningen fra fastlegen din, som lyder slik:"]
    static let below = ["Du får time ved hudpoliklinikken tirsdag 4. november 2025 klokka 09:30.", "",
                        "Med vennlig hilsen", "Åse Bjørkli"]

    /// The page: the lines above, then (from 180 pt down) a picture of the first paragraph of
    /// the clean test letter, 1980 × 340 pixels at 300 DPI (82 pt high), then the lines below,
    /// from 282 pt down (lines are 14 pt apart from 72 pt).
    static func letter() throws -> (pdf: [UInt8], paragraph: String) {
        let page = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first).grayscale()
        let paragraph = try page.cropped(x: 250, y: 1300, width: 1980, height: 340)
        let picture = PDFMaker.Picture(jpeg: try paragraph.jpegData(quality: 85), width: 1980, height: 340, left: 60, top: 180)
        let gap = Array(repeating: "", count: 15 - above.count)
        let pdf = PDFMaker.make([PDFMaker.Page(lines: above + gap + below, pictures: [picture])])
        // The paragraph's five lines in the clean letter's text.
        let truth = try Fixtures.text("clean.txt").split(separator: "\n").map(String.init)
        let start = try #require(truth.firstIndex { $0.hasPrefix("Jeg henviser") })
        return (pdf, truth[start..<(start + 5)].joined(separator: "\n"))
    }

    @Test func aPicturedParagraphIsReadBetweenTheLettersOwnLines() throws {
        try withTemporaryDirectory { dir in
            let (bytes, paragraph) = try Self.letter()
            let pdf = dir.appendingPathComponent("svar-med-henvisning.pdf")
            try Data(bytes).write(to: pdf)
            let library = dir.appendingPathComponent("bibliotek")
            let output = try CLI.run(["ingest", "--json", "--library", library.path, pdf.path])
            #expect(output.status == 0, "\(output.stderr)")
            let record = try #require(try CLI.records(output).first)
            let text = try #require(record["text"] as? String)
            let top = Self.above.joined(separator: "\n") + "\n\n", bottom = "\n\n" + Self.below.joined(separator: "\n")
            #expect(text.hasPrefix(top), "\(text)")
            #expect(text.hasSuffix(bottom), "\(text)")
            if text.hasPrefix(top), text.hasSuffix(bottom), text.count > top.count + bottom.count {
                let middle = String(text.dropFirst(top.count).dropLast(bottom.count))
                #expect(characterErrorRate(truth: paragraph, predicted: middle) < 0.05, "\(middle)")
            }

            let report = try #require((record["pageReports"] as? [[String: Any]])?.first)
            #expect(report["textLayer"] as? Bool == true)
            #expect(report["picturesRead"] as? Int == 1)
            #expect(report["source"] as? String == "text layer + OCR of 1 picture")
            // The layer's words count as certain, the picture's with their OCR confidence.
            let confidence = try #require(record["ocrConfidence"] as? Double)
            #expect(confidence > 0.85 && confidence < 1, "\(confidence)")
            let files = try #require(record["files"] as? [String: Any])
            #expect((files["images"] as? [String])?.isEmpty == true, "the PDF is kept as it came, no page image written")

            let docx = try OutsideTool.docxText(URL(fileURLWithPath: try #require(files["docx"] as? String)))
            #expect(docx.contains("Dermatoskopi") && docx.contains("tirsdag 4. november"))
            let search = try CLI.run(["search", "--json", "nevus"], library: library)
            #expect(search.status == 0, "\(search.stderr)")
            let found = try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any]
            #expect(found?["total"] as? Int == 1, "\(search.stdout)")
        }
    }
}
