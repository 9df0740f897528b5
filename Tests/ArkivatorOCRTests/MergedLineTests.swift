@testable import ArkivatorOCR
import Testing

/// A line of one column that stands a little higher than the line beside it in the next column
/// (a date beside the address): Tesseract reads the two as one line, cuts the second to the
/// first's height and garbles it. The garbled piece is read again on its own.
@Suite struct MergedLineTests {
    private func words(_ y: Int, _ items: [(String, Int, Double)]) -> [PageLayout.Word] {
        items.map { PageLayout.Word(text: $0.0, confidence: $0.2, box: [$0.1, y, 20 * $0.0.count, 40]) }
    }

    private func layout(_ line: [PageLayout.Word]) -> PageLayout {
        var layout = PageLayout()
        layout.startBlock(box: [100, 900, 2200, 60])
        for word in line { layout.add(word) }
        return layout
    }

    /// The pieces of a line with small print on it, and the first fragment found: its words and box.
    private func smallPrint(_ line: [PageLayout.Word]) throws -> ([Range<Int>], Range<Int>, [Int]) {
        let fragment = try #require(layout(line).garbledFragments().first)
        return (PageLayout.pieces(line), fragment.words, fragment.box)
    }

    @Test func aGarbledPieceAfterAWideGapIsFound() throws {
        let line = words(900, [("Britt", 200, 0.95), ("Andreassen", 320, 0.93), ("PEDD.", 1300, 0.07), ("giedddgs", 1440, 0)])
        let found = layout(line).garbledFragments()
        #expect(found.count == 1)
        let fragment = try #require(found.first)
        #expect(fragment.words == 2..<4)
        // Half a line (20 px) round the words' box.
        #expect(fragment.box == [1280, 880, 1440 + 160 + 20 - 1280, 80])
    }

    @Test func linesOfSmallPrintReadAsOneWordAreFoundAndPutBackAsLines() throws {
        // A letterhead's name, and beside it two lines of its address read as one tall word of
        // two signs, "re", 262 px wide: read again as a block, the lines come out whole.
        var page = layout([PageLayout.Word(text: "Akershus", confidence: 0.93, box: [427, 208, 352, 62]),
                           PageLayout.Word(text: "HF", confidence: 0.97, box: [800, 212, 98, 58]),
                           PageLayout.Word(text: "re", confidence: 0.12, box: [1947, 201, 262, 88])])
        let fragment = try #require(page.garbledFragments().first)
        #expect(fragment.words == 2..<3)
        #expect(fragment.span == 201...289)
        page.replace(fragment, withLines: [
            [PageLayout.Word(text: "Postboks", confidence: 0.96, box: [1946, 201, 150, 29]),
             PageLayout.Word(text: "1000", confidence: 0.97, box: [2107, 202, 80, 29])],
            [PageLayout.Word(text: "1478", confidence: 0.97, box: [1947, 252, 79, 29]),
             PageLayout.Word(text: "Lørenskog", confidence: 0.96, box: [2039, 251, 170, 38])]])
        #expect(page.blocks[0].paragraphs[0].map { $0.map(\.text) } == [["Akershus", "HF", "Postboks", "1000"], ["1478", "Lørenskog"]])
        // A mark of two signs in the margin, narrow, is still no line of text.
        #expect(layout([PageLayout.Word(text: "Akershus", confidence: 0.93, box: [427, 208, 352, 62]),
                        PageLayout.Word(text: "HF", confidence: 0.97, box: [800, 212, 98, 58]),
                        PageLayout.Word(text: "re", confidence: 0.12, box: [1947, 201, 60, 60])]).garbledFragments().isEmpty)
    }

    /// A line of small print put on the line of a large letterhead name, read as one garbled
    /// word at under half the name's height, is a piece of its own after a gap of two of its own
    /// heights, and is framed by its own height: the line's would reach into the line below it.
    @Test func smallPrintOnALargeNamesLineIsAPieceFramedByItsOwnHeight() throws {
        let line = [PageLayout.Word(text: "Akershus", confidence: 0.93, box: [252, 194, 421, 94]),
                    PageLayout.Word(text: "universitetssykehus", confidence: 0.92, box: [707, 217, 891, 90]),
                    PageLayout.Word(text: "HF", confidence: 0.41, box: [1633, 217, 117, 69]),
                    PageLayout.Word(text: "\"xrusi", confidence: 0, box: [1882, 225, 231, 28])]
        #expect(try smallPrint(line) == ([0..<3, 3..<4], 3..<4, [1882 - 14, 225 - 14, 231 + 28, 28 + 28]))
        // Words of the line's own size keep their line whole at such a gap, and so does a
        // small sign ("–") between words.
        #expect(PageLayout.pieces(words(900, [("Storgata", 200, 0.95), ("12", 400, 0.9)])).count == 1)
        let dash = [PageLayout.Word(text: "Kari", confidence: 0.95, box: [200, 900, 80, 40]),
                    PageLayout.Word(text: "–", confidence: 0.9, box: [300, 915, 20, 4]),
                    PageLayout.Word(text: "lege", confidence: 0.95, box: [340, 900, 80, 40])]
        #expect(PageLayout.pieces(dash).count == 1)
    }

    @Test func aShortNumberOnALineOfItsOwnReadDoubtfullyIsReadAgain() throws {
        // "1/1" at a page's foot, read "11" with little confidence: read again, not dropped.
        let fragment = try #require(layout(words(3000, [("11", 2000, 0.33)])).garbledFragments().first)
        #expect(fragment.shortNumber)
        #expect(fragment.words == 0..<1)
        // A lone word of letters, or a lone number read well, is not.
        #expect(layout(words(3000, [("SIWVNS", 2000, 0.3)])).garbledFragments().isEmpty)
        #expect(layout(words(3000, [("11", 2000, 0.93)])).garbledFragments().isEmpty)
        // Read with middling confidence, it is read again too: a page's number often is.
        #expect(try #require(layout(words(3000, [("11", 2000, 0.84)])).garbledFragments().first).shortNumber)
    }

    /// "1/1" read "11": a second reading in a page number's form, with its digits, is kept even
    /// when Tesseract is less sure of it; another form, or the first number above the second, is not one.
    @Test func aPageNumberReadAgainIsKnownByItsForm() {
        func word(_ text: String, _ confidence: Double) -> [PageLayout.Word] {
            [PageLayout.Word(text: text, confidence: confidence, box: [2000, 3000, 60, 30])]
        }
        #expect(PageLayout.readsAsPageNumber(word("1/1", 0.6)))
        #expect(PageLayout.readsAsPageNumber(word("2/12", 0.6)))
        #expect(!PageLayout.readsAsPageNumber(word("1/1", 0.5)))
        #expect(!PageLayout.readsAsPageNumber(word("3/2", 0.9)))
        #expect(!PageLayout.readsAsPageNumber(word("11", 0.9)))
        #expect(!PageLayout.readsAsPageNumber(word("0/1", 0.9)))
        #expect(!PageLayout.readsAsPageNumber(word("1/100", 0.9)))
        // Written out: "Side 1", "Side I av 2" (a one as the model reads it); not a page beyond
        // the last, another word, or a "Side" read unsurely.
        func words(_ text: String, _ confidence: Double = 0.8) -> [PageLayout.Word] {
            text.split(separator: " ").map { PageLayout.Word(text: String($0), confidence: confidence, box: [2000, 3000, 60, 30]) }
        }
        #expect(PageLayout.readsAsPageNumber(words("Side 1")))
        #expect(PageLayout.readsAsPageNumber(words("Side I av 2")))
        #expect(PageLayout.readsAsPageNumber(words("side 12 av 12")))
        #expect(!PageLayout.readsAsPageNumber(words("Side 3 av 2")))
        #expect(!PageLayout.readsAsPageNumber(words("Side 0")))
        #expect(!PageLayout.readsAsPageNumber(words("Side 100")))
        #expect(!PageLayout.readsAsPageNumber(words("Sider 1")))
        #expect(!PageLayout.readsAsPageNumber(words("Side 1 og 2")))
        #expect(!PageLayout.readsAsPageNumber(words("Side 1", 0.5)))
    }

    /// An address beside a letterhead's name, its second line read on the name's line: Tesseract
    /// reads it against the name's height, which takes in the line above, and makes "Nédse
    /// Storgate" of "3015 Drammen" with middling confidence. Such small print is read again
    /// below 0.75; read well, it is not.
    @Test func smallPrintReadWithMiddlingConfidenceOnALargeNamesLineIsReadAgain() throws {
        func line(_ confidence: Double) -> [PageLayout.Word] {
            [PageLayout.Word(text: "Bragernes", confidence: 0.96, box: [311, 146, 279, 54]),
             PageLayout.Word(text: "legesenter", confidence: 0.96, box: [612, 146, 284, 54]),
             PageLayout.Word(text: "Nédse", confidence: confidence, box: [1444, 187, 68, 21]),
             PageLayout.Word(text: "Storgate", confidence: confidence - 0.1, box: [1525, 187, 140, 21])]
        }
        let fragment = try #require(layout(line(0.67)).garbledFragments().first)
        #expect(fragment.words == 2..<4)
        #expect(fragment.box == [1444 - 10, 187 - 10, 1665 - 1444 + 20, 21 + 20])
        #expect(layout(line(1.0)).garbledFragments().isEmpty)
        // Words of the line's own size read so are left alone.
        #expect(layout(words(900, [("Britt", 200, 0.95), ("Andreassen", 320, 0.93), ("Storgate", 1300, 0.6)])).garbledFragments().isEmpty)
    }

    /// A dash in the name is no measure of the line's print, and small print is as high as its
    /// digits, not as a descender beside them: "3104 Tønsberg" read ".\"41 Tønsberg" after a
    /// name with a dash in it is small print read badly (boxes of a real reading, the address a
    /// little further right).
    @Test func aDashOrADescenderDoesNotHideSmallPrintOnALargeNamesLine() throws {
        let line = [PageLayout.Word(text: "Helfo", confidence: 0.92, box: [150, 186, 140, 37]),
                    PageLayout.Word(text: "–", confidence: 0.93, box: [310, 207, 19, 6]),
                    PageLayout.Word(text: "Helseøkonomiforvaltningen", confidence: 0.9, box: [350, 186, 730, 47]),
                    PageLayout.Word(text: ".\"41", confidence: 0.05, box: [1150, 216, 69, 22]),
                    PageLayout.Word(text: "Tønsberg", confidence: 0.97, box: [1230, 216, 134, 29])]
        #expect(try smallPrint(line) == ([0..<3, 3..<5], 3..<5, [1150 - 11, 216 - 11, 1364 - 1150 + 22, 29 + 22]))
    }

    /// An address block set close beside a letterhead's name, a word space of its own print
    /// apart: its second line, on the name's line, is a piece of its own where it starts under
    /// the block's first line, and is read again (boxes of a real reading). Without a line
    /// starting above or below it, such a gap cuts nothing.
    @Test func smallPrintCloseBesideANameIsAPieceWhereItsColumnStarts() throws {
        let name = [PageLayout.Word(text: "Akershus", confidence: 0.93, box: [387, 238, 426, 64]),
                    PageLayout.Word(text: "universitetssykehus", confidence: 0.91, box: [852, 238, 931, 82]),
                    PageLayout.Word(text: "HF", confidence: 0.86, box: [1823, 240, 95, 62]),
                    PageLayout.Word(text: "\"5:20,", confidence: 0.32, box: [1955, 278, 288, 36])]
        #expect(PageLayout.pieces(name) == [0..<4])
        var page = PageLayout()
        page.startBlock(box: [1950, 225, 280, 40])
        page.add(PageLayout.Word(text: "Postboks", confidence: 0.96, box: [1955, 230, 159, 29]))
        page.add(PageLayout.Word(text: "1000", confidence: 0.96, box: [2131, 231, 88, 28]))
        page.startBlock(box: [380, 230, 1900, 90])
        for word in name { page.add(word) }
        let fragment = try #require(page.garbledFragments().first)
        #expect(fragment.block == 1 && fragment.words == 3..<4 && fragment.misplaced)
        #expect(PageLayout.pieces(name, edges: [(x: 1955, y: 244)]) == [0..<3, 3..<4])
        #expect(PageLayout.pieces(name, edges: [(x: 1990, y: 244)]) == [0..<4])
        // The line may start with a digit read alone ("5 tørenskog" for "1478 Lørenskog"): a
        // digit is as high as a capital, and in print this small it is the block's.
        let digit = [PageLayout.Word(text: "universitetssykehus", confidence: 0.91, box: [733, 200, 716, 65]),
                     PageLayout.Word(text: "HF", confidence: 0.94, box: [1476, 202, 105, 49]),
                     PageLayout.Word(text: "5", confidence: 0.77, box: [1626, 232, 69, 23]),
                     PageLayout.Word(text: "tørenskog", confidence: 0.25, box: [1708, 232, 151, 29])]
        #expect(PageLayout.pieces(digit, edges: [(x: 1624, y: 205)]) == [0..<2, 2..<4])
        #expect(PageLayout.pieces(digit) == [0..<4])
    }

    /// A date in the right column, half a line above the address line beside it, read with that
    /// line and cut to its height: "LE 2085" at 0.6 for "17. juli 2025" (boxes of a real
    /// reading). It stands off its line, and is read again below 0.9 as small print is; the same
    /// piece in line with the address is read again only when garbled.
    @Test func aPieceStandingOffItsLineIsReadAgainBelowNineTenths() throws {
        func line(dateTop: Int) -> [PageLayout.Word] {
            [PageLayout.Word(text: "Kirkegata", confidence: 0.96, box: [232, 538, 173, 38]),
             PageLayout.Word(text: "92", confidence: 0.96, box: [419, 539, 43, 30]),
             PageLayout.Word(text: "LE", confidence: 0.45, box: [1331, dateTop, 115, 39]),
             PageLayout.Word(text: "2085", confidence: 0.68, box: [1461, dateTop + 1, 91, 30])]
        }
        let fragment = try #require(layout(line(dateTop: 511)).garbledFragments().first)
        #expect(fragment.words == 2..<4 && fragment.misplaced)
        #expect(layout(line(dateTop: 538)).garbledFragments().isEmpty)
    }

    @Test func aMarkInTheMarginOrALineReadBadlyThroughoutIsLeftAlone() {
        // A lone mark after the text.
        #expect(layout(words(900, [("behandlet", 200, 0.95), ("styre.", 420, 0.9), ("0", 1500, 0.1)])).garbledFragments().isEmpty)
        // No part of the line read well: nothing to compare with (a smudge, a signature).
        #expect(layout(words(900, [("SIWVNS", 200, 0.3), ("KrEEE", 1300, 0.2)])).garbledFragments().isEmpty)
        // Poorly read words with no wide gap before them are the line's own.
        #expect(layout(words(900, [("Storgata", 200, 0.95), ("kxqzvw", 400, 0.1)])).garbledFragments().isEmpty)
    }

    @Test func smallLinesReadAsOneTallWordBesideALargeNameAreFound() {
        var page = PageLayout()
        page.startBlock(box: [200, 200, 2000, 400])
        let name = [("Sykehuset", 456, 415, 89), ("Østfold", 901, 301, 71), ("Kalnes", 1229, 281, 68)]
        for (text, x, width, height) in name { page.add(.init(text: text, confidence: 0.96, box: [x, 230, width, height])) }
        // "Postboks 300" over "1714 Grålum", read as "1914 Grålum" with confidence.
        page.add(.init(text: "1914", confidence: 0.91, box: [1846, 218, 81, 80]))
        page.add(.init(text: "Grålum", confidence: 0.75, box: [1942, 214, 115, 101]))
        for row in 0..<2 {
            page.startLine()
            for (i, text) in ["Nevrologisk", "avdeling", "Vår", "ref.", "25/24686", "Dato"].enumerated() {
                page.add(.init(text: text, confidence: 0.95, box: [300 + 300 * i, 400 + 50 * row, 200, 35]))
            }
        }
        // Each large letter is as tall as its word; the small print stands in two rows.
        var marks = name.flatMap { _, x, width, height in (0..<(width / 45)).map { [x + 45 * $0, 230, 40, height - 8] } }
        marks += (0..<10).map { [1846 + 21 * $0, 216, 18, 26] } + (0..<10).map { [1846 + 21 * $0, 262, 18, 26] }
        let found = page.stackedFragments(marks: marks)
        #expect(found.map(\.words) == [3..<5])
        #expect(found.first?.stacked == true)
        // A word with a figure written above it is one line: no two rows of print.
        var figure = PageLayout()
        figure.startBlock(box: [200, 200, 2000, 400])
        for (i, text) in ["jødisk", "Ejendom", "i", "Henhold", "dertil"].enumerated() {
            figure.add(.init(text: text, confidence: 0.95, box: [300 + 250 * i, 400, 200, text == "Henhold" ? 82 : 35]))
        }
        let written = (0..<7).map { [1050 + 26 * $0, 450, 22, 30] } + [[1100, 402, 20, 30]]
        #expect(figure.stackedFragments(marks: written).isEmpty)
    }

    @Test func aNumberStandingApartReadBadlyIsReadAgain() {
        // A dose in its own column of a table ("5 mg"), read with low confidence, however short.
        let found = layout(words(900, [("Ramipril", 200, 0.92), ("kapsel", 400, 0.96), ("5", 690, 0.18), ("mg", 719, 0.18),
                                       ("1", 919, 0.96), ("kapsel", 946, 0.96)])).garbledFragments()
        #expect(found.map(\.words) == [2..<4])
    }

    /// A postcode and place beside a letterhead's name, framed with the descender of the line
    /// above it ("20" 55 px tall for "2010", boxes of a real reading): no small print by its
    /// box, but a piece of its own where the column's lines above and below it start. A word
    /// after print of its own height is not cut there, nor a word where only one side starts.
    @Test func aWordFramedTallWhereItsColumnStartsIsAPiece() {
        let line = [PageLayout.Word(text: "Strømmen", confidence: 0.94, box: [471, 247, 551, 77]),
                    PageLayout.Word(text: "legesenter", confidence: 0.95, box: [1073, 241, 527, 146]),
                    PageLayout.Word(text: "20", confidence: 0.57, box: [1653, 265, 83, 55]),
                    PageLayout.Word(text: "stemmer", confidence: 0.37, box: [1786, 289, 196, 31])]
        let column = [(x: 1666, y: 256), (x: 1666, y: 356)]
        #expect(PageLayout.pieces(line, edges: column) == [0..<2, 2..<4])
        #expect(PageLayout.pieces(line, edges: [(x: 1666, y: 256)]) == [0..<4])
        #expect(PageLayout.pieces(line) == [0..<4])
        let body = [PageLayout.Word(text: "Ikke-Jøder.", confidence: 0.7, box: [1177, 2602, 324, 39]),
                    PageLayout.Word(text: "Undtagelserne", confidence: 0.9, box: [1573, 2600, 365, 40])]
        #expect(PageLayout.pieces(body, edges: [(x: 1573, y: 2520), (x: 1573, y: 2720)]) == [0..<2])
    }

    /// A second reading of a line keeps its words, without a speck its frame caught at either end.
    @Test func aSpeckAtALinesEndIsNoWord() {
        let read = [PageLayout.Word(text: "*", confidence: 0.4, box: [1640, 270, 12, 14]),
                    PageLayout.Word(text: "2010", confidence: 0.95, box: [1666, 289, 96, 30]),
                    PageLayout.Word(text: "Strømmen", confidence: 0.96, box: [1781, 289, 203, 31])]
        #expect(PageLayout.withoutSpecks(read).map(\.text) == ["2010", "Strømmen"])
        let dash = [PageLayout.Word(text: "Oslo", confidence: 0.95, box: [100, 100, 100, 30]),
                    PageLayout.Word(text: "–", confidence: 0.9, box: [210, 112, 20, 4])]
        #expect(PageLayout.withoutSpecks(dash).count == 2)
        let block = [[PageLayout.Word(text: "1", confidence: 0.79, box: [1638, 265, 14, 16])],
                     [PageLayout.Word(text: "2010", confidence: 0.95, box: [1666, 289, 96, 30]),
                      PageLayout.Word(text: "Strømmen", confidence: 0.96, box: [1781, 289, 203, 31])],
                     [PageLayout.Word(text: "7", confidence: 0.9, box: [1666, 330, 16, 30])]]
        #expect(PageLayout.withoutSpeckLines(block).map { $0.map(\.text) } == [["2010", "Strømmen"], ["7"]])
    }

    /// Two lines of a contact block beside a letterhead's name, read at first as one line of the
    /// name's height, "14820 Kristiansand" for "Kjøita 16" over "4630 Kristiansand", read again
    /// as a block (a real reading's words): two sure lines with more letters and digits stand for
    /// it, though not half as many again. A word and a mark by it, or a line too short, does not.
    @Test func twoSureLinesReadAgainStandForStackedWords() {
        func word(_ text: String, _ confidence: Double) -> PageLayout.Word {
            PageLayout.Word(text: text, confidence: confidence, box: [1814, 203, 20 * text.count, 30])
        }
        let read = [word("14820", 0.7), word("Kristiansand", 0.9)]
        let lines = [[word("Kjøita", 0.96), word("16", 0.97)], [word("4630", 0.97), word("Kristiansand", 0.97)]]
        #expect(PageLayout.readsAsStackedLines(lines, for: read, confidence: 0.8))
        #expect(!PageLayout.readsAsStackedLines([lines[1]], for: read, confidence: 0.8))
        #expect(!PageLayout.readsAsStackedLines([[word("Kristiansand", 0.95), word("16", 0.9)], [word("..", 0.5)]], for: read, confidence: 0.8))
        #expect(!PageLayout.readsAsStackedLines([[word("Kjøita", 0.96), word("16", 0.6)], lines[1]], for: read, confidence: 0.8))
        #expect(!PageLayout.readsAsStackedLines([[word("Kj", 0.96)], lines[1]], for: read, confidence: 0.8))
    }
}
