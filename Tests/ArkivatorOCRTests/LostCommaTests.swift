@testable import ArkivatorOCR
import Testing

/// A number Tesseract read without the comma that stands among its digits ("33L" for "3,3 L" in
/// a lab table's line of large print): found from the comma's mark, and only such a number.
@Suite struct LostCommaTests {
    /// "Kalium 33L mmol/L" of a real reading: the word's box taller than its signs (a speck
    /// above the L), and the marks of that page, the comma's among them.
    private static let words = [PageLayout.Word(text: "Kalium", confidence: 0.96, box: [235, 2228, 148, 66]),
                                PageLayout.Word(text: "33L", confidence: 0.52, box: [700, 2232, 101, 58]),
                                PageLayout.Word(text: "mmol/L", confidence: 0.95, box: [1040, 2249, 160, 33])]
    private static let marks = [[779, 2232, 3, 3], [700, 2249, 21, 33], [738, 2249, 21, 33], [774, 2249, 27, 33], [725, 2277, 7, 13]]

    private func layout(_ words: [PageLayout.Word]) -> PageLayout {
        PageLayout.oneBlock(words, box: [200, 2220, 1100, 80])
    }

    @Test func aCommaOnThePageThatTheWordLacksIsFound() throws {
        let found = layout(Self.words).lostCommas(marks: Self.marks)
        let fragment = try #require(found.first)
        #expect(found.count == 1 && fragment.words == 1..<2)
        // Framed by its signs (2249 to 2282), their height beyond on every side.
        #expect(fragment.span == 2249...2282)
        #expect(fragment.box == [667, 2216, 834 - 667, 2315 - 2216])
    }

    @Test func noCommaMarkOrANumberWithItsCommaIsNoLostComma() {
        // Without the comma's mark; with a speck at the digits' middle height; read with a comma.
        #expect(layout(Self.words).lostCommas(marks: Array(Self.marks.dropLast())).isEmpty)
        #expect(layout(Self.words).lostCommas(marks: Array(Self.marks.dropLast()) + [[725, 2262, 7, 7]]).isEmpty)
        var read = Self.words
        read[1].text = "3,3L"
        #expect(layout(read).lostCommas(marks: Self.marks).isEmpty)
        // A word that is no number.
        read[1].text = "ABL"
        #expect(layout(read).lostCommas(marks: Self.marks).isEmpty)
    }

    @Test func aSecondReadingIsTakenOnlyWithTheSameSignsAndACommaAmongDigits() {
        func words(_ texts: [String]) -> [PageLayout.Word] { texts.map { PageLayout.Word(text: $0, confidence: 0.9, box: [0, 0, 10, 10]) } }
        #expect(PageLayout.restoresCommas(words(["3,3", "L"]), of: "33L"))
        #expect(PageLayout.restoresCommas(words(["3,5", "-", "4,4"]), of: "35–44"))
        #expect(!PageLayout.restoresCommas(words(["335"]), of: "33L"))
        #expect(!PageLayout.restoresCommas(words(["33L"]), of: "33L"))
        #expect(!PageLayout.restoresCommas(words(["3,8", "L"]), of: "33L"))
        #expect(PageLayout.readsAsCommaless("16L") && PageLayout.readsAsCommaless("35-44") && PageLayout.readsAsCommaless("139"))
        #expect(!PageLayout.readsAsCommaless("5") && !PageLayout.readsAsCommaless("3,3") && !PageLayout.readsAsCommaless("HbA1c"))
    }
}
