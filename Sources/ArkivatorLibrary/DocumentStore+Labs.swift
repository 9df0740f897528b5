import ArkivatorCore
import Foundation

/// The lab values of the letters (``LabEntry``, `lab_values`): filed with the letter, read
/// again when its text changes, confirmed by a person, and gathered per person.
extension DocumentStore {
    /// The letter types whose lab tables are gathered: lab results, and tables in discharge letters.
    public static let labTypes: [DocumentType] = [.labSvar, .epikrise]

    /// Files a document's values (inside the caller's transaction): replaces what the row held.
    func fileLabs(_ labs: [LabEntry], row id: Int, in database: Database) throws {
        try database.execute("DELETE FROM lab_values WHERE document_id = ?", [id])
        try database.execute("DELETE FROM lab_values_pending WHERE document_id = ?", [id])
        for (position, entry) in labs.enumerated() {
            let box = try entry.box.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            try database.execute("""
                INSERT INTO lab_values (document_id, position, analysis, printed, value, unit, range, flag, doubtful, confirmed,
                    sampled, page, box, start, length)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [id, position, entry.analysis, entry.printed, Redaction.redact(entry.value), entry.unit, entry.range, entry.flag,
                      entry.doubtful ? 1 : 0, entry.confirmed ? 1 : 0, entry.sampled, entry.page, box, entry.start, entry.length])
        }
    }

    /// A document's values, in the order the letter prints them.
    public func labs(of id: String) throws -> [LabEntry] {
        try library.withReader { database in
            let row = try resolve(id, in: database)
            return try database.rows("SELECT \(Self.labColumns) FROM lab_values v WHERE v.document_id = ? ORDER BY v.position", [row])
                .map(Self.labEntry)
        }
    }

    /// Replaces documents' values (each by id) with those read from their text as it is now (see
    /// ``LabEntry/carried(_:from:typedByPerson:)`` for what the old ones pass on), in one transaction.
    public func replaceLabs(_ batch: [(id: String, labs: [LabEntry])]) throws {
        try library.withDatabase { database in
            try database.inTransaction {
                for (id, labs) in batch { try fileLabs(labs, row: try resolve(id, in: database), in: database) }
            }
        }
    }

    /// Marks a value as compared with the page and right; returns it with its letter, or nil when
    /// there is no such value (or its letter is in the trash).
    @discardableResult
    public func confirmLab(_ valueID: Int) throws -> LabReading? {
        try library.withDatabase { database in
            try database.execute("""
                UPDATE lab_values SET confirmed = 1 WHERE id = ?
                AND document_id IN (SELECT id FROM documents WHERE trashed_at IS NULL)
                """, [valueID])
        }
        return try labReading(valueID)
    }

    /// One value with its letter; nil when there is none, or its letter is in the trash.
    public func labReading(_ valueID: Int) throws -> LabReading? {
        try library.withReader { database in
            try database.firstRow("""
                SELECT \(Self.labColumns), \(Self.labLetterColumns) FROM lab_values v JOIN documents d ON d.id = v.document_id
                WHERE v.id = ? AND d.trashed_at IS NULL
                """, [valueID]).map(Self.labReading)
        }
    }

    /// The values of the letters a filter covers (the lab results and discharge letters among
    /// them, unless it names a type), only `analysis` (its one name or as printed, any case) when
    /// given: by analysis, then the day the sample was taken.
    public func labReadings(_ filter: DocumentFilter = DocumentFilter(), analysis: String? = nil) throws -> [LabReading] {
        var (conditions, arguments) = filter.sql
        if filter.type == nil {
            conditions.append("d.doc_type IN (\(Self.labTypes.map { _ in "?" }.joined(separator: ", ")))")
            arguments += Self.labTypes.map(\.rawValue)
        }
        if let analysis = analysis?.trimmingCharacters(in: .whitespaces), !analysis.isEmpty {
            conditions.append("(v.analysis = ? COLLATE NOCASE OR v.printed = ? COLLATE NOCASE)")
            arguments += [analysis, analysis]
        }
        return try library.withReader { database in
            try database.rows("""
                SELECT \(Self.labColumns), \(Self.labLetterColumns) FROM lab_values v JOIN documents d ON d.id = v.document_id
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(Self.labOrder)
                """, arguments).map(Self.labReading)
        }
    }

    /// The values of the given letters (their row numbers, ``LibraryDocument/number``) that are
    /// not in the trash: what a share of those letters may show, and nothing else. By analysis,
    /// then sampling day.
    public func labReadings(rows: [Int]) throws -> [LabReading] {
        guard !rows.isEmpty else { return [] }
        return try library.withReader { database in
            try database.rows("""
                SELECT \(Self.labColumns), \(Self.labLetterColumns) FROM lab_values v JOIN documents d ON d.id = v.document_id
                WHERE d.trashed_at IS NULL AND v.document_id IN (\(rows.map { _ in "?" }.joined(separator: ", "))) ORDER BY \(Self.labOrder)
                """, rows).map(Self.labReading)
        }
    }

    /// Sets every lab letter's values to be read again when they were read by other rules than
    /// `version` (the current ``LabTable/rulesVersion``), and notes the version; returns how many
    /// letters wait then. Nothing changes when the version is the one noted.
    @discardableResult
    public func rereadLabsIfRulesChanged(version: Int) throws -> Int {
        try library.withDatabase { database in
            if try database.firstRow("SELECT version FROM lab_rules")?[0].int == version { return 0 }
            return try database.inTransaction {
                // A library without a noted version has had its letters' values read at migration 26.
                if try database.firstRow("SELECT 1 FROM lab_rules") != nil {
                    try database.execute("""
                        INSERT OR IGNORE INTO lab_values_pending (document_id)
                        SELECT id FROM documents WHERE trashed_at IS NULL AND doc_type IN (\(Self.labTypes.map { _ in "?" }.joined(separator: ", ")))
                        """, Self.labTypes.map(\.rawValue))
                }
                try database.execute("DELETE FROM lab_rules")
                try database.execute("INSERT INTO lab_rules (version) VALUES (?)", [version])
                return try database.firstRow("SELECT count(*) FROM lab_values_pending")?[0].int ?? 0
            }
        }
    }

    /// Letters filed before lab values were kept whose values are still to be read (at most `limit`).
    public func lettersWithLabsToRead(limit: Int = 500) throws -> [String] {
        try library.withReader { database in
            try database.rows("""
                SELECT d.sha256 FROM lab_values_pending p JOIN documents d ON d.id = p.document_id ORDER BY p.document_id LIMIT ?
                """, [limit]).compactMap { $0[0].string }
        }
    }

    static let labColumns = """
        v.id, v.analysis, v.printed, v.value, v.unit, v.range, v.flag, v.doubtful, v.confirmed, v.sampled, v.page, v.box, v.start, v.length
        """
    static let labLetterColumns = "d.sha256, d.title, d.document_date, d.doc_type, d.family_member, d.person"
    /// By analysis (any case), then the day the value is of, then the letter and the value's place in it.
    static let labOrder = "v.analysis COLLATE NOCASE, COALESCE(v.sampled, d.document_date), d.sha256, v.start"

    /// A stored box (`[x,y,w,h]`), read without a JSON decoder: the values of a member's page are
    /// read by the thousand.
    static func box(_ stored: String?) -> [Int]? {
        guard let stored, stored.hasPrefix("["), stored.hasSuffix("]") else { return nil }
        let numbers = stored.dropFirst().dropLast().split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return numbers.count == 4 ? numbers : nil
    }

    static func labEntry(_ row: Row) -> LabEntry {
        let box = Self.box(row[11].string)
        return LabEntry(id: row[0].int ?? 0, analysis: row[1].string ?? "", printed: row[2].string ?? "", value: row[3].string ?? "",
                        unit: row[4].string, range: row[5].string, flag: row[6].string, doubtful: (row[7].int ?? 0) != 0,
                        confirmed: (row[8].int ?? 0) != 0, sampled: row[9].string, page: row[10].int, box: box,
                        start: row[12].int ?? 0, length: row[13].int ?? 0)
    }

    static func labReading(_ row: Row) -> LabReading {
        LabReading(entry: labEntry(row), letter: ShortID.of(row[14].string ?? ""), title: row[15].string ?? "",
                   documentDate: row[16].string ?? "", docType: DocumentType(rawValue: row[17].string ?? "") ?? .annet,
                   member: row[18].string, person: row[19].string)
    }
}
