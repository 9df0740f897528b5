import Foundation

/// One reading of a document's text, as the document page lists them.
public struct TextVersion: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The OCR's own reading, kept when the text was first corrected.
        case ocr
        /// A person's correction.
        case corrected
        /// The OCR's reading brought back.
        case restored
    }

    public var kind: Kind
    /// When (UTC, ISO 8601): for the OCR's reading, when the letter was filed.
    public var createdAt: String
    /// What changed from the reading before (none for the OCR's own); fødselsnumre masked.
    public var changes: [TextDiff.Change]

    /// When, as `14.03.2024 10:30` in this machine's time zone (the household's).
    public var shownTime: String { Self.shownTime(createdAt) }

    /// A stored UTC time (ISO 8601) as `14.03.2024 10:30` in this machine's time zone; the text
    /// itself when it is not such a time.
    public static func shownTime(_ createdAt: String) -> String {
        guard let date = ISO8601DateFormatter().date(from: createdAt) else { return createdAt }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%02d.%02d.%04d %02d:%02d", parts.day ?? 0, parts.month ?? 0, parts.year ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0)
    }
}

/// What a text correction did.
public struct TextCorrection: Sendable {
    /// The document as it is now (numbers masked).
    public var document: LibraryDocument
    /// False when the text was already so: nothing was written.
    public var changed: Bool
    /// Whether the searchable PDF's text was made again; false for a letter kept as the PDF it
    /// came as (its own text stays) or one without a PDF.
    public var pdfRewritten: Bool
}
