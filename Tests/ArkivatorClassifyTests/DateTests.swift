import ArkivatorCore
@testable import ArkivatorClassify
import Foundation
import Testing

@Suite struct DateTests {
    private func dates(_ line: String) -> [String] { NorwegianDate.find(in: line).map(\.date.iso) }

    @Test func norwegianForms() {
        #expect(dates("Dato: 03.11.2025") == ["2025-11-03"])
        #expect(dates("3.11.25") == ["2025-11-03"])
        #expect(dates("Oslo, 3. november 2025") == ["2025-11-03"])
        #expect(dates("3. nov. 2025") == ["2025-11-03"])
        #expect(dates("2025-11-03") == ["2025-11-03"])
        #expect(dates("Bergen, 14. desember 2024") == ["2024-12-14"])
        #expect(dates("Voss, 6.5.2024") == ["2024-05-06"])
        #expect(dates("frå 1. januar 2025 til 31. mars 2025") == ["2025-01-01", "2025-03-31"])
        #expect(dates("31.02.2025").isEmpty)
        #expect(dates("Tlf. 22 45 13 00").isEmpty)
        #expect(dates("Org.nr. 983 974 724").isEmpty)
        #expect(dates("25/05981-8").isEmpty)
        #expect(dates("kl. 14.30").isEmpty)
    }

    private func letterDate(_ text: String) -> String? {
        Classifier(vocabulary: .standard).classify(text, scanDate: CalendarDate(year: 2026, month: 1, day: 1)!).documentDate
    }

    @Test func prefersTheLettersOwnDate() {
        #expect(letterDate("Sykehuset\nPasient: Kari Nordmann\nFødt: 12.04.1980\nDato: 03.11.2025\nInnkalling\nDu har fått time mandag 17.11.2025 kl. 10.00") == "2025-11-03")
        #expect(letterDate("Legekontoret\nInnlagt: 01.10.2025\nUtskrevet: 05.10.2025\nTrondheim, 7. oktober 2025\nEpikrise") == "2025-10-07")
        #expect(letterDate("Faktura\nFakturadato: 06.08.2024\nForfallsdato: 27.08.2024\nBehandlingsdato 04.07.2024") == "2024-08-06")
        #expect(letterDate("Brev\n01.09.2025\nVedtak\nVi mottok søknaden 05.07.2025") == "2025-09-01")
        #expect(letterDate("Prøvesvar\nPrøve tatt: 26.10.2025\nSvardato: 29.10.2025") == "2025-10-29")
    }

    @Test func birthDatesAreNotLetterDates() {
        #expect(letterDate("Pasient: Kari Nordmann, født 12.04.1980\nVi viser til samtale.\nStavanger, 2.2.2025") == "2025-02-02")
    }

    @Test func noDateFallsBackToTheScanDateAndIsFlagged() {
        let result = Classifier(vocabulary: .standard).classify("Et brev uten dato.\nMed vennlig hilsen", scanDate: CalendarDate(year: 2026, month: 1, day: 5)!)
        #expect(result.documentDate == "2026-01-05")
        #expect(result.documentDateSource == "scan")
        #expect(result.needsReview.contains("documentDate"))
    }
}

@Suite struct CalendarDateTests {
    @Test func isoIsExactlyFourTwoTwoDigits() {
        #expect(CalendarDate(iso: "2024-03-05")?.iso == "2024-03-05")
        for loose in ["2024-3-5", "2024-03-5", "+2024-03-05", "2024-03-05T10:00", " 2024-03-05", "2024-02-30",
                      "2024-13-01", "２０２４-03-05", "", "20240305", "2024/03/05", "1899-12-31"] {
            #expect(CalendarDate(iso: loose) == nil, "\(loose)")
        }
        #expect(CalendarDate.isoComponents("1855-06-01").map { [$0.year, $0.month, $0.day] } == [1855, 6, 1], "birth dates reach before 1900")
    }

    @Test func roundTripsThroughJSON() throws {
        let date = try #require(CalendarDate(iso: "2025-11-03"))
        let data = try JSONEncoder().encode([date])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2025-11-03\"]")
        #expect(try JSONDecoder().decode([CalendarDate].self, from: data) == [date])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarDate].self, from: Data("[\"2025-1-3\"]".utf8)) }
    }
}
