import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorApp
import Foundation
import Testing

/// The household's lab values: read from each lab result's text as it stands now, with the day
/// the sample was taken, by analysis under one name.
@Suite struct LabValuesTests {
    static func result(taken: String, hba1c: String, kalium: String) -> String {
        """
        Fürst Medisinsk Laboratorium
        Pasient: Kari Nordmann
        Prøvetatt: \(taken)
        Svar sendt: 20.06.2025
        Analyse Resultat Enhet Referanseområde
        Glykert hemoglobin \(hba1c) mmol/mol 20 - 42
        Kalium \(kalium) mmol/L 3,5 - 4,4
        """
    }

    @Test func theSamplingDayIsTheValuesDay() {
        #expect(LabSampling.date(in: Self.result(taken: "17.06.2025 kl. 08.15", hba1c: "45 H", kalium: "4,1"))?.iso == "2025-06-17")
        #expect(LabSampling.date(in: "Prøvedato 3. mars 2024\nHbA1c 40 mmol/mol")?.iso == "2024-03-03")
        #expect(LabSampling.date(in: "Prøve teken: 04.12.2024 kl. 10:11\nMotteken: 05.12.2024")?.iso == "2024-12-04", "in Nynorsk")
        #expect(LabSampling.date(in: "Dato: 20.06.2025\nHbA1c 40 mmol/mol") == nil, "the letter's date is not the sample's")
        // In a sentence about the samples, the date on its line or the next.
        #expect(LabSampling.date(in: "Oslo, 19. august 2025\nVi har nå fått svar på blodprøvene som ble tatt hos oss 18.08.2025.")?.iso == "2025-08-18")
        #expect(LabSampling.date(in: "Prøvene som vart tekne hjå oss\n3. mars 2024, viser")?.iso == "2024-03-03")
        #expect(LabSampling.date(in: "Vi tar nye prøver 12.09.2025.") == nil, "samples to be taken")
        #expect(LabSampling.date(in: "Du har tatt kontakt 12.09.2025.") == nil, "no samples")
    }

    @Test func valuesByAnalysisAndDayFromTheTextAsItStandsNow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-labs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let household = try Household.open(LibraryLocation(directory: dir.appendingPathComponent("bibliotek")), environment: [:])
        let library = household.library
        func letter(_ seed: String, date: String, person: String, text: String) -> LibraryDocument {
            LibraryDocument(sha256: String(repeating: seed, count: 32), sourceName: "lab.jpg", title: "\(date) Lab-svar Fürst",
                            docType: .labSvar, person: person, familyMember: person, institution: "Fürst", documentDate: date, text: text)
        }
        let early = letter("a1", date: "2025-01-10", person: "Kari Nordmann", text: Self.result(taken: "08.01.2025", hba1c: "48 H", kalium: "4,0"))
        let late = letter("b2", date: "2025-06-20", person: "Kari Nordmann", text: Self.result(taken: "17.06.2025", hba1c: "45 H", kalium: "4,1"))
        let other = letter("c3", date: "2025-05-01", person: "Ola Nordmann", text: Self.result(taken: "30.04.2025", hba1c: "39", kalium: "3,9"))
        try library.documents.record([early, late, other])

        let kari = try household.labs(person: "Kari", analysis: "hba1c")
        #expect(kari.map(\.sampled) == ["2025-01-08", "2025-06-17"], "the sampling day, oldest first")
        #expect(kari.map(\.value) == ["48", "45"] && kari.allSatisfy { $0.analysis == "HbA1c" && $0.unit == "mmol/mol" && $0.flag == "H" })
        #expect(kari.allSatisfy { $0.range == "20 - 42" && $0.person == "Kari Nordmann" })
        #expect(kari.map(\.letter) == [early.shortID, late.shortID])
        #expect(try household.labs(analysis: "Glykert hemoglobin").count == 3, "the printed name finds it too")
        #expect(try household.labs(person: "Ola").map(\.analysis) == ["HbA1c", "Kalium"])

        // A value corrected in the text is the value.
        _ = try household.correctText(late.shortID, to: Self.result(taken: "17.06.2025", hba1c: "44 H", kalium: "4,1"))
        #expect(try household.labs(person: "Kari", analysis: "HbA1c").map(\.value) == ["48", "44"])

        // New rules read every lab letter's values again, keeping a person's confirmation.
        #expect(try library.documents.rereadLabsIfRulesChanged(version: LabTable.rulesVersion) == 0, "the rules the values were read by")
        #expect(try library.documents.rereadLabsIfRulesChanged(version: LabTable.rulesVersion + 1) == 3)
        #expect(try library.documents.lettersWithLabsToRead().count == 3)
        #expect(try household.fillLabs() == 3 && library.documents.lettersWithLabsToRead().isEmpty)
        #expect(try library.documents.labs(of: late.sha256).first { $0.analysis == "HbA1c" }?.confirmed == true)
    }
}
