import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// `arkivator appointments`: the list, its filters, and the calendar file read back by an
/// independent iCalendar reader (Debian's python3-icalendar).
@Suite struct AppointmentsCLITests {
    static func letter(_ seed: String, person: String, _ appointment: Appointment) -> LibraryDocument {
        var document = LibraryDocument(sha256: String(repeating: seed, count: 64), sourceName: "\(seed).jpg",
                                       title: "2025-01-02 Innkalling \(seed)", docType: .innkalling, person: person,
                                       familyMember: person, institution: "Oslo universitetssykehus",
                                       documentDate: "2025-01-02", text: "Innkalling")
        document.specialty = "Nevrologi"
        document.appointments = [appointment]
        return document
    }

    @Test func listsFiltersAndWritesACalendarThatAnotherReaderReads() throws {
        // Next year: in the future, and within the years every time zone reader knows.
        let year = (CalendarDate.today()?.year ?? 2030) + 1
        try withTemporaryDirectory { directory in
            let libraryURL = directory.appendingPathComponent("bibliotek")
            do {
                let library = try Library.open(LibraryLocation(directory: libraryURL), environment: [:])
                try library.documents.record([
                    Self.letter("a", person: "Kari Nordmann", Appointment(
                        date: "\(year)-06-03", time: "09:45", place: "Ullevål, bygg 25; 5. etasje",
                        bring: "Legitimasjon, medisinliste", change: "Ring 915 02770 senest 24 timer før.")),
                    Self.letter("b", person: "Kari Nordmann", Appointment(date: "2020-01-10", time: "08:00")),
                    Self.letter("c", person: "Ola Nordmann", Appointment(date: "\(year)-07-01", time: nil)),
                ])
            }
            let all = try CLI.run(["appointments"], library: libraryURL)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.lines.count == 3)
            #expect(all.lines.first?.hasPrefix("2020-01-10  08:00  Kari Nordmann") == true)

            let upcoming = try CLI.run(["appointments", "--upcoming", "--person", "kari"], library: libraryURL)
            #expect(upcoming.lines.count == 1)
            #expect(upcoming.lines.first?.contains("\(year)-06-03") == true)

            let ics = directory.appendingPathComponent("kalender.ics")
            let written = try CLI.run(["appointments", "--upcoming", "--ics", ics.path], library: libraryURL)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stderr.contains("Skrev 2 timer"))

            // Debian's own Python, where python3-icalendar is installed.
            let read = try OutsideTool.run("/usr/bin/python3", [Fixtures.root.appendingPathComponent("scripts/test/read_ics.py").path, ics.path])
            #expect(read.status == 0, "\(read.stdout)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
            #expect(object["zones"] as? [String] == ["Europe/Oslo"])
            let events = try #require(object["events"] as? [[String: Any]])
            #expect(events.count == 2)
            let kari = try #require(events.first { ($0["summary"] as? String)?.contains("Kari") == true })
            #expect(kari["start"] as? String == "\(year)-06-03T09:45:00+02:00")
            #expect(kari["tzid"] as? String == "Europe/Oslo")
            #expect(kari["location"] as? String == "Ullevål, bygg 25; 5. etasje")
            #expect(kari["alarms"] as? [Int] == [-86_400, -7_200])
            #expect((kari["description"] as? String)?.contains("Ta med: Legitimasjon, medisinliste\n") == true)
            let ola = try #require(events.first { ($0["summary"] as? String)?.contains("Ola") == true })
            #expect(ola["start"] as? String == "\(year)-07-01")

            // The same appointment keeps its UID from one file to the next.
            let again = try CLI.run(["appointments", "--upcoming", "--ics", "-"], library: libraryURL)
            let uid = try #require(kari["uid"] as? String)
            #expect(again.stdout.contains("UID:" + uid))

            let help = try CLI.run(["appointments", "--help"])
            #expect(help.stdout.contains("--upcoming") && help.stdout.contains("--ics") && help.stdout.contains("Eksempler"))
        }
    }
}
