import ArkivatorCore
import Testing

/// Names printed with their control characters visible.
@Suite struct ShownNameTests {
    @Test func controlCharactersAreEscaped() {
        #expect(ShownName.of("brev\n✔ falsk.png") == #"brev\n✔ falsk.png"#)
        #expect(ShownName.of("rød\u{1B}[31m.png") == #"rød\u{1B}[31m.png"#)
        #expect(ShownName.of("a\tb\rc\u{7F}\u{9B}") == #"a\tb\rc\u{7F}\u{9B}"#)
        #expect(ShownName.of("gnp.\u{202E}brev.exe") == #"gnp.\u{202E}brev.exe"#)
        #expect(ShownName.of("linje\u{2028}to") == #"linje\u{2028}to"#)
    }

    @Test func ordinaryNamesAreLeftAlone() {
        for name in ["Brev fra sykehuset/side 1.png", "Ærlig øre å.pdf", "C:\\skann\\1.jpg", "📄 brev.heic", ""] {
            #expect(ShownName.of(name) == name)
        }
        // Escaping twice changes nothing more (a name shown in a line that is shown again).
        let once = ShownName.of("a\nb\u{1B}")
        #expect(ShownName.of(once) == once)
        #expect(!once.contains("\n") && !once.contains("\u{1B}"))
    }

    @Test func messagesKeepTheirLinesOnly() {
        #expect(ShownName.lines("Første linje\nandre \u{1B}[2J linje\r") == #"Første linje"# + "\n" + #"andre \u{1B}[2J linje\r"#)
    }

    @Test func namesHideNumbersAndPrintedTextKeepsThem() {
        // 26018704454: the example number of the fødselsnummer docs (valid control digits).
        #expect(!ShownName.of("skann 26018704454.png").contains("26018704454"))
        #expect(ShownName.escapedLines("Pasient 26018704454\nneste \u{1B}[2J") == "Pasient 26018704454\n" + #"neste \u{1B}[2J"#)
        #expect(ShownName.escaped("tittel\u{1B}[31m") == #"tittel\u{1B}[31m"#)
    }
}

/// Dates as a person types them in a form, and as a Norwegian reads them.
@Suite struct TypedDateTests {
    @Test func theWaysADateIsTyped() {
        for text in ["2025-12-01", "01.12.2025", "1.12.2025", "1/12/2025", "1. desember 2025", "1 des 2025", " 01.12.2025 ", "1 December 2025"] {
            #expect(CalendarDate(typed: text)?.iso == "2025-12-01", "\(text)")
        }
        for text in ["31.02.2025", "01.12.25", "i går", "1. smurf 2025", "2025-12-1", ""] {
            #expect(CalendarDate(typed: text) == nil, "\(text)")
        }
        #expect(CalendarDate(year: 2025, month: 3, day: 5)?.norwegian == "05.03.2025")
    }
}
