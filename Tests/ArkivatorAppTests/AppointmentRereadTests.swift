import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorApp
import ArkivatorPipeline
import Foundation
import Testing

/// A letter's text corrected: its appointments are read again from the new text, unless a
/// person corrected them by hand.
@Suite struct AppointmentRereadTests {
    static func summons(day: String, time: String) -> String {
        """
        Sykehuset Innlandet
        Medisinsk poliklinikk
        Dato: 12.03.2025
        INNKALLING TIL POLIKLINISK TIME
        Du er satt opp til kontroll hos lege.
        Dato: \(day)
        Tid: kl. \(time)
        Sted: Bygg 4, 2. etasje, resepsjon B
        """
    }

    @Test func correctedTextReadsTheAppointmentAgainUnlessCorrectedByHand() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-reread-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let household = try Household.open(LibraryLocation(directory: dir.appendingPathComponent("bibliotek")), environment: [:])
        let library = household.library
        // As filed: OCR misread the day (03.04 read as 08.04).
        var letter = LibraryDocument(sha256: String(repeating: "d4", count: 32), sourceName: "brev.jpg",
                                     title: "2025-03-12 Innkalling Medisinsk poliklinikk", docType: .innkalling,
                                     person: "Kari Nordmann", familyMember: "Kari Nordmann", institution: "Sykehuset Innlandet",
                                     documentDate: "2025-03-12", text: Self.summons(day: "tirsdag 08.04.2025", time: "08.30"))
        letter.scanDate = "2025-03-14"
        letter.appointments = [Appointment(date: "2025-04-08", time: "08:30", place: "Bygg 4, 2. etasje, resepsjon B")]
        try library.documents.record([letter])
        let id = letter.shortID
        #expect(try library.calendar.appointments(ofDocument: id).map(\.appointment.date) == ["2025-04-08"])

        // The text corrected: the appointment follows it.
        let correction = try household.correctText(id, to: Self.summons(day: "torsdag 03.04.2025", time: "08.45"))
        #expect(correction.changed)
        var found = try library.calendar.appointments(ofDocument: id)
        #expect(found.map(\.appointment.date) == ["2025-04-03"])
        #expect(found.first?.appointment.time == "08:45")
        #expect(found.first?.appointment.place == "Bygg 4, 2. etasje, resepsjon B")

        // Corrected by hand: a later text correction leaves it as the person left it.
        let uid = try #require(found.first?.uid)
        try library.calendar.saveAppointment(Appointment(date: "2025-04-03", time: "09:00", place: "Bygg 5"), uid: uid, document: id)
        try household.correctText(id, to: Self.summons(day: "fredag 04.04.2025", time: "10.00"))
        found = try library.calendar.appointments(ofDocument: id)
        #expect(found.map(\.appointment.date) == ["2025-04-03"])
        #expect(found.first?.appointment.time == "09:00")
        #expect(found.first?.appointment.place == "Bygg 5")
        // Bringing back the OCR's reading does not undo it either.
        try household.restoreOCRText(id)
        #expect(try library.calendar.appointments(ofDocument: id).first?.appointment.time == "09:00")
    }
}
