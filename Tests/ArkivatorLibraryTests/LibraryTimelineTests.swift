import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// What a household member's timeline reads: their letters from one index, the shown letters'
/// list lines, and their upcoming appointments.
@Suite struct LibraryTimelineTests {
    @Test func aMembersLettersNewestFirstFromTheTimelineIndex() throws {
        try withLibrary { library, _ throws in
            let trashed = Letters.letter("kastet", "Innkalling som ble slettet", type: .innkalling, person: "Kari",
                                         institution: "St. Olavs hospital", date: "2024-05-01", text: "Innkalling")
            var otherKari = Letters.letter("annen", "Brev om en annen Kari", type: .annet, person: "Kari Anne",
                                           institution: nil, date: "2024-04-01", text: "Brev")
            otherKari.specialty = "Ortopedi"
            try library.documents.record(Letters.all + [trashed, otherKari])
            _ = try library.documents.delete(trashed.shortID)

            let all = try library.documents.timelineEntries(member: "Kari", limit: 10)
            #expect(!all.more)
            #expect(all.entries.map(\.documentDate) == ["2024-03-15", "2024-01-20", "2023-06-05"],
                    "only Kari's, not the trash, not another member whose name begins the same")
            #expect(all.entries.map(\.docType) == ["innkalling", "lab-svar", "resept"])
            #expect(all.entries.map(\.institution) == ["St. Olavs hospital", "Fürst medisinsk laboratorium", "Apotek 1 Torget"])
            let first = try library.documents.timelineEntries(member: "Kari", limit: 2)
            #expect(first.more && first.entries == Array(all.entries.prefix(2)))
            #expect(try library.documents.timelineEntries(member: "Per", limit: 10).entries.isEmpty)

            let summaries = try library.documents.summaries(rows: all.entries.map(\.row) + [999_999])
            #expect(summaries.count == 3)
            #expect(summaries[all.entries[0].row]?.id == Letters.innkalling.shortID)
            #expect(summaries[all.entries[2].row]?.title == Letters.resept.title)

            // Read from the index alone, in its order: no row, no sorting.
            let database = try Database(readingFrom: library.databaseURL)
            let query = DocumentStore.timelineQuery(member: "Kari", limit: 200)
            let plan = try database.rows("EXPLAIN QUERY PLAN " + query.sql, query.arguments).compactMap { $0[3].string }
            #expect(plan.count == 1 && plan[0].contains("USING COVERING INDEX documents_timeline"), "\(plan)")
        }
    }

    @Test func upcomingAppointmentsOfOneMember() throws {
        try withLibrary { library, _ throws in
            func letter(_ seed: String, person: String?, member: String?, date: String, _ appointment: Appointment) -> LibraryDocument {
                var document = Letters.letter(seed, "Innkalling \(seed)", type: .innkalling, person: nil,
                                              institution: "St. Olavs hospital", date: date, text: "Innkalling \(seed)")
                document.person = person
                document.familyMember = member
                document.specialty = "Ortopedi"
                document.appointments = [appointment]
                return document
            }
            try library.documents.record([
                letter("past", person: "Kari Nordmann", member: "Kari Nordmann", date: "2025-01-02",
                       Appointment(date: "2025-02-01", time: "08:00")),
                letter("later", person: "Kari Nordmann", member: "Kari Nordmann", date: "2025-01-03",
                       Appointment(date: "2025-09-01", time: nil, place: "Bygg 2")),
                letter("soon", person: "Kari Nordmann", member: "Kari Nordmann", date: "2025-01-04",
                       Appointment(date: "2025-06-01", time: "10:30")),
                letter("printed", person: "kari nordmann", member: nil, date: "2025-01-05",
                       Appointment(date: "2025-07-01", time: "09:00")),
                letter("ola", person: "Ola Nordmann", member: "Ola Nordmann", date: "2025-01-06",
                       Appointment(date: "2025-06-02", time: "09:00")),
                letter("cancelled", person: "Kari Nordmann", member: "Kari Nordmann", date: "2025-01-07",
                       Appointment(date: "2025-08-01", time: "11:00", cancelled: true)),
                letter("annen", person: "Kari Nordmann Berg", member: "Kari Nordmann Berg", date: "2025-01-08",
                       Appointment(date: "2025-06-03", time: "12:00")),
            ])
            let found = try library.documents.upcomingAppointments(member: "Kari Nordmann", from: try #require(CalendarDate(iso: "2025-05-01")))
            #expect(found.map(\.appointment.date) == ["2025-06-01", "2025-07-01", "2025-09-01"],
                    "by day; past, cancelled and others' left out; a printed name of no member counts")
            #expect(found.first?.appointment.time == "10:30" && found.last?.appointment.place == "Bygg 2")
            #expect(found.first?.specialty == "Ortopedi" && found.first?.sender == "St. Olavs hospital")
        }
    }

    @Test func aLetterFiledAgainUnderAnotherMemberLeavesTheFirstMembersFeed() throws {
        try withLibrary { library, _ throws in
            var letter = Letters.letter("flyttet", "Innkalling til kontroll", type: .innkalling, person: nil,
                                        institution: "St. Olavs hospital", date: "2025-01-02", text: "Innkalling")
            letter.person = "Kari Nordmann"
            letter.familyMember = "Kari Nordmann"
            letter.appointments = [Appointment(date: "2025-06-01", time: "10:30")]
            try library.documents.record([letter])
            #expect(try library.calendar.appointments(ofMember: "Kari Nordmann").count == 1)

            // Filed under the wrong member at first, then moved to Ola: the appointment keeps the
            // name it was read with, but it is Ola's now, in his feed and timeline only.
            _ = try library.documents.edit(letter.shortID, DocumentChanges(person: "Ola Nordmann"), programVersion: "test")
            #expect(try library.calendar.appointments(ofMember: "Kari Nordmann").isEmpty)
            #expect(try library.documents.upcomingAppointments(member: "Kari Nordmann", from: try #require(CalendarDate(iso: "2025-05-01"))).isEmpty)
            let moved = try library.calendar.appointments(ofMember: "Ola Nordmann")
            #expect(moved.map(\.appointment.date) == ["2025-06-01"] && moved.first?.person == "Ola Nordmann",
                    "named for the member it is filed under now, in the calendar too")
        }
    }

    /// The stamp a member's episodes are kept by: drawn anew by any change to what the timeline
    /// reads, from this connection or another one on the same file, and by nothing else.
    @Test func theLettersStampChangesWithWhatTheTimelineReads() throws {
        try withLibrary { library, _ throws in
            var stamp = try #require(try library.documents.lettersStamp())
            func changed() throws -> Bool {
                let now = try #require(try library.documents.lettersStamp())
                defer { stamp = now }
                return now != stamp
            }
            try library.documents.record([Letters.innkalling, Letters.resept])
            #expect(try changed(), "letters added")
            #expect(try !changed(), "nothing changed")

            // Another connection to the file, as another process (`ingest`, `edit`) writes it.
            let raw = try Database(url: library.databaseURL)
            try raw.execute("UPDATE documents SET thumbnail = NULL, ocr_confidence = 0.5")
            #expect(try !changed(), "columns the timeline does not read")
            try raw.execute("UPDATE documents SET trashed_at = '2024-05-01T00:00:00Z' WHERE sha256 = ?", [Letters.resept.sha256])
            #expect(try changed(), "the trash, set elsewhere")
            try raw.execute("UPDATE documents SET trashed_at = NULL")
            #expect(try changed())
            let other = try Library.open(library.location)
            _ = try other.documents.edit(Letters.innkalling.shortID, DocumentChanges(date: CalendarDate(iso: "2024-03-16")), programVersion: "test")
            #expect(try changed(), "a date corrected elsewhere")
            _ = try other.documents.edit(Letters.resept.shortID, DocumentChanges(person: "Ola"), programVersion: "test")
            #expect(try changed(), "moved to another member elsewhere")

            _ = try library.documents.edit(Letters.innkalling.shortID, DocumentChanges(specialty: "Ortopedi"), programVersion: "test")
            #expect(try changed(), "edited")
            _ = try library.documents.delete(Letters.innkalling.shortID)
            #expect(try changed(), "to the trash")
            _ = try library.documents.restore(Letters.innkalling.shortID)
            #expect(try changed(), "back from the trash")
            _ = try library.documents.delete(Letters.resept.shortID, purge: true)
            #expect(try changed(), "deleted for good")
        }
    }
}
