@testable import ArkivatorOCR
import Testing

/// Ticks, strokes and letters written in the margin or over a typed page, read as characters,
/// are left out of the text.
@Suite struct MarkTests {
    /// Words of one line at height 40, each `(text, x)`, 20 px a character, read with `confidence`.
    private func line(_ items: [(String, Int)], confidence: Double = 0.9) -> [PageLayout.Word] {
        items.map { PageLayout.Word(text: $0.0, confidence: confidence, box: [$0.1, 900, 20 * $0.0.count, 40]) }
    }

    @Test func marksAreTold() {
        // A lone letter ("i", "å") is a mark only where it stands apart (see below).
        for mark in ["|", "]", "E", "Å:", "i", "xA", "LE", "BupapPpEst,", "~"] {
            #expect(TokenShape.isMark(mark), "\(mark)")
        }
        for text in ["og", "Jøder,", "1942", "–", "...", "UDENRIGSMINISTERIET", "Konfiske-",
                     "P.", "J.No.", "151.D.3.", "Mir/N", "2a"] {
            #expect(!TokenShape.isMark(text), "\(text)")
        }
    }

    @Test func aMarkSetApartAtALinesEndIsLeftOut() {
        // Word spacing 20 px; the mark stands 200 px after the last word.
        #expect(PageLayout.trailingMarks(line([("bør", 100), ("ikke", 180), ("eller", 280), ("|", 580)])) == 1)
        #expect(PageLayout.trailingMarks(line([("som", 100), ("Konfiske-", 180), ("E", 560), ("]", 600)])) == 2)
        // Close to the last word it is the line's own ("… og i", "… ta kontakt: 2a").
        #expect(PageLayout.trailingMarks(line([("bor", 100), ("der", 180), ("i", 260)])) == 0)
        #expect(PageLayout.trailingMarks(line([("side", 100), ("nr.", 200), ("2a", 280)])) == 0)
        // A word after a wide gap (a date in a right-hand column) stays.
        #expect(PageLayout.trailingMarks(line([("Kari", 100), ("Hansen", 200), ("Oslo,", 1500), ("12.3.2024", 1620)])) == 0)
        // A line of two words keeps both.
        #expect(PageLayout.trailingMarks(line([("Med", 100), ("hilsen", 180), ("|", 900)])) == 0)
    }

    @Test func aLineOfMarksIsLeftOutAndCounted() {
        var layout = PageLayout()
        layout.startBlock(box: [100, 900, 2200, 200])
        for word in line([("Beslaglæggelse", 100), ("af", 420), ("Ejendom", 480), ("|", 1200)]) { layout.add(word) }
        layout.startLine()
        for word in line([("E", 140), ("]", 300), ("Å:", 420)]) { layout.add(word) }
        layout.startLine()
        for word in line([("|", 140), ("IE]", 300), ("W", 420), ("2", 500)]) { layout.add(word) }
        let page = layout.page()
        #expect(page.text == "Beslaglæggelse af Ejendom")
        #expect(page.droppedLines == 3)
        // A page number, or a list of numbers, is no mark.
        #expect(!PageLayout.isMarkLine(line([("2", 1200)])))
        #expect(!PageLayout.isMarkLine(line([("1", 100), ("2", 200), ("|", 300)])))
        // Nor is a reference range's cell of a lab table, "< 5" ("<" alone is a mark).
        #expect(!PageLayout.isMarkLine(line([("<", 1540), ("5", 1580)])))
        #expect(PageLayout.isMarkLine(line([("|", 1540), ("5", 1580)])))
    }

    /// A table's number cell: a number after "<" or ">", or a range.
    @Test func aNumberCellIsAComparisonOrARange() {
        for cell in [["<", "5"], [">", "60"], ["20-42"], ["20", "-", "42"], ["3,5", "–", "4,4"], ["<5"]] {
            #expect(PageLayout.isNumberCell(cell.map { PageLayout.Word(text: $0, confidence: 0.6, box: [0, 0, 10, 10]) }), "\(cell)")
        }
        for other in [["|", "5"], ["5"], ["Side", "1"], ["20", "-"], ["<", "S"]] {
            #expect(!PageLayout.isNumberCell(other.map { PageLayout.Word(text: $0, confidence: 0.6, box: [0, 0, 10, 10]) }), "\(other)")
        }
    }

    /// Words read with `confidence` at the given (text, x) places.
    private func line(_ items: [(String, Int, Double)]) -> [PageLayout.Word] {
        items.map { PageLayout.Word(text: $0.0, confidence: $0.2, box: [$0.1, 900, 20 * $0.0.count, 40]) }
    }

    @Test func doubtfulMarksBeforeALineAreLeftOut() {
        // Set apart by a wide gap ("fr      Det jødiske Spørgsmaal").
        #expect(PageLayout.leadingMarks(line([("fr", 960, 0), ("Det", 1355, 0.96), ("jødiske", 1440, 0.93), ("Spørgsmaal", 1600, 0.91)]),
                                        margin: 230) == 1)
        // Close to the text, but left of where the page's lines begin ("oÖ den 31. f.M.").
        #expect(PageLayout.leadingMarks(line([("oÖ", 112, 0), ("den", 231, 0.96), ("31.", 320, 0.89), ("f.M.", 400, 0.81)]),
                                        margin: 230) == 1)
        // A list number read well stays, and so does a faint word at the margin.
        #expect(PageLayout.leadingMarks(line([("2.", 112, 0.9), ("den", 231, 0.96), ("31.", 320, 0.89), ("f.M.", 400, 0.81)]),
                                        margin: 230) == 0)
        #expect(PageLayout.leadingMarks(line([("Det", 231, 0.4), ("var", 320, 0.96), ("der", 420, 0.89), ("ikke", 520, 0.81)]),
                                        margin: 230) == 0)
        // Without a margin only a wide gap tells.
        #expect(PageLayout.leadingMarks(line([("oÖ", 112, 0), ("den", 231, 0.96), ("31.", 320, 0.89)]), margin: nil) == 0)
    }

    @Test func theTypedMarginIsWhereMostLinesBegin() {
        let lines = [230, 233, 228, 470, 231].map { x in line([("Dette", x, 0.9), ("er", x + 120, 0.9), ("tekst", x + 180, 0.9)]) }
        #expect(PageLayout.typedMargin(lines) == 228)
        #expect(PageLayout.typedMargin(Array(lines.prefix(2))) == nil)
    }

    @Test func doubtfulMarksBetweenTwoPartsOfALineAreLeftOut() {
        let words = line([("4", 350, 0.96), ("Bilag.", 409, 0.96), ("sr", 706, 0.2), ("GO", 919, 0.41), ("–", 1195, 0),
                          ("Ges.:", 1360, 0.48), ("No:", 1480, 0.45), ("200", 1560, 0.95), ("af", 1640, 0.9), ("7.6.43.", 1700, 0.9)])
        #expect(PageLayout.innerMarks(words).flatMap { Array($0) } == [2, 3, 4])
        // A word read well in the space is text (a date in the right column).
        let kept = line([("Kari", 100, 0.9), ("Hansen", 200, 0.9), ("Oslo", 800, 0.9), ("12.3.2024", 1500, 0.9)])
        #expect(PageLayout.innerMarks(kept).isEmpty)
    }

    /// A number alone in a wide space of a table's row is its cell, however unsure its reading:
    /// "199 H" between the analysis and its unit stays.
    @Test func aNumberAloneInATableRowIsACellNotAMark() {
        let row = line([("25-OH", 258, 0.95), ("vitamin", 398, 0.95), ("D", 553, 0.95), ("199", 766, 0.4), ("H", 853, 0.3),
                        ("nmol/L", 1122, 0.93), ("50", 1493, 0.95), ("-", 1554, 0.9), ("150", 1582, 0.95)])
        #expect(PageLayout.innerMarks(row).isEmpty)
        #expect(PageLayout.isTableValue(["4,1", "L"].map { PageLayout.Word(text: $0, confidence: 0.3, box: [0, 0, 10, 10]) }[...]))
        #expect(!PageLayout.isTableValue(["sr", "GO"].map { PageLayout.Word(text: $0, confidence: 0.3, box: [0, 0, 10, 10]) }[...]))
        // A dose in a column of a list of medicines, read at confidence 0 (as a real reading did).
        let dose = line([("Atorvastatin", 100, 0.97), ("tablett", 360, 0.91), ("40", 700, 0.0), ("mg", 760, 0.0),
                         ("1", 1000, 0.97), ("tablett", 1040, 0.97), ("om", 1200, 0.96), ("kvelden", 1260, 0.97)])
        #expect(PageLayout.innerMarks(dose).isEmpty)
        #expect(!PageLayout.isTableValue(["40", "GO"].map { PageLayout.Word(text: $0, confidence: 0.3, box: [0, 0, 10, 10]) }[...]))
    }
}
