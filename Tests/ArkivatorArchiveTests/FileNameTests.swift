import ArkivatorCore
@testable import ArkivatorArchive
import Foundation
import PropertyBased
import Testing

@Suite struct FileNameTests {
    func clean(_ name: String, maxBytes: Int = 200) -> String { FileName.sanitized(name, maxBytes: maxBytes) }

    @Test func plainTitlesAreKept() {
        #expect(clean("2024-03-01 Innkalling til MR, Ullevål") == "2024-03-01 Innkalling til MR, Ullevål")
        #expect(clean("Kari Nordmann") == "Kari Nordmann")
        #expect(clean("Brev (kopi) #2 – 50 %") == "Brev (kopi) #2 – 50 %")
    }

    @Test func pathSeparatorsAndTraversal() {
        #expect(clean("../../etc/passwd") == "etc passwd")
        #expect(clean("..\\..\\Windows\\System32") == "Windows System32")
        #expect(clean("a/b\\c") == "a b c")
        #expect(clean("/") == FileName.fallback)
        #expect(!clean("x/../../y").contains("/"))
    }

    @Test func nulAndControlCharacters() {
        #expect(clean("a\0b") == "a b")
        #expect(clean("\0") == FileName.fallback)
        #expect(clean("brev\0.docx") == "brev .docx")
        #expect(clean("a\u{7}b\u{1B}[31mc") == "a b [31mc")
        #expect(clean("a\u{7F}b\u{85}c\u{9F}d") == "a b c d")
    }

    @Test func tabsNewlinesAndWhitespaceRunsCollapse() {
        #expect(clean("a\t\tb\n\r\nc") == "a b c")
        #expect(clean("  a    b  ") == "a b")
        #expect(clean("a\u{00A0}\u{2028}\u{3000}b") == "a b")
    }

    @Test func windowsForbiddenCharactersAreReplaced() {
        let result = clean("a<b>c:d\"e|f?g*h")
        #expect(result == "a b c d e f g h")
        #expect(clean("Hva nå?") == "Hva nå")
        #expect(clean("<>:\"|?*") == FileName.fallback)
    }

    @Test func leadingAndTrailingDotsAndSpaces() {
        #expect(clean(".hidden") == "hidden")
        #expect(clean("...abc...") == "abc")
        #expect(clean(" . .abc. . ") == "abc")
        #expect(clean("brev.") == "brev")
        #expect(clean("v1.2 brev") == "v1.2 brev")
    }

    @Test func onlyDotsAndEmptyBecomeTheFallback() {
        for name in [".", "..", "...", ".....", "", "   ", " . . ", "\t\n", "\u{200B}\u{FEFF}"] {
            #expect(clean(name) == "Uten tittel", "\(name.debugDescription)")
        }
        #expect(FileName.sanitized("..", fallback: "Ukjent person") == "Ukjent person")
    }

    @Test func reservedDeviceNamesGetASuffix() {
        #expect(clean("CON") == "CON_")
        #expect(clean("con") == "con_")
        #expect(clean("con.txt") == "con_.txt")
        #expect(clean("Nul.tar.gz") == "Nul_.tar.gz")
        #expect(clean("COM1") == "COM1_")
        #expect(clean("lpt9.docx") == "lpt9_.docx")
        #expect(clean("AUX .txt") == "AUX_ .txt")
        #expect(clean("com¹") == "com¹_")
        #expect(clean("CONIN$") == "CONIN$_")
        #expect(clean("PRN.") == "PRN_")
        // Not reserved: longer words and other numbers.
        #expect(clean("CONSOLE") == "CONSOLE")
        #expect(clean("com10") == "com10")
        #expect(clean("Connie") == "Connie")
        #expect(clean("Brev fra NUL") == "Brev fra NUL")
        #expect(FileName.isReservedDeviceName("lPt3.pdf"))
        #expect(!FileName.isReservedDeviceName("LPT"))
    }

    @Test func longNamesAreCutToTheByteBudget() {
        let long = String(repeating: "a", count: 300)
        #expect(clean(long).utf8.count == 200)
        #expect(clean(long, maxBytes: 100).utf8.count == 100)
        // Two-byte letters: never half a letter.
        let norwegian = String(repeating: "ø", count: 300)
        let cut = clean(norwegian, maxBytes: 101)
        #expect(cut.utf8.count == 100)
        #expect(cut.allSatisfy { $0 == "ø" })
        // A space exposed at the cut is trimmed.
        #expect(clean(String(repeating: "a", count: 199) + " b") == String(repeating: "a", count: 199))
    }

    @Test func emojiAreNeverSplit() {
        let family = "👨‍👩‍👧‍👦"  // 25 bytes, one Character
        #expect(family.utf8.count == 25)
        let cut = clean(String(repeating: family, count: 20))
        #expect(cut.utf8.count == 200)
        #expect(cut.count == 8)
        #expect(cut.allSatisfy { $0 == Character(family) })
        let flags = clean(String(repeating: "🇳🇴", count: 30), maxBytes: 30)  // 8 bytes each
        #expect(flags == String(repeating: "🇳🇴", count: 3))
        let skin = clean("x" + String(repeating: "👍🏽", count: 60), maxBytes: 20)  // 8 bytes each
        #expect(skin == "x👍🏽👍🏽")
    }

    @Test func combiningSequencesAreNeverSplit() {
        let devanagari = String(repeating: "क्षि", count: 40)  // 12 bytes per cluster
        let cut = clean(devanagari, maxBytes: 50)
        #expect(cut.utf8.count <= 50)
        #expect(cut == String(repeating: "क्षि", count: 4))
        // A letter with two marks that does not fully compose stays whole.
        let marked = String(repeating: "q\u{307}\u{323}", count: 50)  // 5 bytes each
        let markedCut = clean(marked, maxBytes: 22)
        #expect(markedCut.unicodeScalars.count % 3 == 0)
        #expect(markedCut.utf8.count == 20)
    }

    @Test func nfdInputBecomesNFC() {
        let nfd = "Re\u{301}sume\u{301} fra Tromsø og A\u{30A}lesund"
        let result = clean(nfd)
        #expect(result == "Résumé fra Tromsø og Ålesund")
        #expect(Array(result.unicodeScalars) == Array("R\u{E9}sum\u{E9} fra Troms\u{F8} og \u{C5}lesund".unicodeScalars))
        // 150 decomposed é (3 bytes each) compose to 2 bytes each: 100 fit in 200 bytes.
        let many = clean(String(repeating: "e\u{301}", count: 150))
        #expect(many.unicodeScalars.allSatisfy { $0 == "\u{E9}" })
        #expect(many.utf8.count == 200)
        // A removed mark between base and accent lets them compose.
        #expect(Array(clean("e\u{200B}\u{301}").unicodeScalars) == ["\u{E9}"])
    }

    @Test func directionMarksCannotDisguiseAnExtension() {
        #expect(clean("brev\u{202E}fdp.exe") == "brevfdp.exe")
        #expect(clean("\u{FEFF}Brev") == "Brev")
    }

    @Test func marksWithNothingToSitOnAreDropped() {
        #expect(clean("\u{301}abc") == "abc")
        #expect(clean("\u{301}") == FileName.fallback)
        #expect(clean("a \u{301}\u{308}b") == "a b")
        #expect(clean("a/\u{301}b") == "a b")
        #expect(clean(".\u{301}skjult") == "skjult")
        #expect(clean("\u{1F3FD}x") == "x")  // a lone skin tone joins what precedes it
        #expect(clean("x\u{600}") == "x")  // a prepended mark would join the extension
        #expect(clean("e\u{301}") == "\u{E9}")
    }

    @Test func pilesOfCombiningMarksAreTamed() {
        let zalgo = "Z" + String(repeating: "\u{301}", count: 300) + "algo"
        #expect(clean(zalgo) == "Źalgo")
        let onlyMarks = String(repeating: "\u{301}", count: 300)
        let result = clean(onlyMarks)
        #expect(!result.isEmpty && result.utf8.count <= 200)
    }

    @Test func tinyBudgetsAreRaisedToTheMinimum() {
        #expect(clean(String(repeating: "a", count: 50), maxBytes: 1).utf8.count == FileName.minimumBudget)
        #expect(clean("", maxBytes: 0) == "Uten tittel")
    }

    /// Over hostile inputs and budgets: a clean, NFC, bounded, stable name.
    @Test func everyResultIsSafe() async {
        await propertyCheck(count: 600, input: Gen.int(in: 0...10_000).array(of: 0...25), Gen.int(in: 16...255)) {
            indexes, budget in
            let input = Hostile.string(indexes)
            let name = FileName.sanitized(input, maxBytes: budget)
            #expect(!name.isEmpty)
            #expect(name.utf8.count <= budget, "\(input.debugDescription)")
            #expect(Array(name.unicodeScalars) == Array(name.precomposedStringWithCanonicalMapping.unicodeScalars))
            #expect(name != "." && name != "..")
            let scalars = Array(name.unicodeScalars)
            #expect(scalars.first != "." && scalars.first != " " && scalars.last != "." && scalars.last != " ")
            // Nothing merges with a `/` before it or an extension after it.
            #expect(("/" + name).count == name.count + 1 && (name + ".docx").count == name.count + 5, "\(input.debugDescription)")
            #expect((name + " (2)").count == name.count + 4)
            #expect(!name.contains("  "))
            #expect(!FileName.isReservedDeviceName(name))
            let forbidden = Set("/\\<>:\"|?*".unicodeScalars)
            #expect(!name.unicodeScalars.contains { forbidden.contains($0) || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            #expect(FileName.sanitized(name, maxBytes: budget) == name, "not stable: \(name.debugDescription)")
        }
    }
}
