import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HummingbirdTesting
import Testing

/// Each household member's timeline: upcoming appointments first, the letters in episodes, the
/// filter by area, «Vis eldre», the view for printing, and the ways there.
@Suite struct WebTimelineTests {
    static func letter(_ seed: String, _ title: String, _ type: DocumentType, member: String, date: String,
                       specialty: String? = nil, sender: String? = nil, text: String = "Brev") -> LibraryDocument {
        LibraryDocument(sha256: seed + String(repeating: "0", count: 64 - seed.count), sourceName: "brev.jpg",
                        title: "\(date) \(title)", docType: type, person: member, familyMember: member,
                        institution: sender, specialty: specialty, documentDate: date, text: text)
    }

    /// The part of `html` from `start` on, up to `end`.
    static func part(_ html: String, from start: String, to end: String) -> String {
        guard let from = html.range(of: start) else { return "" }
        let rest = html[from.lowerBound...]
        return String(rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)])
    }

    @Test func aMembersTimelineWithItsAppointmentFirst() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let today = try #require(CalendarDate.today())
            let soon = try #require(today.adding(days: 30)), written = try #require(today.adding(days: -5))
            var innkalling = Self.letter("c1", "Innkalling Hjertepoliklinikken", .innkalling, member: "Kari Nordmann",
                                         date: written.iso, specialty: "Kardiologi", sender: "Haukeland universitetssjukehus")
            innkalling.appointments = [Appointment(date: soon.iso, time: "10:30", place: "Sentralblokka, 2. etasje <øst>")]
            try fixture.library.documents.record([
                Self.letter("c2", "Henvisning Kardiologi", .henvisning, member: "Kari Nordmann", date: "2024-01-10",
                            specialty: "Kardiologi", sender: "Lia legesenter"),
                Self.letter("c3", "Epikrise Hjerteavdelingen", .epikrise, member: "Kari Nordmann", date: "2024-03-05",
                            specialty: "Kardiologi", sender: "Haukeland universitetssjukehus"),
                Self.letter("c4", "Prøvesvar", .labSvar, member: "Kari Nordmann", date: "2024-03-06",
                            sender: "Haukeland universitetssjukehus"),
                Self.letter("c5", "Resept Ibux", .resept, member: "Kari Nordmann", date: "2023-05-01", sender: "Apotek 1 Torget"),
                innkalling,
            ])
            let kari = try #require(try fixture.library.familyMembers().first { $0.name == "Kari Nordmann" })
            try await fixture.signedIn { client, browser in
                let address = "/family/\(kari.id)/timeline"
                let page = try await client.execute(uri: address, method: .get, headers: browser.headers)
                #expect(page.status == .ok)
                let html = page.text
                #expect(html.contains("<h1>Tidslinje: Kari Nordmann</h1>"))
                #expect(html.contains("5 brev i 3 forløp"))
                // The appointment first, before any episode, escaped.
                let upcoming = Self.part(html, from: "timeline-upcoming", to: "</section>")
                #expect(upcoming.contains("\(soon.norwegian) kl. 10:30") && upcoming.contains("Kardiologi, Haukeland universitetssjukehus"))
                #expect(upcoming.contains("Sentralblokka, 2. etasje &lt;øst&gt;"))
                #expect(upcoming.contains("href=\"/documents/c100000000\""))
                let first = try #require(html.range(of: "class=\"timeline-episode\""))
                #expect(try #require(html.range(of: "timeline-upcoming")).lowerBound < first.lowerBound)
                // Episodes newest first; the cardiology course holds the hospital's lab result.
                let episodes = html[first.lowerBound...]
                let headings = episodes.matches(of: /<h3 id="forlop-\d+">([^<]+)<\/h3>/).map { String($0.output.1) }
                #expect(headings == ["Kardiologi", "Kardiologi", "Apotek"], "\(headings)")
                let course = Self.part(html, from: "id=\"forlop-2\"", to: "</section>")
                #expect(course.contains("10.01.2024 – 06.03.2024 · 3 brev · Lia legesenter, Haukeland universitetssjukehus"))
                let order = ["c200000000", "c300000000", "c400000000"].compactMap { course.range(of: "/documents/\($0)")?.lowerBound }
                #expect(order.count == 3 && order == order.sorted(), "letters oldest first in an episode")
                #expect(course.contains("<span class=\"badge\">Henvisning</span>") && course.contains("<span class=\"badge\">Lab-svar</span>"))
                #expect(course.contains("class=\"thumb\""), "the letters' thumbnails, as in the lists")
                #expect(html.contains("href=\"\(address)?utskrift=1\""), "a «Skriv ut» link")
                #expect(html.contains("href=\"/?person=Kari%20Nordmann\""), "the letters in the library")

                // The filter by area: plain links, the chosen one marked.
                let areas = Self.part(html, from: "class=\"timeline-areas\"", to: "</nav>")
                #expect(areas.contains("href=\"\(address)\" aria-current=\"true\">Alle (5)</a>"))
                #expect(areas.contains("href=\"\(address)?fag=Kardiologi\">Kardiologi (4)</a>"))
                let filtered = try await client.execute(uri: address + "?fag=Apotek", method: .get, headers: browser.headers)
                #expect(filtered.text.contains("aria-current=\"true\">Apotek (1)</a>"))
                #expect(filtered.text.contains("<h3 id=\"forlop-1\">Apotek</h3>") && !filtered.text.contains("forlop-2"))
                #expect(filtered.text.contains("\(soon.norwegian) kl. 10:30"), "the appointments stay at the top")
                let none = try await client.execute(uri: address + "?fag=Urologi", method: .get, headers: browser.headers)
                #expect(none.status == .ok && none.text.contains("Ingen forløp i dette fagområdet."))

                // The view for printing: no thumbnails, filters or «Vis eldre»; a print button for scripts.
                let print = try await client.execute(uri: address + "?fag=Kardiologi&utskrift=1", method: .get, headers: browser.headers)
                #expect(print.status == .ok)
                #expect(print.text.contains("class=\"timeline timeline-print\"") && print.text.contains("/static/timeline.js"))
                #expect(print.text.contains("class=\"timeline-print-button\" hidden>Skriv ut</button>"))
                #expect(print.text.contains("href=\"\(address)?fag=Kardiologi\">Tilbake til tidslinjen</a>"))
                #expect(!print.text.contains("class=\"thumb\"") && !print.text.contains("timeline-areas"))
                #expect(print.text.contains("\(soon.norwegian) kl. 10:30") && print.text.contains("Skrevet ut \(today.norwegian)"))
                let script = try await client.execute(uri: "/static/timeline.js", method: .get, headers: browser.headers)
                #expect(script.status == .ok && script.text.contains("window.print()"))

                // Every value the template reads is answered by name.
                let entries = try fixture.library.documents.timelineEntries(member: "Kari Nordmann", limit: 10).entries
                let asked = TimelineView.Request(WebForm("fag=Kardiologi&antall=1"), memberID: kari.id, step: 20)
                let plan = TimelineView.Plan(TimelineView.Gathered(entries, capped: true), request: asked)
                let found = TimelineView.Found(member: "Kari Nordmann", plan: plan, summaries: try fixture.library.documents.summaries(rows: plan.shownRows),
                                               appointments: try fixture.library.calendar.appointments(), capped: true)
                let view = TimelineView(found, request: asked, words: Words(try Templates.load(), language: .norwegian))
                let values = TemplateValuesTests()
                values.answersEveryField(view)
                values.answersEveryField(try #require(view.upcoming.first))
                values.answersEveryField(try #require(view.areas.first))
                values.answersEveryField(try #require(view.episodes.first))
                #expect(view.moreLink == "\(address)?fag=Kardiologi&antall=21" && view.cappedText != nil)

                // English.
                var english = browser.headers
                english[.acceptLanguage] = "en-GB,en"
                let inEnglish = try await client.execute(uri: address, method: .get, headers: english)
                #expect(inEnglish.text.contains("<h1>Timeline: Kari Nordmann</h1>") && inEnglish.text.contains("Upcoming appointments"))
                #expect(inEnglish.text.contains("5 letters in 3 episodes"))

                // The ways there: the family page and the library filtered to the member.
                let family = try await client.execute(uri: "/family", method: .get, headers: browser.headers)
                #expect(family.text.contains("href=\"\(address)\">Tidslinje<span class=\"hidden\"> Kari Nordmann</span>"))
                let library = try await client.execute(uri: "/?person=Kari+Nordmann", method: .get, headers: browser.headers)
                #expect(library.text.contains("href=\"\(address)\">Tidslinje for Kari Nordmann</a>"))
                let unfiltered = try await client.execute(uri: "/", method: .get, headers: browser.headers)
                #expect(!unfiltered.text.contains("Tidslinje for"))

                for missing in ["/family/999/timeline", "/family/kari/timeline"] {
                    #expect(try await client.execute(uri: missing, method: .get, headers: browser.headers).status == .notFound)
                }
                let signedOut = try await client.execute(uri: address, method: .get)
                #expect(signedOut.status != .ok && !signedOut.text.contains("Kari"))
            }
        }
    }

    /// Twenty episodes at first, «Vis eldre» twenty more; a fødselsnummer in a letter never shows.
    @Test func olderEpisodesOnAskingAndNoNumber() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            var letters: [LibraryDocument] = []
            var date = try #require(CalendarDate(iso: "2000-01-01"))
            for index in 0..<24 {
                letters.append(Self.letter(String(format: "d%03d", index), "Kontroll \(index)", .innkalling, member: "Ola Nordmann",
                                           date: date.iso, specialty: "Ortopedi", sender: "Vestvik sykehus"))
                date = try #require(date.adding(days: 200))
            }
            try fixture.library.documents.record(letters)
            let ola = try #require(try fixture.library.familyMembers().first { $0.name == "Ola Nordmann" })
            try await fixture.signedIn { client, browser in
                let address = "/family/\(ola.id)/timeline"
                let page = try await client.execute(uri: address, method: .get, headers: browser.headers)
                #expect(page.text.contains("25 brev i 25 forløp"))
                #expect(page.text.matches(of: /class="timeline-episode"/).count == 20)
                #expect(page.text.contains("<h3 id=\"forlop-1\">Vestvik sykehus</h3>"), "the epikrise names no specialty")
                #expect(page.text.contains("Ingen kommende timer."))
                #expect(!page.text.contains(WebFixture.number))
                let more = try #require(page.text.firstMatch(of: /<a class="button" href="([^"]+)">Vis eldre<\/a>/)).output.1
                #expect(more == "\(address)?antall=40")
                let all = try await client.execute(uri: String(more), method: .get, headers: browser.headers)
                #expect(all.text.matches(of: /class="timeline-episode"/).count == 25)
                #expect(!all.text.contains("Vis eldre"))
                #expect(all.text.contains("Kontroll 0") && all.text.contains("Epikrise Hjerteavdelingen"))
                let print = try await client.execute(uri: String(more) + "&utskrift=1", method: .get, headers: browser.headers)
                #expect(print.text.matches(of: /class="timeline-episode"/).count == 25, "the print view prints what was shown")
            }
        }
    }

    /// An episode of more letters than are shown: its newest 10, and the library for the rest.
    @Test func aLongEpisodeShowsItsNewestLetters() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let per = try FamilyStore.open(library: fixture.library.location).add(name: "Per Nordmann")
            var letters: [LibraryDocument] = []
            var date = try #require(CalendarDate(iso: "2020-01-06"))
            for index in 0..<32 {
                letters.append(Self.letter(String(format: "e%03d", index), "Time \(index)", .annet, member: "Per Nordmann",
                                           date: date.iso, sender: "Lia legesenter"))
                date = try #require(date.adding(days: 7))
            }
            try fixture.library.documents.record(letters)
            try await fixture.signedIn { client, browser in
                let page = try await client.execute(uri: "/family/\(per.id)/timeline", method: .get, headers: browser.headers)
                #expect(page.text.contains("32 brev i 1 forløp"))
                #expect(page.text.contains("<h3 id=\"forlop-1\">Allmennmedisin</h3>"))
                #expect(page.text.matches(of: /href="\/documents\/e0/).count == 10)
                #expect(!page.text.contains("Time 21<") && page.text.contains("Time 22<") && page.text.contains("Time 31<"),
                        "the newest 10")
                #expect(page.text.contains("22 eldre brev i forløpet vises ikke her. "
                                           + "<a href=\"/?person=Per%20Nordmann&amp;from=2020-01-06&amp;to=2020-08-10\">Se dem i biblioteket</a>"))
            }
        }
    }
}
