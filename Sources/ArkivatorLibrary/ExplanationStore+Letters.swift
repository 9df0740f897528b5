import ArkivatorCore
internal import ArkivatorCrypto
import Foundation

/// A letter's explanation as the library keeps it: the model's words, when they were made, and
/// whether the letter's text has been corrected since.
public struct StoredExplanation: Sendable, Equatable, Encodable {
    /// The letter's short id.
    public var documentID: String
    public var explanation: LetterExplanation
    /// UTC, ISO 8601.
    public var createdAt: String
    /// True when the letter's text was changed (corrected, read again) after the explanation was made.
    public var fromOlderText: Bool

    public init(documentID: String, explanation: LetterExplanation, createdAt: String, fromOlderText: Bool) {
        self.documentID = documentID
        self.explanation = explanation
        self.createdAt = createdAt
        self.fromOlderText = fromOlderText
    }

    /// When, as `14.03.2024 10:30` in this machine's time zone.
    public var shownTime: String { TextVersion.shownTime(createdAt) }

    private enum Keys: String, CodingKey { case document, what, steps, deadline, model, createdAt, fromOlderText }

    /// `{"document", "what", "steps", "deadline", "model", "createdAt", "fromOlderText"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(documentID, forKey: .document)
        try c.encode(explanation.what, forKey: .what)
        try c.encode(explanation.steps, forKey: .steps)
        try c.encode(explanation.deadline, forKey: .deadline)
        try c.encode(explanation.model, forKey: .model)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(fromOlderText, forKey: .fromOlderText)
    }
}

/// What a letter is explained from: the letter with its numbers (they are hidden before anything
/// is sent) and the stamp of its stored text, kept with the explanation.
public struct ExplanationSource: Sendable {
    public var document: LibraryDocument
    public var textStamp: String
}

extension ExplanationStore {
    /// The letter to explain, read with its numbers, and the stamp of its text now.
    /// - Throws: ``LibraryFailure`` for an unknown id or a letter in the trash.
    public func explanationSource(_ id: String) throws -> ExplanationSource {
        try library.withReader { database in
            let row = try library.documents.resolve(id, in: database)
            let document = try library.documents.read(row: row, in: database, revealNumbers: true)
            guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
            return ExplanationSource(document: document, textStamp: try Self.textStamp(row: row, in: database))
        }
    }

    /// Keeps `explanation` with the letter in place of any earlier one, fødselsnumre masked;
    /// `textStamp` is the one ``explanationSource(_:)`` gave when the letter was read.
    @discardableResult
    public func saveExplanation(_ explanation: LetterExplanation, of id: String, textStamp: String) throws -> StoredExplanation {
        let steps = String(decoding: try JSONEncoder().encode(explanation.steps.map(Redaction.redact)), as: UTF8.self)
        let now = Library.now()
        try library.withDatabase { database in
            let row = try library.documents.resolve(id, in: database)
            try database.execute("""
                INSERT INTO explanations (document_id, what, steps, deadline, model, text_sha256, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (document_id) DO UPDATE SET what = excluded.what, steps = excluded.steps,
                    deadline = excluded.deadline, model = excluded.model, text_sha256 = excluded.text_sha256,
                    created_at = excluded.created_at
                """, [row, Redaction.redact(explanation.what), steps, explanation.deadline,
                      Redaction.redact(explanation.model), textStamp, now])
        }
        guard let stored = try self.explanation(of: id) else { throw LibraryFailure.notFound(id) }
        return stored
    }

    /// The letter's explanation, if one was made; nil when none was.
    public func explanation(of id: String) throws -> StoredExplanation? {
        try library.withReader { database in
            let row = try library.documents.resolve(id, in: database)
            guard let found = try database.firstRow("""
                SELECT e.what, e.steps, e.deadline, e.model, e.text_sha256, e.created_at, d.sha256
                FROM explanations AS e JOIN documents AS d ON d.id = e.document_id WHERE e.document_id = ?
                """, [row]) else { return nil }
            let steps = (try? JSONDecoder().decode([String].self, from: Data((found[1].string ?? "[]").utf8))) ?? []
            return StoredExplanation(
                documentID: ShortID.of(found[6].string ?? ""),
                explanation: LetterExplanation(what: found[0].string ?? "", steps: steps, deadline: found[2].string,
                                               model: found[3].string ?? ""),
                createdAt: found[5].string ?? "",
                fromOlderText: found[4].string != (try Self.textStamp(row: row, in: database)))
        }
    }

    /// The SHA-256 of the letter's stored text (numbers masked), in hex.
    static func textStamp(row: Int, in database: Database) throws -> String {
        let text = try database.firstRow("SELECT text FROM documents WHERE id = ?", [row])?[0].string ?? ""
        return Hex.string(SHA256.hash(data: Data(text.utf8)))
    }
}
