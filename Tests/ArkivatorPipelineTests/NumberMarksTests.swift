import ArkivatorClassify
import ArkivatorImaging
import ArkivatorLibrary
import ArkivatorOCR
@testable import ArkivatorPipeline
import Testing

/// Where the numbers in doubt stand on the pages: the boxes of the words each one's range
/// overlaps, on the page it stands on (the document's text joins the pages with a form feed).
@Suite struct NumberMarksTests {
    /// A reading of `lines`, words 300 px apart, lines 60 px apart.
    static func reading(_ lines: [[String]]) -> OCRPage {
        OCRPage(textLayer: PDFTextLayer(lines: lines.enumerated().map { row, words in
            words.enumerated().map { column, word in PDFTextLayer.Word(text: word, box: [100 + column * 300, 100 + row * 60, 250, 40]) }
        }, imageCoverage: 0))
    }

    static let first = reading([["Svar", "på", "blodprøver"], ["Hemoglobin", "14,8", "g/dL"]])
    static let second = reading([["Side", "to"], ["Kreatinin", "1O,5", "µmol/L"], ["CRP", "5,,2", "mg/L"]])

    @Test func eachNumberInDoubtGetsTheBoxOfItsWordOnItsPage() throws {
        let text = [Self.first.text, Self.second.text].joined(separator: RecordAssembler.pageSeparator)
        let doubtful = NumberDoubt.doubtfulNumbers(in: text, lowConfidence: [])
        #expect(doubtful.map(\.text) == ["1O,5", "5,,2"], "OCR damage on the second page")
        let marks = try #require(NumberMarks.marks(doubtful, pages: [Self.first, Self.second]))
        #expect(marks.map(\.page) == [2, 2])
        #expect(marks.map(\.box) == [[400, 160, 250, 40], [400, 220, 250, 40]], "the words' own boxes")
        #expect(marks.map(\.text) == ["1O,5", "5,,2"])
        for mark in marks {
            let scalars = Array(text.unicodeScalars)[mark.start..<(mark.start + mark.length)]
            #expect(String(String.UnicodeScalarView(scalars)) == mark.text, "the place in the document's text")
        }
        #expect(NumberMarks.marks([], pages: [Self.first]) == nil)
    }

    @Test func wordsOfOneLineShareABoxAndAnotherLineGetsItsOwn() {
        #expect(NumberMarks.boxes([[100, 100, 50, 40], [160, 105, 60, 40]]) == [[100, 100, 120, 45]])
        #expect(NumberMarks.boxes([[100, 100, 50, 40], [100, 160, 60, 40]]) == [[100, 100, 50, 40], [100, 160, 60, 40]])
    }

    @Test func aPageReadAgainGetsItsOwnMarksAndTheOthersMoveAlong() throws {
        let oldText = [Self.second.text, Self.first.text, Self.second.text].joined(separator: RecordAssembler.pageSeparator)
        var old = LibraryDocument(sha256: String(repeating: "e5", count: 32), sourceName: "x.jpg", title: "t", docType: .labSvar,
                                  documentDate: "2024-07-01", text: oldText)
        old.numberMarks = NumberMarks.marks(NumberDoubt.doubtfulNumbers(in: oldText, lowConfidence: []),
                                            pages: [Self.second, Self.first, Self.second])
        #expect(old.numberMarks?.map(\.page) == [1, 1, 3, 3])

        // Page 2 read again, now with a number in doubt and a longer text.
        let reread = Self.reading([["Svar", "på", "blodprøver", "i", "dag"], ["Hemoglobin", "l4,8", "g/dL"]])
        var updated = old
        updated.text = [Self.second.text, reread.text, Self.second.text].joined(separator: RecordAssembler.pageSeparator)
        let marks = try #require(NumberMarks.rereading(old, into: updated, page: 2, ocr: reread))
        #expect(marks.map(\.page) == [1, 1, 2, 3, 3])
        #expect(marks.map(\.text) == ["1O,5", "5,,2", "l4,8", "1O,5", "5,,2"])
        let scalars = Array(updated.text.unicodeScalars)
        for mark in marks {
            #expect(String(String.UnicodeScalarView(scalars[mark.start..<(mark.start + mark.length)])) == mark.text)
        }
        #expect(marks[2].box == [400, 160, 250, 40])
    }
}
