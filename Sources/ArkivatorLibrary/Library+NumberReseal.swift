import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Library {
    /// The settings key that records which detector the stored texts were sealed with.
    static let numberDetectorSetting = "fnr_detector"
    /// 2: the detector that reads every written form (spaces, dashes, dots, groups, line breaks).
    static let numberDetectorVersion = "2"

    /// Letters filed before the detector read every written form of a fødselsnummer may hold one
    /// it missed (`140385-12324`, `14.03.85 12324`, one broken across a line) in clear: in the
    /// stored text and its kept readings (and so in the index and the database file), the
    /// explanation, the appointments and the numbers in doubt. Once per library each such number
    /// is masked and sealed as a new letter's is (`show` and the `.docx` still have it; `redact`
    /// hides it for good), and the file is cleaned of the old rows. Returns how many letters'
    /// texts changed. A row whose sealed numbers cannot be opened is left to be masked when read.
    @discardableResult
    public func sealNumbersTheDetectorNowReads() throws -> Int {
        let done = try withReader { try $0.firstRow("SELECT value FROM settings WHERE key = ?", [Self.numberDetectorSetting])?[0].string }
        guard done != Self.numberDetectorVersion else { return 0 }
        return try withDatabase { database in
            let changed = try database.inTransaction { () throws -> Int in
                // Another process may have done it since.
                let now = try database.firstRow("SELECT value FROM settings WHERE key = ?", [Self.numberDetectorSetting])?[0].string
                guard now != Self.numberDetectorVersion else { return 0 }
                var changed = 0
                for row in try database.rows("SELECT id, sha256, text, fnr_sealed FROM documents") {
                    guard let id = row[0].int, let sha = row[1].string, let text = row[2].string,
                          !Fodselsnummer.matches(in: text).isEmpty,
                          let original = try? SealedText(masked: text, sealed: row[3].data, count: 0).open(document: sha, key: key) else {
                        continue
                    }
                    let sealed = try SealedText.seal(original, document: sha, key: key)
                    try documents.unindex(row: id, in: database)
                    try database.execute("UPDATE documents SET text = ?, fnr_sealed = ?, fnr_count = ? WHERE id = ?",
                                         [sealed.masked, sealed.sealed, sealed.count, id])
                    database.knownTerms?.formUnion(try documents.index(row: id, in: database))
                    changed += 1
                }
                for row in try database.rows("""
                    SELECT v.id, d.sha256, v.text, v.fnr_sealed FROM text_versions AS v JOIN documents AS d ON d.id = v.document_id
                    """) {
                    guard let id = row[0].int, let sha = row[1].string, let text = row[2].string,
                          !Fodselsnummer.matches(in: text).isEmpty,
                          let original = try? SealedText(masked: text, sealed: row[3].data, count: 0).open(document: sha, key: key) else {
                        continue
                    }
                    let sealed = try SealedText.seal(original, document: sha, key: key)
                    try database.execute("UPDATE text_versions SET text = ?, fnr_sealed = ? WHERE id = ?", [sealed.masked, sealed.sealed, id])
                }
                try maskStoredNumbers(in: database)
                try database.execute("""
                    INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """, [Self.numberDetectorSetting, Self.numberDetectorVersion])
                try database.execute("DELETE FROM term_documents WHERE documents <= 0")
                return changed
            }
            if changed > 0 {
                try database.execute("INSERT INTO documents_fts(documents_fts) VALUES ('optimize')")
                do {
                    try database.checkpoint()
                } catch let error as DatabaseError where error.isBusy {}
            }
            return changed
        }
    }

    /// The explanations, appointments and numbers in doubt with every number the detector reads masked.
    private func maskStoredNumbers(in database: Database) throws {
        func holds(_ values: [String?]) -> Bool { values.contains { !Fodselsnummer.matches(in: $0 ?? "").isEmpty } }
        for row in try database.rows("SELECT document_id, what, steps, model FROM explanations") where holds([row[1].string, row[2].string]) {
            let steps = (try? JSONDecoder().decode([String].self, from: Data((row[2].string ?? "[]").utf8))) ?? []
            try database.execute("UPDATE explanations SET what = ?, steps = ?, model = ? WHERE document_id = ?",
                                 [Redaction.redact(row[1].string ?? ""),
                                  String(decoding: try JSONEncoder().encode(steps.map(Redaction.redact)), as: UTF8.self),
                                  Redaction.redact(row[3].string ?? ""), row[0].int])
        }
        for row in try database.rows("SELECT id, person, sender, specialty, place, bring, change FROM appointments")
        where holds((1...6).map { row[$0].string }) {
            try database.execute("""
                UPDATE appointments SET person = ?, sender = ?, specialty = ?, place = ?, bring = ?, change = ? WHERE id = ?
                """, (1...6).map { row[$0].string.map(Redaction.redact) } + [row[0].int])
        }
        for table in ["documents", "text_versions"] {
            for row in try database.rows("SELECT id, number_marks FROM \(table)") where holds([row[1].string]) {
                let marks = NumberMark.redacted(NumberMark.marks(row[1].string) ?? [])
                try database.execute("UPDATE \(table) SET number_marks = ? WHERE id = ?", [try NumberMark.json(marks), row[0].int])
            }
        }
    }
}
