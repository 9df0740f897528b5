import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HummingbirdTesting
import Testing

/// A letter's appointment on its document page.
@Suite struct WebAppointmentTests {
    @Test func theDocumentPageShowsTheAppointment() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            var letter = LibraryDocument(sha256: String(repeating: "c3", count: 32), sourceName: "brev.jpg",
                                         title: "2025-05-01 Innkalling Nevrologisk poliklinikk", docType: .innkalling,
                                         person: "Kari Nordmann", familyMember: "Kari Nordmann", documentDate: "2025-05-01",
                                         text: "Innkalling")
            letter.appointments = [Appointment(date: "2025-06-03", time: "09:45", place: "Ullevål, bygg 25 <5. etasje>",
                                               bring: "Legitimasjon", change: "Ring 915 02770.")]
            try fixture.library.documents.record([letter])
            try await fixture.signedIn { client, browser in
                let page = try await client.execute(uri: "/documents/c3c3c3c3c3", method: .get, headers: browser.headers)
                #expect(page.status == .ok)
                #expect(page.text.contains("id=\"appointments-heading\">Time</h2>"))
                #expect(page.text.contains("03.06.2025 kl. 09:45"), "the day as a Norwegian reads it")
                #expect(page.text.contains("Ullevål, bygg 25 &lt;5. etasje&gt;"), "the place is escaped")
                #expect(page.text.contains("<dt>Ta med</dt><dd>Legitimasjon</dd>"))
                #expect(page.text.contains("Ring 915 02770."))
                // A letter without one shows no such section.
                let other = try await client.execute(uri: "/documents/b2b2b2b2b2", method: .get, headers: browser.headers)
                #expect(!other.text.contains("appointments-heading"))
            }
        }
    }
}
