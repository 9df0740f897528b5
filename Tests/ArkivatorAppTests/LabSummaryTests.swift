import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorApp
import Foundation
import Testing

/// The doctor's summary and the FHIR export, from the values alone.
@Suite struct LabSummaryTests {
    static func reading(_ analysis: String, _ value: String, _ unit: String?, day: String, flag: String? = nil, doubtful: Bool = false,
                        range: String? = "20 - 42") -> LabReading {
        LabReading(entry: LabEntry(analysis: analysis, printed: analysis, value: value, unit: unit, range: range, flag: flag,
                                   doubtful: doubtful, sampled: day, start: 0, length: value.count),
                   letter: "a1a1a1a1a1", title: "\(day) Prøvesvar", documentDate: day, docType: .labSvar,
                   member: "Kari Nordmann", person: "Kari Nordmann")
    }

    @Test func latestValueAndTheChangeSinceTheFirst() {
        let summary = LabSummary([Self.reading("HbA1c", "6,5", "%", day: "2023-01-05"),
                                  Self.reading("HbA1c", "52", "mmol/mol", day: "2024-02-01", flag: "H"),
                                  Self.reading("HbA1c", "44", "mmol/mol", day: "2024-09-01", flag: "H", doubtful: true),
                                  Self.reading("Kreatinin", "70", "µmol/L", day: "2024-09-01", range: "45 - 90")])
        #expect(summary.lines.map(\.analysis) == ["HbA1c", "Kreatinin"])
        let hba1c = summary.lines[0]
        #expect(hba1c.value == "44" && hba1c.day == "2024-09-01" && hba1c.doubtful && hba1c.doubtfulCount == 1 && hba1c.count == 3)
        // 6,5 % is 47,5 mmol/mol by the master equation: 44 is below it.
        #expect(hba1c.direction == -1)
        #expect(hba1c.trend(.norwegian) == "ned fra 6,5 (05.01.2023), 3 målinger")
        #expect(summary.lines[1].trend(.english) == "one measurement")
    }

    @Test func aBundleOfObservationsWithCodesUnitsAndNoNumber() throws {
        let text = LabFHIR.bundle([Self.reading("HbA1c", "4,30", "mmol/mol", day: "2024-09-01", flag: "H"),
                                   Self.reading("CRP", "< 5", "mg/L", day: "2024-09-01", doubtful: true, range: "< 5"),
                                   Self.reading("Ukjent analyse", "1O", "x", day: "2024-09-01", range: nil)],
                                  birthDates: ["Kari Nordmann": "1987-01-26"])
        let bundle = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let resources = (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
        #expect(resources.map { $0["resourceType"] as? String } == ["Patient", "Observation", "Observation", "Observation"])
        #expect(resources[0]["birthDate"] as? String == "1987-01-26" && resources[0]["identifier"] == nil)
        #expect(text.contains("\"value\" : 4.30"), "the decimals as printed")
        let hba1c = resources[1]
        #expect((hba1c["code"] as? [String: Any])?["coding"] != nil && hba1c["status"] as? String == "final")
        let crp = resources[2]
        #expect(crp["status"] as? String == "preliminary", "in doubt")
        #expect((crp["valueQuantity"] as? [String: Any])?["comparator"] as? String == "<")
        #expect(((crp["referenceRange"] as? [[String: Any]])?.first?["high"] as? [String: Any])?["value"] as? Double == 5)
        #expect(resources[3]["valueString"] as? String == "1O" && (resources[3]["code"] as? [String: Any])?["coding"] == nil)
    }
}
