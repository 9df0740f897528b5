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

    @Test func aMarkInTheMarginOrALineReadBadlyThroughoutIsLeftAlone() {
        // A lone mark after the text.
        #expect(layout(words(900, [("behandlet", 200, 0.95), ("styre.", 420, 0.9), ("0", 1500, 0.1)])).garbledFragments().isEmpty)
        // No part of the line read well: nothing to compare with (a smudge, a signature).
        #expect(layout(words(900, [("SIWVNS", 200, 0.3), ("KrEEE", 1300, 0.2)])).garbledFragments().isEmpty)
        // Poorly read words with no wide gap before them are the line's own.
        #expect(layout(words(900, [("Storgata", 200, 0.95), ("kxqzvw", 400, 0.1)])).garbledFragments().isEmpty)
    }
}
