import ArkivatorCore
import Foundation

extension CalendarStore {
    /// The name a letter's appointments go by in `corrected_fields`: once a person has corrected,
    /// added or removed one, the letter's appointments are never read again from its text.
    public static let correctedAppointments = "appointments"

    /// Saves a person's correction of one of a letter's appointments (`uid` given: one it called
    /// to, moved or cancelled) or adds one the finder missed (`uid` nil), and marks the letter's
    /// appointments corrected by hand. Blank texts are no value; the day must be `YYYY-MM-DD`, the
    /// time `HH:MM` or absent. Returns the appointment as stored.
    @discardableResult
    public func saveAppointment(_ appointment: Appointment, uid: String?, document id: String) throws -> StoredAppointment {
        let cleaned = try Self.checked(appointment)
        let document = try library.documents.document(id)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let saved = try library.withDatabase { database -> String in
            try database.inTransaction {
                let now = Library.now()
                let values: [any DatabaseValueConvertible] = [cleaned.date, cleaned.time, cleaned.place.map(Redaction.redact),
                                                             cleaned.bring.map(Redaction.redact), cleaned.change.map(Redaction.redact),
                                                             cleaned.cancelled]
                if let uid {
                    guard let row = try database.firstRow("""
                        SELECT document_id FROM appointments WHERE uid = ? AND (document_id = ? OR changed_by = ?)
                        """, [uid, document.number, document.number]) else { throw LibraryFailure.noAppointment }
                    try database.execute("""
                        UPDATE appointments SET date = ?, time = ?, place = ?, bring = ?, change = ?, cancelled = ?, updated_at = ?,
                            sequence = sequence + 1
                        WHERE uid = ?
                        """, values + [now, uid])
                    try Self.noteAppointmentsCorrected(rows: [document.number, row[0].int ?? document.number], in: database)
                    return uid
                }
                let uid = try Self.insertAppointment(cleaned, of: document, in: database)
                try Self.noteAppointmentsCorrected(rows: [document.number], in: database)
                return uid
            }
        }
        guard let stored = try appointments(ofDocument: document.sha256).first(where: { $0.uid == saved }) else {
            throw LibraryFailure.noAppointment
        }
        return stored
    }

    /// Removes one appointment a letter shows (`uid`), or every one it called to (`uid` nil: «Ingen
    /// time i dette brevet»), and marks its appointments corrected by hand, so the text is not
    /// read for them again. Returns how many were removed.
    @discardableResult
    public func removeAppointments(document id: String, uid: String? = nil) throws -> Int {
        let document = try library.documents.document(id)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        return try library.withDatabase { database in
            try database.inTransaction {
                if let uid {
                    guard let row = try database.firstRow("""
                        SELECT document_id FROM appointments WHERE uid = ? AND (document_id = ? OR changed_by = ?)
                        """, [uid, document.number, document.number]) else { throw LibraryFailure.noAppointment }
                    try database.execute("DELETE FROM appointments WHERE uid = ?", [uid])
                    try Self.noteAppointmentsCorrected(rows: [document.number, row[0].int ?? document.number], in: database)
                    return 1
                }
                try database.execute("DELETE FROM appointments WHERE document_id = ?", [document.number])
                let removed = database.changes
                try Self.noteAppointmentsCorrected(rows: [document.number], in: database)
                return removed
            }
        }
    }

    /// Replaces the appointments a letter called to with `appointments` (a person's, or a
    /// program's through the API: `[]` says the letter has none) and marks them corrected by
    /// hand. Appointments of earlier letters that this one moved are left as they are.
    public func replaceAppointments(of id: String, with appointments: [Appointment]) throws {
        let cleaned = try appointments.map(Self.checked)
        let document = try library.documents.document(id)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        try library.withDatabase { database in
            try database.inTransaction {
                try database.execute("DELETE FROM appointments WHERE document_id = ?", [document.number])
                for appointment in cleaned { _ = try Self.insertAppointment(appointment, of: document, in: database) }
                try Self.noteAppointmentsCorrected(rows: [document.number], in: database)
            }
        }
    }

    /// Adds an appointment a person gave for a letter, with a UID of its own (never one a
    /// reading of the text makes). Returns the UID.
    static func insertAppointment(_ appointment: Appointment, of document: LibraryDocument, in database: Database) throws -> String {
        let person = (document.familyMember ?? document.person).map(Redaction.redact)
        let sender = document.institution.map(Redaction.redact), specialty = document.specialty.map(Redaction.redact)
        let uid = "\(document.sha256.prefix(20))-u\(Library.randomToken().prefix(10))@arkivator"
        try database.execute("""
            INSERT INTO appointments (uid, document_id, person, sender, specialty, date, time, place, bring, change,
                cancelled, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [uid, document.number, person, sender, specialty, appointment.date, appointment.time,
                  appointment.place.map(Redaction.redact), appointment.bring.map(Redaction.redact),
                  appointment.change.map(Redaction.redact), appointment.cancelled, Library.now()])
        return uid
    }

    /// A letter's own appointments made again from a new reading of its text (`found`), as
    /// filing makes them (a move or a cancellation updates the earlier appointment). Nothing
    /// changes, and false is returned, when a person corrected the letter's appointments by
    /// hand, or when a later letter has moved or cancelled one of them (that letter has the last word).
    @discardableResult
    public func rereadAppointments(of id: String, found: [Appointment]) throws -> Bool {
        var document = try library.documents.document(id)
        guard document.trashedAt == nil else { return false }
        guard !(try library.documents.correctedFields(document.sha256).contains(Self.correctedAppointments)) else { return false }
        document.appointments = found
        return try library.withDatabase { database in
            try database.inTransaction {
                let row = document.number
                if try database.firstRow("SELECT 1 FROM appointments WHERE document_id = ? AND changed_by IS NOT NULL", [row]) != nil {
                    return false
                }
                try database.execute("DELETE FROM appointments WHERE document_id = ?", [row])
                try fileAppointments(of: document, row: row, now: Library.now(), in: database)
                return true
            }
        }
    }

    /// The longest place, thing to bring or way to change an appointment, in characters (Unicode
    /// scalars, as the API's schema counts them).
    public static let appointmentTextLimit = StoredField.appointmentText.limit

    /// The appointment with blank texts taken out, or ``LibraryFailure/badAppointment`` when its
    /// day or time cannot be used or a text is longer than ``appointmentTextLimit``.
    static func checked(_ appointment: Appointment) throws -> Appointment {
        do {
            for value in [appointment.place, appointment.bring, appointment.change] { try StoredField.appointmentText.check(value) }
        } catch {
            // Its own sentence names the limit along with the date's and the time's forms.
            throw LibraryFailure.badAppointment
        }
        func text(_ value: String?) -> String? {
            let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return trimmed.isEmpty ? nil : trimmed
        }
        var cleaned = appointment
        cleaned.date = appointment.date.trimmingCharacters(in: .whitespaces)
        cleaned.time = text(appointment.time)
        cleaned.place = text(appointment.place)
        cleaned.bring = text(appointment.bring)
        cleaned.change = text(appointment.change)
        guard CalendarDate(iso: cleaned.date) != nil else { throw LibraryFailure.badAppointment }
        if cleaned.time != nil {
            // `H:MM` or `HH:MM`, digits only.
            guard let clock = cleaned.clock, let time = cleaned.time, (4...5).contains(time.count),
                  time.allSatisfy({ $0 == ":" || ($0.isASCII && $0.isNumber) }) else { throw LibraryFailure.badAppointment }
            cleaned.time = String(format: "%02d:%02d", clock.hour, clock.minute)
        }
        return cleaned
    }

    /// Adds "appointments" to the corrected fields of the letters in `rows`.
    static func noteAppointmentsCorrected(rows: [Int], in database: Database) throws {
        for id in Set(rows) {
            let old = try database.firstRow("SELECT corrected_fields FROM documents WHERE id = ?", [id])?[0].string ?? ""
            let all = Set(old.split(separator: ",").map(String.init)).union([correctedAppointments]).sorted()
            try database.execute("UPDATE documents SET corrected_fields = ? WHERE id = ?", [all.joined(separator: ","), id])
        }
    }
}
