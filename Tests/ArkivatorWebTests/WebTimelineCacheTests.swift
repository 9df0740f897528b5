import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HummingbirdTesting
import Testing

/// A member's timeline gathered once and kept while the letters stay the same: the same page as
/// gathered anew, and every change to the letters shown at once, whichever connection made it.
@Suite struct WebTimelineCacheTests {
    static func letter(_ seed: String, _ title: String, _ type: DocumentType, member: String, date: String,
                       specialty: String? = nil, sender: String? = nil) -> LibraryDocument {
        WebTimelineTests.letter(seed, title, type, member: member, date: date, specialty: specialty, sender: sender)
    }

    static let letters = [
        letter("f1", "Henvisning Kardiologi", .henvisning, member: "Kari Nordmann", date: "2024-01-10",
               specialty: "Kardiologi", sender: "Lia legesenter"),
        letter("f2", "Epikrise Hjerteavdelingen", .epikrise, member: "Kari Nordmann", date: "2024-03-05",
               specialty: "Kardiologi", sender: "Haukeland universitetssjukehus"),
        letter("f3", "Resept Ibux", .resept, member: "Kari Nordmann", date: "2023-05-01", sender: "Apotek 1 Torget"),
    ]

    @Test func theKeptEpisodesGiveTheSamePage() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try fixture.library.documents.record(Self.letters)
            let kari = try #require(try fixture.library.familyMembers().first { $0.name == "Kari Nordmann" })
            let timelines = fixture.server.timelines
            try await fixture.signedIn { client, browser in
                let address = "/family/\(kari.id)/timeline"
                let gathered = try await client.execute(uri: address, method: .get, headers: browser.headers)
                #expect(gathered.status == .ok && gathered.text.contains("3 brev i 2 forløp"))
                #expect(timelines.gatherings == 1)
                for _ in 0..<3 {
                    let kept = try await client.execute(uri: address, method: .get, headers: browser.headers)
                    #expect(kept.text == gathered.text, "the kept episodes give the page they were gathered for")
                }
                // The filter, the number shown and the print view are the request's: the same episodes serve them.
                let filtered = try await client.execute(uri: address + "?fag=Apotek&antall=1", method: .get, headers: browser.headers)
                #expect(filtered.text.contains("<h3 id=\"forlop-1\">Apotek</h3>") && !filtered.text.contains("forlop-2"))
                let print = try await client.execute(uri: address + "?utskrift=1", method: .get, headers: browser.headers)
                #expect(print.text.contains("Resept Ibux") && print.text.contains("Epikrise Hjerteavdelingen"))
                #expect(timelines.gatherings == 1, "five requests, one gathering")
            }
            // What the cache hands out equals what is gathered anew.
            let read = try fixture.library.documents.timelineEntries(member: "Kari Nordmann", limit: 100)
            let fresh = TimelineView.Gathered(read.entries, capped: read.more)
            let kept = try timelines.gathered(member: "Kari Nordmann", limit: 100, in: fixture.library)
            #expect(kept.episodes == fresh.episodes && kept.letters == fresh.letters && kept.capped == fresh.capped)
            #expect(kept.areas.map(\.key) == fresh.areas.map(\.key) && kept.areas.map(\.letters) == fresh.areas.map(\.letters))
        }
    }

    /// A letter added, moved to another member and deleted: each shown on the next request, also
    /// when another connection to the same file (another process) made the change.
    @Test func everyChangeToTheLettersShowsAtOnce() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try fixture.library.documents.record(Self.letters)
            let members = try fixture.library.familyMembers()
            let kari = try #require(members.first { $0.name == "Kari Nordmann" })
            let ola = try #require(members.first { $0.name == "Ola Nordmann" })
            // As `ingest` or `edit` in another process: its own connections to the same database.
            let other = try Library.open(fixture.library.location)
            let timelines = fixture.server.timelines
            try await fixture.signedIn { client, browser in
                func page(_ member: FamilyMemberSummary) async throws -> String {
                    try await client.execute(uri: "/family/\(member.id)/timeline", method: .get, headers: browser.headers).text
                }
                #expect(try await page(kari).contains("3 brev i 2 forløp"))
                _ = try await page(kari)
                #expect(timelines.gatherings == 1)

                let added = Self.letter("f4", "Innkalling Hjertepoliklinikken", .innkalling, member: "Kari Nordmann",
                                        date: "2024-04-02", specialty: "Kardiologi", sender: "Haukeland universitetssjukehus")
                try other.documents.record([added])
                let withAdded = try await page(kari)
                #expect(withAdded.contains("4 brev i 2 forløp") && withAdded.contains("Innkalling Hjertepoliklinikken"))
                #expect(timelines.gatherings == 2)

                _ = try other.documents.edit(added.shortID, DocumentChanges(person: "Ola Nordmann"), programVersion: "test")
                let withoutMoved = try await page(kari)
                #expect(withoutMoved.contains("3 brev i 2 forløp") && !withoutMoved.contains("Innkalling Hjertepoliklinikken"))
                #expect(try await page(ola).contains("Innkalling Hjertepoliklinikken"), "shown under the member it moved to")

                _ = try fixture.library.documents.delete(Self.letters[2].shortID)
                let withoutDeleted = try await page(kari)
                #expect(withoutDeleted.contains("2 brev i 1 forløp") && !withoutDeleted.contains("Resept Ibux"), "deleted here")
                _ = try other.documents.delete(Self.letters[1].shortID, purge: true)
                let withoutPurged = try await page(kari)
                #expect(withoutPurged.contains("1 brev i 1 forløp") && !withoutPurged.contains("Epikrise Hjerteavdelingen"),
                        "deleted for good elsewhere")
                _ = try await page(kari)
                #expect(timelines.gatherings == 6, "once more for each change and for Ola, never for an unchanged library")
            }
        }
    }
}
