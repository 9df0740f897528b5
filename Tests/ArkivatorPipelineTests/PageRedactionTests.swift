import ArkivatorCore
import ArkivatorImaging
import ArkivatorOCR
@testable import ArkivatorPipeline
import Testing

/// Which words of a reading make up a fødselsnummer, however OCR split it, and the JPEG marker
/// `show` reads. (The boxes on real pages, read by Tesseract, are checked through the command
/// line in `NumberRedactionCLITests`.)
@Suite struct PageRedactionTests {
    /// 26 January 1987, individual 044, the rule before 2032.
    static let number: String = {
        let nine = [2, 6, 0, 1, 8, 7, 0, 4, 4]
        guard let (k1, k2) = Fodselsnummer.controlDigits(nine) else { return "" }
        return (nine + [k1, k2]).map(String.init).joined()
    }()

    /// A reading of `lines`, words 300 px apart, lines 60 px apart.
    static func reading(_ lines: [[String]]) -> OCRPage {
        OCRPage(textLayer: PDFTextLayer(lines: lines.enumerated().map { row, words in
            words.enumerated().map { column, word in PDFTextLayer.Word(text: word, box: [100 + column * 300, 100 + row * 60, 250, 40]) }
        }, imageCoverage: 0))
    }

    @Test func theNumbersWordsAreFoundHoweverTheyAreSplit() throws {
        let n = Self.number
        let cases: [([String], [String])] = [
            (["Fnr:", n], [n]),
            (["Fnr:", String(n.prefix(6)), String(n.suffix(5))], [String(n.prefix(6)), String(n.suffix(5))]),
            (["Fnr:", String(n.prefix(4)), String(n.dropFirst(4))], [String(n.prefix(4)), String(n.dropFirst(4))]),
            (["Fnr:", String(n.prefix(6)) + "-" + String(n.suffix(5)) + "."], [String(n.prefix(6)) + "-" + String(n.suffix(5)) + "."]),
        ]
        for (words, expected) in cases {
            let page = Self.reading([["Pasient", "Kari", "Nordmann"], words, ["Med", "vennlig", "hilsen"]])
            let marked = PageRedaction.numberWords(in: page)
            #expect(marked.map { page.words[$0].text } == expected, "\(words)")
            let lines = PageRedaction.redactedLines(page, marked: marked)
            #expect(lines.allSatisfy { !$0.text.filter(\.isNumber).contains(n.suffix(5)) }, "\(lines)")
            #expect(PageRedaction.boxes(page, marked: marked).count == expected.count)
        }
    }

    @Test func otherNumbersStay() {
        let n = Self.number
        let wrong = String(n.dropLast()) + String(((n.last?.wholeNumberValue ?? 0) + 1) % 10)
        let page = Self.reading([["Pasient", "Kari", "Nordmann"], ["Tlf.", "22", "33", "44", "55", "Ref.", wrong],
                                 ["Fnr:", String(wrong.prefix(6))], [String(wrong.suffix(5)), "Med", "vennlig", "hilsen"]])
        #expect(PageRedaction.numberWords(in: page).isEmpty)
        #expect(PageRedaction.numberWords(in: page, known: [n]).isEmpty)
    }

    /// A number broken across a line break is the detector's: both parts are boxed, and each line
    /// of the PDF's text (masked one by one) hides its digits.
    @Test func aNumberOnTwoLinesIsFound() {
        let n = Self.number
        for split in [6, 7, 3] {
            let page = Self.reading([["Pasient", "Kari", "Nordmann"], ["Fnr:", String(n.prefix(split))],
                                     [String(n.dropFirst(split)), "Med", "vennlig", "hilsen"]])
            let marked = PageRedaction.numberWords(in: page)
            #expect(marked.map { page.words[$0].text } == [String(n.prefix(split)), String(n.dropFirst(split))], "\(split)")
            let lines = PageRedaction.redactedLines(page, marked: marked)
            let digits = lines.map { $0.text.filter(\.isNumber) }.joined()
            #expect(!digits.contains(n.suffix(5)) && !digits.contains(n.prefix(6)), "\(lines)")
            #expect(lines.contains { $0.text.contains("Nordmann") } && lines.contains { $0.text.contains("vennlig") })
        }
    }

    @Test func theMarkerIsWrittenOnceAndTheJPEGStillReads() throws {
        let image = try Image(gray: [UInt8](repeating: 200, count: 64 * 48), width: 64, height: 48)
        let jpeg = try image.jpegData()
        #expect(!PageRedaction.hasMarker(jpeg))
        let boxed = try PageRedaction.boxedJPEG(image, boxes: [[10, 10, 20, 10]])
        #expect(PageRedaction.hasMarker(boxed))
        #expect(PageRedaction.withMarker(boxed) == boxed)
        let back = try #require(try Image.decodePages(boxed).first)
        let pixels = try back.grayBytes()
        #expect(pixels[15 * 64 + 20] < 40, "the box is black")
        #expect(pixels[40 * 64 + 50] > 160, "the rest is as it was")
        #expect(PageRedaction.hasMarker(PageRedaction.withMarker(jpeg)))
    }
}
