import ArkivatorCore
@testable import ArkivatorClassify
import Testing

/// A date line damaged by OCR still gives the letter's date, and a repair never makes the letter's
/// date out of another date (birth, sampling, appointment). Lines and letters written for these tests.
@Suite struct DamagedDateTests {
    private func damaged(_ line: String) -> [String] { NorwegianDate.findDamaged(in: line).map(\.date.iso) }

    private func letterDate(_ text: String) -> String {
        Classifier(vocabulary: .standard).classify(text, scanDate: CalendarDate(year: 2026, month: 6, day: 1)!).documentDate
    }

    @Test func lettersReadForDigitsAreDigits() {
        #expect(damaged("Dato: 12.03.2O26") == ["2026-03-12"])
        #expect(damaged("Dato: l2.03.2026") == ["2026-03-12"])
        #expect(damaged("Brevdato I4.O5.2025") == ["2025-05-14"])
        #expect(damaged("Tromsø, 12. mars 2O26") == ["2026-03-12"])
        // Letters inside words stay letters, and a date printed whole is no repair.
        #expect(damaged("Dato: 12.03.2026").isEmpty)
        #expect(damaged("Olav Ibsen, Oslo").isEmpty)
        #expect(damaged("Tlf. 22 45 l3 00").isEmpty)
    }

    @Test func spacesInsideADateAreClosed() {
        #expect(damaged("Tromsø, 1 2. mars 2026") == ["2026-03-12"])
        #expect(damaged("Dato: 12.03 .2026") == ["2026-03-12"])
        #expect(damaged("Dato: 12 .03.2026") == ["2026-03-12"])
        #expect(damaged("Dato 1 9.02.2024") == ["2024-02-19"])
        #expect(damaged("Brevdato: 2 0.01.2025") == ["2025-01-20"])
        // Numbers that stand apart as words are not joined into a day.
        #expect(damaged("Rom 21 2. etasje").isEmpty)
        #expect(damaged("punkt 4 12.03.2026").isEmpty)
    }

    @Test func aBrokenMonthNameIsReadWhenOnlyOneMonthFits() {
        #expect(damaged("Tromsø, 12. rnars 2026") == ["2026-03-12"])
        #expect(damaged("Bodø, 3. septernber 2025") == ["2025-09-03"])
        #expect(damaged("Dato: 12. mar s 2026") == ["2026-03-12"])
        #expect(damaged("Dato: 5. oktobr 2025") == ["2025-10-05"])
        #expect(damaged("Ålesund, 12 mars 2026") == ["2026-03-12"])
        #expect(damaged("4, juli 2025") == ["2025-07-04"])
        // "jumi" is one letter from both juni and juli: no guess.
        #expect(damaged("Dato: 4. jumi 2025").isEmpty)
        // Short words are not taken for months.
        #expect(damaged("Dato: 4. mal 2025").isEmpty)
    }

    @Test func aDamagedDateLineGivesTheLettersDate() {
        #expect(letterDate("""
            Universitetssykehuset Nord-Norge HF
            Tromsø, 1 2. mars 2026
            Innkalling til samtale
            Pasient: Kari Nordmann, født 14.03.1980
            Du har fått time mandag 13. april 2026 kl. 10.00.
            """) == "2026-03-12")
        #expect(letterDate("""
            Storgata legesenter
            Dato: 12.03.2O26
            Regning
            Behandlingsdato: 02.03.2026
            Betalingsfrist: 26.03.2026
            """) == "2026-03-12")
        // A split day whose second digit alone reads as another date.
        #expect(letterDate("""
            Helfo – Helseøkonomiforvaltningen
            Brevdato: 1 9.02.2024
            Svar på søknad om refusjon
            Helfo har innvilget søknaden din om refusjon av utgifter til behandling 04.02.2024.
            """) == "2024-02-19")
        // The day's full stop read as a comma, the date alone on its line; the requisition's date
        // in the reference is not the letter's.
        #expect(letterDate("""
            Helse Stavanger – Avdeling for medisinsk biokjemi
            Referanse: 25/26854-1
            Deres ref: Rekv. 15.07.2024
            4, juli 2025
            Rekvirent: Lege Stian Gundersen
            Prøvetaking: 01.07.2025
            """) == "2025-07-04")
        #expect(letterDate("""
            Unilabs Laboratoriemedisin
            Svarrapport
            Prøve tatt: 09.03.2026
            Dato: 12.03 .2026
            """) == "2026-03-12")
    }

    @Test func aRepairNeverMakesAnotherDateTheLetters() {
        // The letter's date is printed whole: a damaged birth date beside it is no rival.
        #expect(letterDate("""
            Madla legekontor
            Dato: 12.03.2026
            Pasient: Kari Nordmann, født l4.O3.1980
            """) == "2026-03-12")
        // With the letter's date unreadable, a damaged sampling or appointment date is not taken
        // for it: they are read as what they are, and the letter's date stays unsure.
        let unreadable = Classifier(vocabulary: .standard).classify("""
            Unilabs Laboratoriemedisin
            Dato: ##.##.####
            Prøve tatt: l2.03.2026
            Du har fått time tirsdag 2O.04.2026 kl. 10.00
            """, scanDate: CalendarDate(year: 2026, month: 6, day: 1)!)
        #expect(unreadable.documentDate != "2026-03-12")
        #expect(unreadable.documentDate != "2026-04-20")
    }

    @Test func evidenceForAProposedDateIncludesRepairs() {
        let evidence = TextEvidence("Storgata legesenter\nDato: 12.03.2O26\nRegning")
        #expect(evidence.evidence(for: CalendarDate(year: 2026, month: 3, day: 12)!) == .damaged)
        #expect(evidence.evidence(for: CalendarDate(year: 2026, month: 3, day: 13)!) == .absent)
    }
}
