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
    }
}
