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
    }

    /// Boxes as Tesseract gives them as often as not: a digit's box two digits wide, two boxes
    /// over one digit, a box a third of its digit's width. They say nothing of spaces.
    @Test func signsBoxesThatAreNotPlainSayNothing() {
        #expect(word("1480", [[1698, 188, 4, 19], [1707, 188, 13, 18], [1723, 188, 19, 18], [1745, 189, 6, 16]]) == ["1480"])
        #expect(word("8092", [[1581, 226, 19, 17], [1598, 225, 12, 20], [1604, 227, 19, 17], [1627, 225, 10, 20]]) == ["8092"])
        #expect(word("1530", [[257, 795, 22, 37], [283, 794, 26, 37], [311, 794, 54, 37], [341, 794, 24, 38]]) == ["1530"])
        #expect(word("975000", [[1075, 2633, 17, 38], [1094, 2633, 15, 38], [1115, 2633, 25, 38], [1137, 2648, 16, 23],
                                [1163, 2633, 15, 38], [1181, 2633, 30, 38]]) == ["975000"])
        #expect(word("27037647441", [[450, 1032, 18, 27], [472, 1031, 17, 28], [492, 1032, 19, 27], [514, 1032, 18, 27],
                                     [535, 1031, 17, 28], [556, 1032, 40, 27], [577, 1031, 21, 28], [599, 1031, 18, 28],
                                     [619, 1031, 18, 28], [619, 1032, 40, 27], [664, 1032, 16, 27]]) == ["27037647441"])
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

    /// A fødselsnummer Tesseract cut in two, the last digit's box inside the rest's: one word
    /// again, kept doubtful, so it reads as a fødselsnummer and is masked.
    @Test func digitsCutWhereNoSpaceStandsAreOneNumberAgain() {
        let rest = PageLayout.Word(text: "1006206081", confidence: 0.93, box: [869, 1214, 162, 25])
        let last = PageLayout.Word(text: "1", confidence: 0.88, box: [1024, 1215, 20, 24])
        let joined = PageLayout.joinedDigits(rest, last)
        #expect(joined?.text == "10062060811" && joined?.box == [869, 1214, 175, 25])
        #expect(joined.map { $0.confidence <= 0.5 } == true)
        var layout = PageLayout()
        layout.startBlock(box: [700, 1200, 400, 60])
        for word in [PageLayout.Word(text: "f.nr.", confidence: 0.9, box: [803, 1218, 47, 23]), rest, last] { layout.add(word) }
        #expect(layout.blocks[0].paragraphs[0][0].map(\.text) == ["f.nr.", "10062060811"])
        // A space between them, another line, a word that is not all digits: two words.
        #expect(PageLayout.joinedDigits(rest, PageLayout.Word(text: "1", confidence: 0.9, box: [1040, 1215, 10, 24])) == nil)
        #expect(PageLayout.joinedDigits(rest, PageLayout.Word(text: "1", confidence: 0.9, box: [1024, 1250, 10, 24])) == nil)
        #expect(PageLayout.joinedDigits(rest, PageLayout.Word(text: "1,5", confidence: 0.9, box: [1024, 1215, 30, 24])) == nil)
        #expect(PageLayout.joinedDigits(PageLayout.Word(text: "kl.", confidence: 0.9, box: [869, 1214, 162, 25]), last) == nil)
    }

    /// "Dato 9.12." ending the address block's first line, and "2024" just after it, a block
    /// of its own (boxes of a real reading): one date again. Farther off, or on another line, or
    /// after a word, the two stay apart.
    @Test func aDateCutAcrossTwoBlocksIsOneDateAgain() {
        func layout(year: [Int], before: String = "9.12.") -> PageLayout {
            var layout = PageLayout()
            layout.startBlock(box: [300, 540, 1230, 40])
            for word in [PageLayout.Word(text: "Dato", confidence: 0.95, box: [1355, 551, 60, 25]),
                         PageLayout.Word(text: before, confidence: 0.93, box: [1424, 551, 76, 25])] { layout.add(word) }
            layout.startBlock(box: year)
            layout.add(PageLayout.Word(text: "2024", confidence: 0.94, box: year))
            layout.startBlock(box: [300, 600, 400, 40])
            layout.add(PageLayout.Word(text: "Fastlege", confidence: 0.95, box: [300, 600, 120, 30]))
            layout.joinCutNumbers()
            return layout
        }
        let joined = layout(year: [1504, 552, 56, 25])
        #expect(joined.blocks.count == 2)
        #expect(joined.blocks[0].paragraphs[0][0].map(\.text) == ["Dato", "9.12.2024"])
        #expect(joined.blocks[0].paragraphs[0][0].last?.box == [1424, 551, 136, 26])
        #expect(layout(year: [1530, 552, 56, 25]).blocks.count == 3)
        #expect(layout(year: [1504, 590, 56, 25]).blocks.count == 3)
        #expect(layout(year: [1504, 552, 56, 25], before: "desember").blocks.count == 3)
    }

    /// A limit printed with a space after its sign ("< 3,0", "> 60"), read as one word: the sign
    /// apart where a quarter of the word's height of paper stands after it (boxes of a real
    /// reading); set close ("<5"), or with boxes that are not one to a sign, it stays whole.
    @Test func aLimitsSignASpaceBeforeItsNumberStandsApart() {
        let limit = PageLayout.Word(text: "<3,0", confidence: 0.9, box: [1273, 962, 76, 29])
        let parts = PageLayout.comparisonSignApart(limit, symbols: [[1273, 967, 18, 17], [1303, 962, 17, 25], [1325, 982, 3, 9], [1332, 962, 17, 25]])
        #expect(parts.map(\.text) == ["<", "3,0"])
        #expect(parts.map { $0.box[0] } == [1273, 1303])
        let above = PageLayout.Word(text: ">60", confidence: 0.9, box: [1273, 1128, 67, 26])
        #expect(PageLayout.comparisonSignApart(above, symbols: [[1273, 1133, 18, 17], [1303, 1128, 17, 26], [1323, 1129, 17, 24]]).map(\.text) == [">", "60"])
        let close = PageLayout.Word(text: "<5", confidence: 0.9, box: [1273, 962, 39, 29])
        #expect(PageLayout.comparisonSignApart(close, symbols: [[1273, 967, 18, 17], [1295, 962, 17, 25]]).map(\.text) == ["<5"])
        let wrong = PageLayout.Word(text: "<3,0", confidence: 0.9, box: [1497, 1627, 207, 81])
        #expect(PageLayout.comparisonSignApart(wrong, symbols: [[1497, 1627, 102, 81], [1603, 1627, 47, 81]]).map(\.text) == ["<3,0"])
        #expect(PageLayout.beginsWithComparisonSign("<3,0") && PageLayout.beginsWithComparisonSign(">60"))
        #expect(!PageLayout.beginsWithComparisonSign("<") && !PageLayout.beginsWithComparisonSign("<a") && !PageLayout.beginsWithComparisonSign("3<4"))
    }
}

