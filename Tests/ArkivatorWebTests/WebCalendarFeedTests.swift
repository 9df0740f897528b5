import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// A member's calendar feed over a live server on 127.0.0.1, fetched without a session and read
/// back by an independent iCalendar reader; and a letter's appointment corrected on its page.
@Suite struct WebCalendarFeedTests {
    /// Next year: in the future, and within the years every time zone reader knows.
    static let year = (CalendarDate.today()?.year ?? 2030) + 1

    static func innkalling(_ fixture: WebFixture) throws -> LibraryDocument {
        var letter = LibraryDocument(sha256: String(repeating: "c3", count: 32), sourceName: "brev.jpg",
                                     title: "2025-05-01 Innkalling Nevrologisk poliklinikk", docType: .innkalling,
                                     person: "Kari Nordmann", familyMember: "Kari Nordmann", institution: "Oslo universitetssykehus",
                                     documentDate: "2025-05-01", text: "Innkalling")
        letter.appointments = [Appointment(date: "\(year)-06-03", time: "09:45", place: "Ullevål, bygg 25",
                                           bring: "Legitimasjon", change: "Ring 915 02770.")]
        try fixture.library.documents.record([letter])
        return letter
    }

    /// `scripts/test/read_ics.py` (Debian's python3-icalendar) on `text`.
    static func readICS(_ text: String, in directory: URL) throws -> [String: Any] {
        let file = directory.appendingPathComponent("feed-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Fixtures.root.appendingPathComponent("scripts/test/read_ics.py").path, file.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: data, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theFeedIsServedWithoutASessionUntilItIsRevoked() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            _ = try Self.innkalling(fixture)
            let kari = try #require(try fixture.library.familyMembers().first { $0.name == "Kari Nordmann" })
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.live) { client in
                let browser = try await Browser.signIn(client)
                let page = try await client.execute(uri: "/calendar", method: .get, headers: browser.headers)
                #expect(page.status == .ok && page.text.contains("Lag kalenderadresse"))
                let made = try await client.execute(uri: "/calendar/\(kari.id)/new", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(made.status == .ok)
                #expect(made.text.contains("vises bare nå") && made.text.contains("href=\"webcal://"))
                let start = try #require(made.text.range(of: "/kalender/"))
                let path = String(made.text[start.lowerBound...].prefix { $0 != "\"" })
                #expect(path.hasSuffix(".ics"))

                // Without a cookie: the calendar, as an independent reader reads it.
                let feed = try await client.execute(uri: path, method: .get)
                #expect(feed.status == .ok)
                #expect(feed.headers[.contentType] == "text/calendar; charset=utf-8")
                #expect(feed.headers[.xRobotsTag]?.contains("noindex") == true)
                #expect(feed.text.contains("\r\nX-WR-CALNAME:Timer: Kari Nordmann\r\n"))
                let read = try Self.readICS(feed.text, in: dir)
                #expect(read["zones"] as? [String] == ["Europe/Oslo"])
                let events = try #require(read["events"] as? [[String: Any]])
                #expect(events.count == 1)
                #expect(events.first?["start"] as? String == "\(Self.year)-06-03T09:45:00+02:00")
                #expect(events.first?["location"] as? String == "Ullevål, bygg 25")
                #expect(events.first?["alarms"] as? [Int] == [-86_400, -7_200])
                // The page tells when it was last fetched; the log never holds the secret.
                let after = try await client.execute(uri: "/calendar", method: .get, headers: browser.headers)
                #expect(after.text.contains("sist hentet"))
                #expect(RequestLog.loggedPath(path) == "/kalender/…")

                // Revoked: the old address answers 404 in plain words.
                let revoked = try await client.execute(uri: "/calendar/\(kari.id)/revoke", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(revoked.status == .seeOther && revoked.headers[.location] == "/calendar?slatt-av=\(kari.id)")
                let told = try await client.execute(uri: "/calendar?slatt-av=\(kari.id)", method: .get, headers: browser.headers)
                #expect(told.text.contains("Kalenderadressen til «Kari Nordmann» er slått av"))
                // A link cannot put its own words on the page.
                let planted = try await client.execute(uri: "/calendar?slatt-av=Ring+oss", method: .get, headers: browser.headers)
                #expect(planted.status == .ok && !planted.text.contains("Ring oss") && !planted.text.contains("er slått av"))
                let gone = try await client.execute(uri: path, method: .get)
                #expect(gone.status == .notFound)
                #expect(gone.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(gone.text.contains("virker ikke"))
                // A form without the session's token changes nothing.
                let forged = try await client.execute(uri: "/calendar/\(kari.id)/new", method: .post,
                                                      headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: ""))
                #expect(forged.status != .ok)
                #expect(try fixture.library.calendar.calendarFeeds().isEmpty)

                // A client that asked for too many addresses that open nothing waits for the next
                // such, but a working address is served all the same.
                for _ in 0..<GuessThrottle.allowedMisses { _ = try await client.execute(uri: path, method: .get) }
                #expect(try await client.execute(uri: path, method: .get).status == .tooManyRequests)
                let again = CalendarStore.calendarFeedPath(try fixture.library.calendar.createCalendarFeed(member: kari.id))
                #expect(try await client.execute(uri: again, method: .get).status == .ok)
            }
        }
    }

    @Test func guessingAddressesIsSlowedDown() async {
        let throttle = GuessThrottle()
        for _ in 0..<GuessThrottle.allowedMisses {
            #expect(await throttle.refusal(client: "a") == nil)
            await throttle.miss(client: "a")
        }
        #expect(await throttle.refusal(client: "a") != nil)
        #expect(await throttle.refusal(client: "b") == nil)
    }

    @Test func anAppointmentIsCorrectedAddedAndRemovedOnTheDocumentPage() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let letter = try Self.innkalling(fixture)
            let id = letter.shortID
            let uid = try #require(try fixture.library.calendar.appointments(ofDocument: id).first?.uid)
            try await fixture.signedIn { client, browser in
                func post(_ uri: String, _ fields: String) async throws -> TestResponse {
                    try await client.execute(uri: uri, method: .post, headers: browser.form,
                                             body: ByteBuffer(string: "_csrf=\(browser.csrf)&" + fields))
                }
                // In review too: a letter waiting there can have one added, and the form leads back to review.
                let review = try await client.execute(uri: "/review", method: .get, headers: browser.headers)
                #expect(review.text.contains("Legg til en time brevet nevner") && review.text.contains("name=\"back\" value=\"review\""))
                let page = try await client.execute(uri: "/documents/\(id)", method: .get, headers: browser.headers)
                #expect(page.text.contains("Rett timen") && page.text.contains("Ingen time i dette brevet"))
                #expect(page.text.contains("value=\"09:45\""))
                // The letter's own .ics, read back by the independent reader: its one event and reminders.
                #expect(page.text.contains("href=\"/documents/\(id)/time.ics\""))
                let ics = try await client.execute(uri: "/documents/\(id)/time.ics", method: .get, headers: browser.headers)
                #expect(ics.status == .ok && ics.headers[.contentType] == "text/calendar; charset=utf-8")
                #expect(ics.headers[.contentDisposition] == "attachment; filename=\"time-\(Self.year)-06-03.ics\"")
                let events = try #require(try Self.readICS(ics.text, in: dir)["events"] as? [[String: Any]])
                #expect(events.count == 1 && events.first?["start"] as? String == "\(Self.year)-06-03T09:45:00+02:00")
                #expect(events.first?["alarms"] as? [Int] == [-86_400, -7_200])
                let signedOut = try await client.execute(uri: "/documents/\(id)/time.ics", method: .get)
                #expect(signedOut.status != .ok)

                let saved = try await post("/documents/\(id)/appointments",
                                           "uid=\(uid.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                                           + "&date=04.06.\(Self.year)&time=10%3A15&place=Bygg+3&bring=&change=")
                #expect(saved.status == .seeOther)
                #expect(saved.headers[.location] == "/documents/\(id)?time=lagret")
                let shown = try await client.execute(uri: "/documents/\(id)?time=lagret", method: .get, headers: browser.headers)
                #expect(shown.text.contains("Timen er lagret."))
                #expect(shown.text.contains("04.06.\(Self.year) kl. 10:15") && shown.text.contains("<dd>Bygg 3</dd>"))
                #expect(shown.text.contains("Rettet for hånd"))
                #expect(try fixture.library.documents.correctedFields(id).contains(CalendarStore.correctedAppointments))

                // A day that is not one is refused in words, on the page.
                let bad = try await post("/documents/\(id)/appointments", "date=\(Self.year)-02-30")
                #expect(bad.status == .badRequest && bad.text.contains("ÅÅÅÅ-MM-DD"))

                // «Ingen time i dette brevet», then one added by hand.
                let none = try await post("/documents/\(id)/appointments/remove", "")
                #expect(none.status == .seeOther)
                let empty = try await client.execute(uri: "/documents/\(id)", method: .get, headers: browser.headers)
                #expect(!empty.text.contains("appointments-heading") && empty.text.contains("Legg til en time brevet nevner"))
                let added = try await post("/documents/\(id)/appointments", "date=\(Self.year)-09-01&time=&place=Sentralblokka")
                #expect(added.status == .seeOther)
                let found = try fixture.library.calendar.appointments(ofDocument: id)
                #expect(found.map(\.appointment.date) == ["\(Self.year)-09-01"])
                #expect(found.first?.appointment.time == nil && found.first?.appointment.place == "Sentralblokka")
            }
        }
    }
}
