@testable import ArkivatorOCR
import Testing

/// A number whose groups of digits stand a space apart, read by Tesseract as one word, is cut
/// where its signs stand a space apart. The boxes are Tesseract's own, from letters read here.
@Suite struct DigitGroupsTests {
    private func word(_ text: String, _ symbols: [[Int]]) -> [String] {
        let left = symbols.map { $0[0] }.min() ?? 0, right = symbols.map { $0[0] + $0[2] }.max() ?? 0
        let word = PageLayout.Word(text: text, confidence: 0.9, box: [left, symbols[0][1], right - left, 37])
        return PageLayout.digitGroups(word, symbols: symbols).map(\.text)
    }

    @Test func aSumsThousandsAndATelephoneNumbersGroupsAreCut() {
        // "1 125,00" on an invoice.
        #expect(word("1125,00", [[1793, 1676, 19, 35], [1834, 1676, 19, 35], [1860, 1675, 20, 36], [1887, 1676, 21, 36],
                                 [1916, 1705, 6, 12], [1928, 1675, 22, 37], [1956, 1675, 22, 37]]) == ["1", "125,00"])
        // "915 02770": the narrow "1" stands farther from its neighbours' ink, but no farther
        // from their middles.
        #expect(word("91502770", [[1532, 226, 14, 19], [1551, 226, 6, 20], [1565, 226, 12, 19], [1587, 227, 13, 19],
                                  [1603, 226, 13, 20], [1619, 226, 13, 19], [1635, 226, 13, 20], [1650, 226, 13, 20]])
                == ["915", "02770"])
        // "97 50 00", the last box read wide.
        #expect(word("975000", [[1075, 2633, 17, 38], [1094, 2633, 15, 38], [1115, 2633, 25, 38], [1137, 2648, 16, 23],
                                [1163, 2633, 15, 38], [1181, 2633, 30, 38]]) == ["97", "50", "00"])
    }

    @Test func digitsEvenlySpacedStayOneNumber() {
        // A journal number, a fødselsnummer, a narrow "1" among wide digits.
        #expect(word("6640476", [[538, 1339, 22, 37], [565, 1339, 22, 37], [592, 1340, 23, 35], [620, 1339, 22, 37],
                                 [647, 1340, 23, 35], [675, 1340, 21, 35], [703, 1339, 22, 37]]) == ["6640476"])
        #expect(word("06041377265", [[862, 934, 17, 26], [881, 934, 18, 26], [901, 934, 18, 26], [920, 934, 19, 26],
                                     [943, 935, 13, 25], [960, 934, 17, 26], [980, 934, 17, 26], [1000, 934, 17, 26],
                                     [1019, 935, 17, 25], [1038, 934, 18, 26], [1058, 934, 17, 26]]) == ["06041377265"])
        #expect(word("410396", [[463, 750, 21, 29], [490, 750, 10, 29], [508, 749, 20, 31], [531, 749, 20, 31],
                                [552, 749, 19, 31], [553, 749, 42, 31]]) == ["410396"])
        // Boxes that do not match the signs one to one say nothing.
        #expect(word("1125,00", [[1793, 1676, 19, 35], [1834, 1676, 19, 35]]) == ["1125,00"])
    }

    @Test func onlyNumbersAreLookedAt() {
        #expect(TokenShape.mayBeDigitGroups("1125,00"))
        #expect(TokenShape.mayBeDigitGroups("33511100"))
        #expect(TokenShape.mayBeDigitGroups("975000."))
        #expect(!TokenShape.mayBeDigitGroups("125"))
        #expect(!TokenShape.mayBeDigitGroups("12.04.2024"))
        #expect(!TokenShape.mayBeDigitGroups("x10^9/L"))
        #expect(!TokenShape.mayBeDigitGroups("kr1500,00"))
    }
}
