import NIOConcurrencyHelpers

/// The household's Tesseract engines for page work outside the pipeline (a page read again, a
/// redaction, a share pack): made on first need and kept, at most ``kept`` of each language, so
/// a run of such work reuses them instead of loading a model each time. A reader is lent to one
/// caller at a time (see ``PageReader``); the web app runs this work one at a time in its page
/// lane, so one is usually enough.
package final class PageReaders: Sendable {
    /// Readers kept idle per language.
    package static let kept = 2

    private let idle = NIOLockedValueBox<[String: [PageReader]]>([:])

    package init() {}

    /// Runs `body` with a reader of `language` that no one else uses meanwhile, made when none
    /// is idle, and keeps it for the next caller.
    package func with<T>(_ language: String, _ body: (PageReader) throws -> T) throws -> T {
        let reader = try idle.withLockedValue { $0[language]?.popLast() } ?? PageReader(language: language)
        defer {
            idle.withLockedValue { idle in
                if idle[language, default: []].count < Self.kept { idle[language, default: []].append(reader) }
            }
        }
        return try body(reader)
    }
}
