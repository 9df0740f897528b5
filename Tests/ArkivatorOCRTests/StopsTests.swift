@testable import ArkivatorOCR
import Testing

/// A typewriter's full stop read as a comma or an "e", and a comma read with the next word: the
/// signs' boxes decide (boxes as a reading of a typewritten page gave them).
@Suite struct StopsTests {
    /// "1940." read "1940,": the last mark is a round blot on the digits' line.
    @Test func aRoundBlotOnTheLineIsAFullStop() {
        let year = PageLayout.Word(text: "1940,", confidence: 0.8, box: [1086, 1582, 134, 43])
        let symbols = [[1086, 1583, 22, 34], [1112, 1583, 24, 42], [1140, 1582, 24, 34], [1168, 1584, 24, 34], [1200, 1606, 16, 14]]
        #expect(PageLayout.fullStop(year, symbols: symbols).text == "1940.")
        let ordinal = PageLayout.Word(text: "3e", confidence: 0.6, box: [900, 400, 44, 36])
        #expect(PageLayout.fullStop(ordinal, symbols: [[900, 400, 22, 35], [928, 421, 15, 14]]).text == "3.")
    }

    /// A comma hangs below the line and is taller than wide; an "e" after a small letter, a small
    /// print and boxes that are not one to a sign are left alone.
    @Test func aCommaAndWhatCannotBeJudgedStay() {
        let word = PageLayout.Word(text: "Personer,", confidence: 0.9, box: [838, 2092, 262, 41])
        var symbols = [[838, 2092, 24, 33]]
        for index in 0..<7 { symbols.append([866 + 28 * index, 2099, 24, 26]) }
        symbols.append([1066, 2112, 14, 21])
        #expect(PageLayout.fullStop(word, symbols: symbols).text == "Personer,")
        #expect(!PageLayout.mayBeStop("Hele") && PageLayout.mayBeStop("Ge") && PageLayout.mayBeStop("Nr,"))
        let small = PageLayout.Word(text: "19,", confidence: 0.8, box: [10, 10, 30, 12])
        #expect(PageLayout.fullStop(small, symbols: [[10, 10, 8, 11], [19, 10, 8, 11], [29, 17, 4, 4]]).text == "19,")
        let year = PageLayout.Word(text: "1940,", confidence: 0.8, box: [1086, 1582, 134, 43])
        #expect(PageLayout.fullStop(year, symbols: [[1086, 1582, 134, 43]]).text == "1940,")
    }

    @Test func aCommaBetweenTwoWordsIsFollowedByASpace() {
        #expect(PageLayout.commaBetweenWords("tilhører,henholdsvis") == 8)
        #expect(PageLayout.commaBetweenWords("Formue,der.") == 6)
        for text in ["2,5", "Personer,", "a,b", "3,5-4,4", "f.eks.,da", "NO,1234"] {
            #expect(PageLayout.commaBetweenWords(text) == nil, "\(text)")
        }
        let word = PageLayout.Word(text: "Formue,der", confidence: 0.8, box: [100, 50, 200, 30])
        let parts = PageLayout.commaApart(word, at: 6, symbols: [])
        #expect(parts.map(\.text) == ["Formue,", "der"])
        #expect(parts[0].box[0] == 100 && parts[1].box[0] + parts[1].box[2] == 300)
        #expect(parts[0].box[0] + parts[0].box[2] <= parts[1].box[0])
    }
}
