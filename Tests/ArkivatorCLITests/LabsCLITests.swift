import Foundation
import TestSupport
import Testing

/// `arkivator labs`: the lab values of a lab result filed from its photo, as a table, CSV and JSON.
@Suite struct LabsCLITests {
    @Test func aFiledLabResultGivesItsValues() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let ingest = try CLI.run(["ingest", "--json", Fixtures.root.appendingPathComponent("samples/labsvar-ren.png").path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            let json = try CLI.run(["labs", "--json"], library: library)
            #expect(json.status == 0, "\(json.stderr)")
            let values = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(values.count >= 5, "\(json.stdout)")
            #expect(values.allSatisfy { ($0["sampled"] as? String)?.count == 10 && $0["analysis"] != nil && $0["value"] != nil && $0["letter"] != nil })
            let table = try CLI.run(["labs"], library: library)
            #expect(table.status == 0 && table.lines.count == values.count)
            let csv = try CLI.run(["labs", "--csv"], library: library)
            #expect(csv.lines.first == "prøvedato;person;analyse;verdi;enhet;referanse;flagg;usikker;brev" && csv.lines.count == values.count + 1)
            let one = try #require(values.first?["analysis"] as? String)
            let only = try CLI.run(["labs", "--analysis", one, "--json"], library: library)
            let filtered = try #require(try JSONSerialization.jsonObject(with: Data(only.stdout.utf8)) as? [[String: Any]])
            #expect(!filtered.isEmpty && filtered.allSatisfy { $0["analysis"] as? String == one })
            #expect(try CLI.run(["labs", "--csv", "--json"], library: library).status != 0)
            let nobody = try CLI.run(["labs", "--person", "Ingen Slik"], library: library)
            #expect(nobody.status == 0 && nobody.stdout.contains("Fant ingen prøvesvar"))
        }
    }
}
