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

    @Test func aMarkInTheMarginOrALineReadBadlyThroughoutIsLeftAlone() {
        // A lone mark after the text.
        #expect(layout(words(900, [("behandlet", 200, 0.95), ("styre.", 420, 0.9), ("0", 1500, 0.1)])).garbledFragments().isEmpty)
        // No part of the line read well: nothing to compare with (a smudge, a signature).
        #expect(layout(words(900, [("SIWVNS", 200, 0.3), ("KrEEE", 1300, 0.2)])).garbledFragments().isEmpty)
        // Poorly read words with no wide gap before them are the line's own.
        #expect(layout(words(900, [("Storgata", 200, 0.95), ("kxqzvw", 400, 0.1)])).garbledFragments().isEmpty)
    }
}
