@testable import ArkivatorImaging
import Testing

/// Which coloured pieces of a page are marks (stamps, signatures, ticks) and which are coloured
/// print, measured against an x-height of 10 pixels on a page 1000 × 1400.
@Suite struct ColouredMarksTests {
    private let rules = ColouredMarks(xHeight: 10)
    private typealias Box = ColouredMarks.Box

    private func marks(_ pieces: [(Box, Int)]) -> [Bool] {
        rules.marks(pieces.map { (box: $0.0, ink: $0.1) }, pageWidth: 1000, pageHeight: 1400).isMark
    }

    /// A row of letters: `count` boxes 8 × 10 pixels, 3 apart, on one baseline.
    private func row(x: Int, y: Int, count: Int, height: Int = 10) -> [(Box, Int)] {
        (0..<count).map { (Box(x: x + $0 * 11, y: y, width: 8, height: height), 8 * height / 2) }
    }

    @Test func aStampsFrameAndTheWordsInsideItAreMarks() {
        // A rectangular frame 120 × 70 (thin: little ink for its box) round a row of letters.
        let frame = (Box(x: 400, y: 300, width: 120, height: 70), 2 * (120 + 70) * 3)
        let words = row(x: 420, y: 325, count: 7)
        #expect(marks([frame] + words).allSatisfy { $0 })
    }

    @Test func colouredPrintBesideASolidLogoStaysPrint() {
        // A solid logo 60 × 60 and, 12 pixels to its right, a letterhead of 20 letters.
        let logo = (Box(x: 100, y: 100, width: 60, height: 60), 60 * 60 * 3 / 4)
        let name = row(x: 172, y: 120, count: 20, height: 14)
        let result = marks([logo] + name)
        #expect(result[0], "the logo is no text")
        #expect(!result.dropFirst().contains(true), "the name is print")
    }

    @Test func aWordWhoseLettersRanTogetherIsPrint() {
        // One dense box of letter height, four times as wide: a coloured word, letters touching.
        #expect(marks([(Box(x: 100, y: 100, width: 60, height: 14), 60 * 14 / 2)]) == [false])
    }

    @Test func aLoneTickInTheMarginIsAMark() {
        #expect(marks([(Box(x: 30, y: 600, width: 22, height: 26), 120)]) == [true])
        // The same stroke among letters of its row is not alone.
        let letters = row(x: 60, y: 612, count: 5)
        #expect(marks([(Box(x: 30, y: 600, width: 22, height: 26), 120)] + letters).dropFirst().allSatisfy { !$0 })
    }

    @Test func aFadedFramesPiecesGoWithIt() {
        // A signature loop (tall, thin) and two small pieces of its stroke just beside it.
        let loop = (Box(x: 200, y: 800, width: 60, height: 55), 300)
        let pieces = [(Box(x: 264, y: 830, width: 6, height: 8), 30), (Box(x: 272, y: 828, width: 9, height: 6), 30)]
        #expect(marks([loop] + pieces) == [true, true, true])
    }

    @Test func aColouredBandRoundThePageIsNoFrame() {
        // A thin coloured border round most of the page: a mark itself, but what lies inside it
        // (a letterhead that is not in rows: three words far apart) is not taken with it.
        let border = (Box(x: 10, y: 10, width: 980, height: 1380), 2 * (980 + 1380) * 4)
        let words = [(Box(x: 100, y: 200, width: 60, height: 14), 420), (Box(x: 400, y: 500, width: 60, height: 14), 420)]
        #expect(marks([border] + words) == [true, false, false])
    }

    @Test func thePenUnderliningALineIsAMark() {
        #expect(marks([(Box(x: 100, y: 400, width: 300, height: 4), 900)]) == [true])
    }
}
