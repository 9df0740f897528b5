import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Testing

/// Appointments kept with their letters, and the later letter that moves or cancels one.
@Suite struct AppointmentStoreTests {
    static func letter(_ seed: String, person: String? = "Kari", institution: String? = "St. Olavs hospital",
                       specialty: String? = "Ortopedi", date: String, _ appointments: [Appointment]) -> LibraryDocument {
        var document = Letters.letter(seed, "Innkalling \(seed)", type: .innkalling, person: person, institution: institution,
                                      date: date, text: "Innkalling \(seed)")
        document.specialty = specialty
        document.appointments = appointments
        return document
    }

    @Test func aLaterLetterMovesOrCancelsInsteadOfAdding() throws {
        try withLibrary { library, _ in
            let first = Self.letter("a", date: "2025-05-01", [Appointment(
                date: "2025-06-03", time: "09:45", place: "Ullevål, bygg 25", bring: "Legitimasjon", change: "Ring 22 11 80 80.")])
            try library.documents.record([first])
            var found = try library.calendar.appointments()
            #expect(found.count == 1)
            let uid = try #require(found.first?.uid)
            #expect(found.first?.person == "Kari")
            #expect(found.first?.documentID == first.shortID)

            // A reminder of the same appointment is not a second one.
            try library.documents.record([Self.letter("reminder", date: "2025-05-20", [Appointment(date: "2025-06-03", time: "09:45")])])
            #expect(try library.calendar.appointments().count == 1)

            // Someone else's letter naming the same old date moves nothing of Kari's.
            try library.documents.record([Self.letter("ola", person: "Ola", date: "2025-05-21",
                                            [Appointment(date: "2025-06-20", time: "08:00", replaces: "2025-06-03")])])
            #expect(try library.calendar.appointments(person: "Kari").map(\.appointment.date) == ["2025-06-03"])

            let moved = Self.letter("b", date: "2025-05-22", [Appointment(date: "2025-06-10", time: "13:00", replaces: "2025-06-03")])
            try library.documents.record([moved])
            found = try library.calendar.appointments(person: "Kari")
            #expect(found.count == 1)
            #expect(found.first?.uid == uid)
            #expect(found.first?.appointment.date == "2025-06-10")
            #expect(found.first?.appointment.time == "13:00")
            // What the new letter does not say stays as the first one said it.
            #expect(found.first?.appointment.place == "Ullevål, bygg 25")
            #expect(found.first?.changedBy == moved.shortID)
            #expect(try library.calendar.appointments(ofDocument: moved.shortID).map(\.uid) == [uid])
            #expect(try library.calendar.appointments(ofDocument: first.shortID).map(\.uid) == [uid])

            try library.documents.record([Self.letter("c", date: "2025-05-30", [Appointment(
                date: "2025-06-10", time: "13:00", cancelled: true, replaces: "2025-06-10")])])
            found = try library.calendar.appointments(person: "Kari")
            #expect(found.count == 1)
            #expect(found.first?.appointment.cancelled == true)
            // Cancelled appointments are not upcoming.
            #expect(try library.calendar.appointments(from: CalendarDate(iso: "2025-06-01"), person: "Kari").isEmpty)
            #expect(try library.calendar.appointments(from: CalendarDate(iso: "2025-06-01"), person: "Ola").count == 1)
            #expect(try library.calendar.appointments(from: CalendarDate(iso: "2025-07-01")).isEmpty)
        }
    }

    @Test func aLetterThatMovesWithoutNamingTheDayMovesTheNextOne() throws {
        try withLibrary { library, _ in
            try library.documents.record([Self.letter("p", date: "2025-04-01", [Appointment(date: "2025-05-02", time: "08:00")]),
                                Self.letter("q", date: "2025-04-02", [Appointment(date: "2025-06-03", time: "09:45")])])
            try library.documents.record([Self.letter("r", date: "2025-05-10", [Appointment(date: "2025-06-17", time: "10:00", moved: true)])])
            // The one already past at the moving letter's date stays; the next one moves.
            #expect(try library.calendar.appointments().map(\.appointment.date) == ["2025-05-02", "2025-06-17"])
        }
    }

    @Test func trashedLettersHideTheirAppointments() throws {
        try withLibrary { library, _ in
            let letter = Self.letter("t", date: "2025-05-01", [Appointment(date: "2025-06-03", time: nil)])
            try Archive.file(library, letter)
            #expect(try library.calendar.appointments().map(\.appointment.time) == [nil])
            _ = try library.documents.delete(letter.shortID)
            #expect(try library.calendar.appointments().isEmpty)
        }
    }

    @Test func calendarTextFollowsTheRules() throws {
        let long = "Poliklinikkbygget, inngang C; 3. etasje, rom 301 – følg skiltene mot Øre-nese-hals-poliklinikken"
        let stored = StoredAppointment(
            uid: "abc-1@arkivator", appointment: Appointment(date: "2025-06-03", time: "09:45", place: long, bring: "A\\B"),
            person: "Kari Nordmann", sender: "St. Olavs hospital", specialty: nil, documentID: "0123456789",
            documentTitle: "2025-05-01 Innkalling", changedBy: nil)
        let ics = AppointmentCalendar.ics([stored], stamp: Date(timeIntervalSince1970: 1_748_000_000))
        #expect(ics.hasSuffix("\r\n"))
        let lines = ics.components(separatedBy: "\r\n").dropLast()
        #expect(!lines.contains { $0.contains("\n") || $0.contains("\r") })
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        let unfolded = ics.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("LOCATION:Poliklinikkbygget\\, inngang C\\; 3. etasje"))
        #expect(unfolded.contains("DTSTART;TZID=Europe/Oslo:20250603T094500"))
        #expect(unfolded.contains("TRIGGER:-P1D") && unfolded.contains("TRIGGER:-PT2H"))
        #expect(unfolded.contains("DESCRIPTION:Ta med: A\\\\B\\n"))
        #expect(unfolded.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Oslo"))
        #expect(unfolded.contains("UID:abc-1@arkivator"))
    }
}
