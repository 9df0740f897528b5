import ArkivatorCore
import Foundation

/// An appointment as the library keeps it: what the letter said, whose it is, who sent it and
/// the letters behind it.
public struct StoredAppointment: Sendable, Equatable, Codable {
    /// Stable across moves: a calendar sees the same event change day rather than a second one.
    public var uid: String
    public var appointment: Appointment
    /// The household member the letter is filed under now, or the name as printed.
    public var person: String?
    public var sender: String?
    public var specialty: String?
    /// Short id and title of the letter that called to it.
    public var documentID: String
    public var documentTitle: String
    /// Short id of the later letter that moved or cancelled it, if any.
    public var changedBy: String?
    /// How many times it was changed since first read (by a later letter or by hand): the
    /// calendar event's SEQUENCE.
    public var sequence: Int = 0

    public init(uid: String, appointment: Appointment, person: String?, sender: String?, specialty: String?,
                documentID: String, documentTitle: String, changedBy: String?) {
        self.uid = uid
        self.appointment = appointment
        self.person = person
        self.sender = sender
        self.specialty = specialty
        self.documentID = documentID
        self.documentTitle = documentTitle
        self.changedBy = changedBy
    }
}

extension CalendarStore {
    /// Files the appointments a new letter states. One that moves or cancels an earlier
    /// appointment (`replaces`, or `moved` without the earlier day) of the same person from the
    /// same sender or department updates it;
    /// one the library already knows (same person, sender, day and time: a reminder) is not added
    /// again. Runs inside the filing transaction.
    func fileAppointments(of document: LibraryDocument, row id: Int, now: String, in database: Database) throws {
        let person = (document.familyMember ?? document.person).map(Redaction.redact)
        let sender = document.institution.map(Redaction.redact), specialty = document.specialty.map(Redaction.redact)
        for (index, appointment) in (document.appointments ?? []).enumerated() {
            guard CalendarDate(iso: appointment.date) != nil else { continue }
            let place = appointment.place.map(Redaction.redact), bring = appointment.bring.map(Redaction.redact)
            let change = appointment.change.map(Redaction.redact)
            // The earlier appointment: on the day the letter names, or (a letter that says it moves
            // one without naming the day) the next one not cancelled from the letter's date.
            let sameSource = """
                FROM appointments AS a JOIN documents AS d ON d.id = a.document_id
                WHERE d.trashed_at IS NULL AND a.document_id != ? AND coalesce(a.person, '') = coalesce(?, '') COLLATE NOCASE
                  AND (a.sender = ? COLLATE NOCASE OR a.specialty = ? COLLATE NOCASE OR (? IS NULL AND ? IS NULL))
                """
            let source: [any DatabaseValueConvertible] = [id, person, sender, specialty, sender, specialty]
            var earlier: Int?
            if let old = appointment.replaces {
                earlier = try database.firstRow("SELECT a.id " + sameSource + " AND a.date = ? ORDER BY a.id DESC LIMIT 1",
                                                source + [old])?[0].int
            } else if appointment.moved {
                earlier = try database.firstRow("SELECT a.id " + sameSource
                                                + " AND a.cancelled = 0 AND a.date >= ? ORDER BY a.date, a.id LIMIT 1",
                                                source + [document.documentDate])?[0].int
            }
            if let earlier {
                try database.execute("""
                    UPDATE appointments SET date = ?, time = ?, place = coalesce(?, place), bring = coalesce(?, bring),
                        change = coalesce(?, change), cancelled = ?, changed_by = ?, updated_at = ?, sequence = sequence + 1 WHERE id = ?
                    """, [appointment.date, appointment.time, place, bring, change, appointment.cancelled, id, now, earlier])
                continue
            }
            let known = try database.firstRow("""
                SELECT 1 FROM appointments AS a JOIN documents AS d ON d.id = a.document_id
                WHERE a.date = ? AND coalesce(a.time, '') = coalesce(?, '') AND d.trashed_at IS NULL
                  AND coalesce(a.person, '') = coalesce(?, '') COLLATE NOCASE
                  AND coalesce(a.sender, '') = coalesce(?, '') COLLATE NOCASE
                """, [appointment.date, appointment.time, person, sender])
            if known != nil { continue }
            try database.execute("""
                INSERT INTO appointments (uid, document_id, person, sender, specialty, date, time, place, bring, change,
                    cancelled, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, ["\(document.sha256.prefix(20))-\(index + 1)@arkivator", id, person, sender, specialty,
                      appointment.date, appointment.time, place, bring, change, appointment.cancelled, now])
        }
    }

    /// The appointments of letters in the archive (not the trash), by day and time. `from` keeps
    /// those on or after a day and leaves out cancelled ones; `person` matches part of the name.
    public func appointments(from: CalendarDate? = nil, person: String? = nil) throws -> [StoredAppointment] {
        var conditions = ["d.trashed_at IS NULL"]
        var arguments: [any DatabaseValueConvertible] = []
        if let from {
            conditions.append("a.date >= ? AND a.cancelled = 0")
            arguments.append(from.iso)
        }
        if let person = person?.trimmingCharacters(in: .whitespaces), !person.isEmpty {
            conditions.append("(a.person LIKE ? ESCAPE '\\' OR d.family_member LIKE ? ESCAPE '\\')")
            let pattern = "%" + DocumentFilter.escapeLike(person) + "%"
            arguments += [pattern, pattern]
        }
        return try library.withReader { database in
            try database.rows(Self.appointmentQuery + " WHERE " + conditions.joined(separator: " AND ")
                              + " ORDER BY a.date, coalesce(a.time, ''), a.id", arguments).map(Self.appointment)
        }
    }

    /// The appointments a letter called to, moved or cancelled.
    public func appointments(ofDocument id: String) throws -> [StoredAppointment] {
        try library.withReader { database in
            let row = try library.documents.resolve(id, in: database)
            return try database.rows(Self.appointmentQuery + " WHERE a.document_id = ? OR a.changed_by = ? ORDER BY a.date, a.id",
                                     [row, row]).map(Self.appointment)
        }
    }

    static let appointmentQuery = """
        SELECT a.uid, a.date, a.time, a.place, a.bring, a.change, a.cancelled, coalesce(d.family_member, a.person), a.sender, a.specialty,
               d.sha256, d.title, (SELECT sha256 FROM documents WHERE id = a.changed_by), a.sequence
        FROM appointments AS a JOIN documents AS d ON d.id = a.document_id
        """

    static func appointment(_ row: Row) -> StoredAppointment {
        var stored = StoredAppointment(
            uid: row[0].string ?? "",
            appointment: Appointment(date: row[1].string ?? "", time: row[2].string, place: row[3].string,
                                     bring: row[4].string, change: row[5].string, cancelled: (row[6].int ?? 0) != 0),
            person: row[7].string, sender: row[8].string, specialty: row[9].string,
            documentID: ShortID.of(row[10].string ?? ""), documentTitle: row[11].string ?? "",
            changedBy: row[12].string.map(ShortID.of))
        stored.sequence = row[13].int ?? 0
        return stored
    }
}
