@testable import ArkivatorOCR
import Testing

/// A table whose column of short numbers Tesseract's layout analysis left out (print inside the
/// table that no word covers) is found for a second reading as one block; prose, a letterhead and
/// a table read whole are not.
@Suite struct ColumnTableTests {
    private func word(_ text: String, _ x: Int, _ y: Int) -> PageLayout.Word {
        PageLayout.Word(text: text, confidence: 0.95, box: [x, y, 18 * text.count, 24])
    }

    private func marks(_ word: PageLayout.Word) -> [[Int]] {
        (0..<word.text.count).map { [word.box[0] + 18 * $0, word.box[1], 16, 24] }
    }

    /// A lab table of four rows (analysis, unit, range) at y 1000…, its results left out: each
    /// row's words, and the marks of the results no word covers.
    private func table(resultsRead: Bool) -> (layout: PageLayout, marks: [[Int]]) {
        var layout = PageLayout()
        layout.startBlock(box: [200, 1000, 1400, 200])
        var lost: [[Int]] = []
        for (row, (name, result, unit, range)) in [("Kalium", "4,1", "mmol/L", "3,5-4,4"), ("Natrium", "141", "mmol/L", "137-145"),
                                                   ("Kreatinin", "88", "umol/L", "45-90"), ("CRP", "12", "mg/L", "<5")].enumerated() {
            let y = 1000 + 50 * row
            if row > 0 { layout.startLine() }
            var words = [word(name, 200, y)]
            if resultsRead { words.append(word(result, 700, y)) } else { lost += marks(word(result, 700, y)) }
            words += [word(unit, 1000, y), word(range, 1400, y)]
            for w in words { layout.add(w) }
        }
        return (layout, layout.words.flatMap(marks) + lost)
    }

    @Test func aTableThatLostItsResultsIsFound() {
        let (layout, marks) = table(resultsRead: false)
        let found = layout.columnTables(marks: marks)
        #expect(found.count == 1)
        #expect(found.first?.blocks == [0])
    }

    @Test func aTableReadWholeIsLeftAlone() {
        let (layout, marks) = table(resultsRead: true)
        #expect(layout.columnTables(marks: marks).isEmpty)
    }

    @Test func proseWithUncoveredInkIsNoTable() {
        var layout = PageLayout()
        layout.startBlock(box: [200, 1000, 1600, 200])
        for row in 0..<4 {
            if row > 0 { layout.startLine() }
            var x = 200
            for text in ["Vi", "viser", "til", "timen", "den", "12.", "mai"] {
                layout.add(word(text, x, 1000 + 50 * row))
                x += 18 * text.count + 18
            }
        }
        let ink = [[1500, 1010, 16, 24], [1520, 1010, 16, 24], [1540, 1010, 16, 24], [1560, 1060, 16, 24]]
        #expect(layout.columnTables(marks: layout.words.flatMap(marks) + ink).isEmpty)
    }

    @Test func aLetterheadIsNoTable() {
        var layout = PageLayout()
        layout.startBlock(box: [200, 100, 1600, 200])
        for row in 0..<4 {
            if row > 0 { layout.startLine() }
            for w in [word("Sykehuset", 200, 100 + 50 * row), word("Telefon", 1200, 100 + 50 * row), word("22", 1400, 100 + 50 * row)] { layout.add(w) }
        }
        let ink = (0..<4).map { [800, 110 + 50 * $0, 16, 24] }
        #expect(layout.columnTables(marks: layout.words.flatMap(marks) + ink).isEmpty)
    }
}
