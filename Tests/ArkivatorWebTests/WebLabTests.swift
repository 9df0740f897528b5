import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// «Prøvesvar»: a member's lab values over time, a chart per analysis drawn on the server as
/// SVG with a table beside it; each point opens its letter with the value outlined on the page;
/// a value in doubt is hollow until someone says it is right.
@Suite struct WebLabTests {
    static func result(taken: String, hba1c: String, kreatinin: String) -> String {
        """
        Fürst Medisinsk Laboratorium
        Pasient: Kari Nordmann
        Prøvetatt: \(taken)
        Analyse Resultat Enhet Referanseområde
        HbA1c \(hba1c) mmol/mol 20 - 42
        Kreatinin \(kreatinin) µmol/L 45 - 90
        """
    }

    /// Three lab results for Kari (the last with the values' boxes on its page, its HbA1c in
    /// doubt) and one for Ola.
    static func fileResults(_ fixture: WebFixture) throws -> (last: String, ola: String) {
        func file(_ seed: String, date: String, person: String, text: String, labs: [LabEntry]? = nil) throws -> String {
            var document = LibraryDocument(sha256: String(repeating: seed, count: 32), sourceName: "lab.jpg", title: "\(date) Prøvesvar Fürst",
                                           docType: .labSvar, person: person, familyMember: person, institution: "Fürst",
                                           documentDate: date, text: text,
                                           pages: [LibraryDocument.Page(number: 1, ocrConfidence: 0.9, width: 2480, height: 3508)])
            document.labs = labs
            let image = fixture.library.defaultArchiveRoot.appendingPathComponent("\(person)/Bilder/\(document.title).jpeg")
            _ = try fixture.library.documents.file(document) { reservation in
                try reservation.reserve([image])
                try FileManager.default.createDirectory(at: image.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: image)
                return [ArchivedFile(kind: .image, page: 1, path: image.path)]
            }
            return document.shortID
        }
        _ = try file("c1", date: "2024-01-12", person: "Kari Nordmann", text: result(taken: "10.01.2024", hba1c: "48 H", kreatinin: "70"))
        _ = try file("c2", date: "2024-06-20", person: "Kari Nordmann", text: result(taken: "17.06.2024", hba1c: "44 H", kreatinin: "72"))
        let last = try file("c3", date: "2025-01-15", person: "Kari Nordmann", text: result(taken: "14.01.2025", hba1c: "41", kreatinin: "95 H"),
                            labs: [LabEntry(analysis: "HbA1c", printed: "HbA1c", value: "41", unit: "mmol/mol", range: "20 - 42", flag: nil,
                                            doubtful: true, sampled: "2025-01-14", page: 1, box: [900, 1200, 120, 50], start: 120, length: 2),
                                   LabEntry(analysis: "Kreatinin", printed: "Kreatinin", value: "95", unit: "µmol/L", range: "45 - 90", flag: "H",
                                            doubtful: false, sampled: "2025-01-14", page: 1, box: [900, 1260, 120, 50], start: 160, length: 2)])
        let ola = try file("c4", date: "2024-03-01", person: "Ola Nordmann", text: result(taken: "28.02.2024", hba1c: "77 H", kreatinin: "80"))
        return (last, ola)
    }

    @Test func aMembersValuesOverTimeEachPointOpensItsValueOnThePage() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let (last, ola) = try Self.fileResults(fixture)
            let kari = try #require(try fixture.library.familyMembers().first { $0.name == "Kari Nordmann" }).id
            try await fixture.signedIn { client, browser in
                let page = try await client.execute(uri: "/family/\(kari)/provesvar", method: .get, headers: browser.headers)
                #expect(page.status == .ok)
                let html = page.text
                #expect(html.contains("6 verdier fra 3 brev, 2 analyser"))
                #expect(html.contains("<h2 id=\"analyse-1\">HbA1c <span class=\"meta\">(mmol/mol)</span></h2>"))
                #expect(html.contains("<svg viewBox=\"0 0 320 160\" role=\"group\" aria-labelledby=\"analyse-1-tekst\">"))
                // The text alternative: the latest value, its range, the trend since the first.
                #expect(html.contains("HbA1c: siste verdi 41 mmol/mol (14.01.2025), referanseområde 20 - 42 – usikker, sjekk mot sidebildet. Ned fra 48 (10.01.2024). 3 målinger."))
                #expect(html.contains("Kreatinin: siste verdi 95 µmol/L (14.01.2025), over referanseområdet 45 - 90. Opp fra 70 (10.01.2024)."))
                #expect(html.contains("class=\"lab-band\""), "the reference band behind the values")
                #expect(html.contains("class=\"lab-point lab-high\""), "a high value is a triangle")
                #expect(html.contains("class=\"lab-point lab-doubt\""), "a value in doubt is hollow")
                #expect(html.contains("1 verdi kan være feillest"))
                #expect(!html.contains("<strong>77</strong>") && !html.contains(" 77 mmol/mol"), "Ola's values are not on Kari's page")
                #expect(!html.contains("style="), "no inline style: the Content-Security-Policy allows none")

                // The point opens the letter with the value outlined on its page.
                let value = try #require(try fixture.library.documents.labs(of: last).first { $0.analysis == "HbA1c" })
                let link = "/documents/\(last)?verdi=\(value.id)#verdi"
                #expect(html.contains("href=\"\(link.replacingOccurrences(of: "&", with: "&amp;"))\""))
                let letter = try await client.execute(uri: "/documents/\(last)?verdi=\(value.id)", method: .get, headers: browser.headers)
                #expect(letter.text.contains("<figure class=\"page-image\" id=\"verdi\">"))
                #expect(letter.text.contains("<rect class=\"chosen\" x=\"850\" y=\"1150\" width=\"220\" height=\"150\"><title>HbA1c 41 mmol/mol – verdien du valgte</title></rect>"))
                #expect(letter.text.contains("Markert med blått: HbA1c 41 mmol/mol (14.01.2025)."))
                // Another letter's value outlines nothing here.
                let elsewhere = try await client.execute(uri: "/documents/\(ola)?verdi=\(value.id)", method: .get, headers: browser.headers)
                #expect(!elsewhere.text.contains("class=\"chosen\""))

                // «Stemmer»: the value is no longer in doubt, and the log says who said so.
                let confirm = try await client.execute(uri: "/provesvar/\(value.id)/stemmer", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(confirm.status == .seeOther)
                #expect(confirm.headers[.location] == "/family/\(kari)/provesvar?stemmer=1")
                let after = try await client.execute(uri: "/family/\(kari)/provesvar", method: .get, headers: browser.headers)
                #expect(!after.text.contains("lab-doubt") && !after.text.contains("kan være feillest"))
                let log = try await client.execute(uri: "/logg", method: .get, headers: browser.headers)
                #expect(log.text.contains("bekreftet en prøveverdi"))

                // One analysis in full.
                let one = try await client.execute(uri: "/family/\(kari)/provesvar?analyse=hba1c", method: .get, headers: browser.headers)
                #expect(one.text.contains("<title>Prøvesvar: Kari Nordmann – HbA1c") && !one.text.contains("Kreatinin"))
                #expect(one.text.contains("3 verdier fra 3 brev. Trykk") && one.text.contains("href=\"/family/\(kari)/provesvar\">Alle analyser</a>"))

                // Ola's page holds Ola's.
                let olaID = try #require(try fixture.library.familyMembers().first { $0.name == "Ola Nordmann" }).id
                let olas = try await client.execute(uri: "/family/\(olaID)/provesvar", method: .get, headers: browser.headers)
                #expect(olas.text.contains("HbA1c: siste verdi 77 mmol/mol (28.02.2024), over referanseområdet 20 - 42. Én måling."))
            }
        }
    }

    @Test func aCorrectedValueIsTheValueAndItsBoxStays() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let (last, _) = try Self.fileResults(fixture)
            try await fixture.signedIn { client, browser in
                let text = Self.result(taken: "14.01.2025", hba1c: "40", kreatinin: "95 H")
                let form = "_csrf=\(browser.csrf)&side1=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                let saved = try await client.execute(uri: "/documents/\(last)/text", method: .post, headers: browser.form, body: ByteBuffer(string: form))
                #expect(saved.status == .seeOther)
            }
            let values = try fixture.library.documents.labs(of: last)
            let hba1c = try #require(values.first { $0.analysis == "HbA1c" })
            #expect(hba1c.value == "40" && hba1c.confirmed && !hba1c.inDoubt, "a value a person typed is theirs")
            #expect(hba1c.box == [900, 1200, 120, 50], "the place on the page stays")
            #expect(values.first { $0.analysis == "Kreatinin" }?.confirmed == false)
        }
    }

    @Test func theDoctorsShareBeginsWithTheSharedLettersValues() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let (last, _) = try Self.fileResults(fixture)
            // Two of Kari's three results are shared: the summary knows those two alone.
            let made = try fixture.library.sharing.createShareLink(["c1c1c1c1c1", last])
            try await fixture.server.application().test(.router) { client in
                let page = try await client.execute(uri: "/delt/\(made.token)", method: .get)
                let html = page.text
                #expect(html.contains("<h2 id=\"shared-labs-title\">Prøvesvar</h2>"))
                let start = try #require(html.range(of: "<section class=\"shared-labs\""))
                let summary = String(html[start.lowerBound...].prefix { _ in true }.components(separatedBy: "</section>")[0])
                #expect(summary.contains("<th scope=\"row\">HbA1c</th>") && summary.contains("<strong>41</strong> mmol/mol"))
                #expect(summary.contains("ned fra 48 (10.01.2024), 2 målinger"), "the trend over the shared letters only")
                #expect(!summary.contains("44"), "a letter not shared says nothing")
                #expect(summary.contains("Usikker") && summary.contains("1 av 2 verdier kan være feillest"))
                #expect(summary.contains("<strong>95</strong> µmol/L <span class=\"badge lab-flag\">Høy</span>"))
                #expect(html.range(of: "shared-labs")?.lowerBound ?? html.endIndex < html.range(of: "shared-letter")?.lowerBound ?? html.startIndex,
                        "before the letters")
            }
        }
    }

    @Test func theAPIGivesALettersValues() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let (last, _) = try Self.fileResults(fixture)
            let token = try fixture.library.accounts.createAPIToken(name: "test").token
            try await fixture.server.application().test(.router) { client in
                let answer = try await client.execute(uri: "/api/v1/documents/\(last)", method: .get, headers: [.authorization: "Bearer \(token)"])
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any])
                let labs = try #require(object["labs"] as? [[String: Any]])
                #expect(labs.count == 2)
                #expect(labs.first?["analysis"] as? String == "HbA1c" && labs.first?["value"] as? String == "41"
                        && labs.first?["doubtful"] as? Bool == true && labs.first?["sampled"] as? String == "2025-01-14")
                #expect(labs.last?["flag"] as? String == "H" && labs.last?["unit"] as? String == "µmol/L")
            }
        }
    }
}
