import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import Testing

/// A letter's appointments corrected by hand, read again from a new text unless corrected, and
/// each member's calendar feed behind its secret.
@Suite struct AppointmentCorrectionTests {
    @Test func aCorrectionIsKeptWhenTheTextIsReadAgain() throws {
        try withLibrary { library, _ in
            let letter = AppointmentStoreTests.letter("a", date: "2025-05-01", [Appointment(date: "2025-06-03", time: "09:45",
                                                                                             place: "Bygg 25")])
            let other = AppointmentStoreTests.letter("b", date: "2025-05-02", [Appointment(date: "2025-07-01", time: "10:00")])
            try library.documents.record([letter, other])

            // Not corrected: a new reading replaces the letter's own appointments.
            #expect(try library.calendar.rereadAppointments(of: letter.shortID, found: [Appointment(date: "2025-06-04", time: "10:15")]))
            #expect(try library.calendar.appointments(ofDocument: letter.shortID).map(\.appointment.date) == ["2025-06-04"])
            #expect(try library.calendar.rereadAppointments(of: letter.shortID, found: []))
            #expect(try library.calendar.appointments(ofDocument: letter.shortID).isEmpty)
            #expect(try library.calendar.rereadAppointments(of: letter.shortID, found: [Appointment(date: "2025-06-03", time: "09:45")]))
            let uid = try #require(try library.calendar.appointments(ofDocument: letter.shortID).first?.uid)

            // Corrected by hand: the day, the time, a blank place is none.
            let saved = try library.calendar.saveAppointment(Appointment(date: "2025-06-05", time: "8:05", place: "  ", bring: "Legitimasjon"),
                                                    uid: uid, document: letter.shortID)
            #expect(saved.uid == uid)
            #expect(saved.appointment.time == "08:05")
            #expect(saved.appointment.place == nil)
            #expect(saved.appointment.bring == "Legitimasjon")
            // A calendar takes the corrected event over the one it has (RFC 5545: a higher SEQUENCE).
            #expect(saved.sequence == 1 && AppointmentCalendar.ics([saved]).contains("SEQUENCE:1\r\n"))
            let again = try library.calendar.saveAppointment(Appointment(date: "2025-06-05", time: "8:10"), uid: uid, document: letter.shortID)
            #expect(again.sequence == 2 && AppointmentCalendar.ics([again]).contains("SEQUENCE:2\r\n"))
            _ = try library.calendar.saveAppointment(Appointment(date: "2025-06-05", time: "8:05", bring: "Legitimasjon"), uid: uid,
                                                     document: letter.shortID)
            #expect(try library.documents.correctedFields(letter.shortID).contains(CalendarStore.correctedAppointments))
            #expect(try !library.documents.correctedFields(other.shortID).contains(CalendarStore.correctedAppointments))
            // A new reading leaves it as the person left it.
            #expect(try !library.calendar.rereadAppointments(of: letter.shortID, found: [Appointment(date: "2026-01-01")]))
            #expect(try library.calendar.appointments(ofDocument: letter.shortID).map(\.appointment.date) == ["2025-06-05"])

            // Refused: a day that is not one, a time that is not one, a place longer than 500
            // characters (as the API's schema counts them), another letter's appointment.
            let long = String(repeating: "\u{1F3E5}", count: 501)
            for bad in [Appointment(date: "2025-02-30"), Appointment(date: "2025-06-05", time: "25:00"), Appointment(date: "i morgen"),
                        Appointment(date: "2025-06-05", place: long)] {
                #expect(throws: LibraryFailure.badAppointment) { try library.calendar.saveAppointment(bad, uid: uid, document: letter.shortID) }
            }
            let othersUID = try #require(try library.calendar.appointments(ofDocument: other.shortID).first?.uid)
            #expect(throws: LibraryFailure.noAppointment) {
                try library.calendar.saveAppointment(Appointment(date: "2025-06-05"), uid: othersUID, document: letter.shortID)
            }

            // One the finder missed, added; one removed; then «no appointment in this letter».
            let added = try library.calendar.saveAppointment(Appointment(date: "2025-08-01"), uid: nil, document: letter.shortID)
            #expect(added.appointment.time == nil && added.person == "Kari" && added.sender == "St. Olavs hospital")
            #expect(try library.calendar.appointments(ofDocument: letter.shortID).count == 2)
            #expect(try library.calendar.removeAppointments(document: letter.shortID, uid: added.uid) == 1)
            #expect(try library.calendar.removeAppointments(document: letter.shortID) == 1)
            #expect(try library.calendar.appointments(ofDocument: letter.shortID).isEmpty)
            #expect(try !library.calendar.rereadAppointments(of: letter.shortID, found: [Appointment(date: "2025-06-03")]))
            #expect(try library.calendar.appointments(ofDocument: letter.shortID).isEmpty)
            #expect(try library.calendar.appointments(ofDocument: other.shortID).count == 1)

            // Replaced as a whole (the API's way).
            try library.calendar.replaceAppointments(of: other.shortID, with: [Appointment(date: "2025-07-02", time: "11:00"),
                                                                       Appointment(date: "2025-07-03")])
            #expect(try library.calendar.appointments(ofDocument: other.shortID).map(\.appointment.date) == ["2025-07-02", "2025-07-03"])
            #expect(try library.documents.correctedFields(other.shortID).contains(CalendarStore.correctedAppointments))
        }
    }

    @Test func aFeedOpensByItsSecretUntilReplacedOrRevoked() throws {
        try withLibrary { library, _ in
            let kari = try library.family { try $0.add(name: "Kari") }
            let ola = try library.family { try $0.add(name: "Ola") }
            try library.documents.record([AppointmentStoreTests.letter("a", date: "2025-05-01", [Appointment(date: "2025-06-03", time: "09:45")]),
                                AppointmentStoreTests.letter("b", person: "Kari Anne", date: "2025-05-01",
                                                             [Appointment(date: "2025-06-04")])])
            #expect(try library.calendar.calendarFeeds().isEmpty)
            let secret = try library.calendar.createCalendarFeed(member: kari.id)
            #expect(secret.count >= 43)
            let opened = try #require(try library.calendar.calendarFeed(secret: secret))
            #expect(opened.feed.member == "Kari")
            // Kari's own, not Kari Anne's.
            #expect(opened.appointments.map(\.appointment.date) == ["2025-06-03"])
            #expect(opened.feed.lastFetched == nil && CalendarStore.calendarFeedFetchIsDue(opened.feed))
            try library.calendar.noteCalendarFeedFetched(opened.feed)
            #expect(try library.calendar.calendarFeeds().first?.lastFetched != nil)
            // Only the secret's hash is kept.
            let stored = try library.withReader { try $0.firstRow("SELECT token_hash FROM calendar_feeds")?[0].string }
            #expect(stored == Library.tokenHash(secret) && stored != secret)

            #expect(try library.calendar.calendarFeed(secret: secret + "x") == nil)
            #expect(try library.calendar.calendarFeed(secret: "") == nil)
            #expect(try library.calendar.calendarFeed(secret: try library.calendar.createCalendarFeed(member: ola.id))?.feed.member == "Ola")

            // A new address replaces the old one; revoking ends it.
            let second = try library.calendar.createCalendarFeed(member: kari.id)
            #expect(try library.calendar.calendarFeed(secret: secret) == nil)
            #expect(try library.calendar.calendarFeed(secret: second)?.feed.member == "Kari")
            #expect(try library.calendar.revokeCalendarFeed(member: kari.id))
            #expect(try !library.calendar.revokeCalendarFeed(member: kari.id))
            #expect(try library.calendar.calendarFeed(secret: second) == nil)
            #expect(try library.calendar.calendarFeeds().map(\.member) == ["Ola"])
            #expect(throws: FamilyError.self) { try library.calendar.createCalendarFeed(member: 999) }
        }
    }
}
