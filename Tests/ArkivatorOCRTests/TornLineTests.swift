@testable import ArkivatorOCR
import Testing

/// One printed line that Tesseract tore into two of its lines is found, and only such a line.
@Suite struct TornLineTests {
    private func word(_ text: String, _ box: [Int], _ confidence: Double = 0.9) -> PageLayout.Word {
        PageLayout.Word(text: text, confidence: confidence, box: box)
    }

    private func layout(_ lines: [[PageLayout.Word]]) -> PageLayout {
        var layout = PageLayout()
        layout.startBlock(box: [200, 500, 2000, 200])
        for (index, line) in lines.enumerated() {
            if index > 0 { layout.startLine() }
            for word in line { layout.add(word) }
        }
        return layout
    }

    /// "Brevdato: 10.09.2025" beside the address, read as ": 10.09.202" on a line of its own and
    /// "Brevdato: 10 5" on the address's line (boxes of a real reading).
    @Test func aDateLineTornInTwoIsFound() throws {
        let page = layout([
            [word(":", [1872, 612, 6, 26], 0.87), word("10.09.202", [1902, 602, 190, 36], 0.87)],
            [word("Britt", [269, 634, 89, 35], 0.96), word("Mari", [373, 634, 92, 35], 0.96), word("Jensen", [480, 636, 128, 34], 0.96),
             word("Brevdato:", [1689, 601, 178, 37], 0.96), word("10", [1920, 602, 23, 36], 0.62), word("5", [2096, 603, 20, 35], 0.97)],
        ])
        let torn = try #require(page.tornLines().first)
        #expect(torn.kept.line == 1 && torn.kept.words == 3..<6)
        #expect(torn.taken.line == 0 && torn.taken.words == 0..<2)
        #expect(torn.span == 602...638)
    }

    /// "Postboks 5313 Majorstuen" beside a letterhead's name: "3 Majorstuen" read on the name's
    /// line, and "Postboks 531." read on a line of its own, its point where the 3 stands (boxes of
    /// a real reading). The two words overlap side by side at one height.
    @Test func wordsOverlappingSideBySideAtOneHeightAreOneLine() throws {
        let page = layout([
            [word("Kreftre", [412, 171, 249, 60]), word("g", [668, 185, 39, 61]), word("isteret", [716, 171, 227, 60]),
             word("3", [2011, 172, 19, 30]), word("Majorstuen", [2046, 172, 193, 38])],
            [word("Postboks", [1772, 172, 158, 31]), word("531.", [1944, 172, 73, 30])],
        ])
        let torn = try #require(page.tornLines().first)
        #expect(torn.kept.line == 0 && torn.kept.words == 3..<5)
        #expect(torn.taken.line == 1 && torn.taken.words == 0..<2)
        #expect(torn.span == 172...202)
        // A space between them, or a line's height apart: two lines.
        let apart = layout([[word("3", [2024, 172, 19, 30]), word("Majorstuen", [2059, 172, 193, 38])],
                            [word("Postboks", [1772, 172, 158, 31]), word("531.", [1944, 172, 73, 30])]])
        #expect(apart.tornLines().isEmpty)
        let below = layout([[word("3", [2011, 200, 19, 30]), word("Majorstuen", [2046, 200, 193, 38])],
                            [word("Postboks", [1772, 172, 158, 31]), word("531.", [1944, 172, 73, 30])]])
        #expect(below.tornLines().isEmpty)
    }

    @Test func linesApartOrSideBySideAreNotTorn() {
        // Two lines of a paragraph, and two columns at one height.
        let paragraph = layout([
            [word("Vi", [230, 895, 33, 30]), word("anbefaler", [278, 895, 173, 31])],
            [word("Bestill", [233, 973, 105, 32]), word("time", [353, 973, 76, 32])],
        ])
        #expect(paragraph.tornLines().isEmpty)
        let columns = layout([
            [word("Kirkegata", [232, 538, 173, 38]), word("92", [419, 539, 43, 30])],
            [word("Deres", [1331, 540, 106, 30]), word("referanse:", [1453, 539, 183, 31])],
        ])
        #expect(columns.tornLines().isEmpty)
        // A large name read garbled into the small print beside it (boxes of a real reading):
        // two sizes of print, two lines.
        let letterhead = layout([
            [word("Helfo", [356, 160, 140, 47]), word("Helseøkonomiforvaltningen??5:%=", [560, 160, 1400, 60], 0.4)],
            [word("3104", [1900, 190, 80, 22]), word("Tønsberg", [1995, 190, 140, 29])],
        ])
        #expect(letterhead.tornLines().isEmpty)
    }
}
