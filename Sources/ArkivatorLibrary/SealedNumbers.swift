import ArkivatorCore
import Foundation

/// A document text as the database holds it: every fødselsnummer masked (`DDMMYY •••••`), the
/// numbers themselves sealed with AES-GCM under the ``LibraryKey``.
///
/// The index, the snippets and every page of the database file see only the masked text, so the
/// raw number is never in the file (nor in its `-wal`). ``open(with:)`` puts the numbers back in
/// memory, for `show` and for rewriting the `.docx`.
struct SealedText: Equatable {
    /// The text with each fødselsnummer replaced by its masked form.
    var masked: String
    /// The sealed list of numbers and where they stand in `masked`; nil when there are none.
    var sealed: Data?
    /// How many numbers were masked.
    var count: Int

    /// One masked number: its place in `masked` (in Unicode scalars) and its digits as written.
    private struct Hidden: Codable {
        var start: Int
        var length: Int
        var original: String
    }

    private static func associatedData(_ documentSHA: String) -> Data {
        Data("arkivator.document.fnr.v1\u{0}\(documentSHA)".utf8)
    }

    /// Masks and seals the fødselsnumre of `text` (bound to the document's SHA-256).
    static func seal(_ text: String, document sha: String, key: LibraryKey) throws -> SealedText {
        let found = Fodselsnummer.matches(in: text)
        guard !found.isEmpty else { return SealedText(masked: text, sealed: nil, count: 0) }
        var scalars = Array(text.unicodeScalars)
        var hidden: [Hidden] = []
        var shift = 0
        for match in found {
            let replacement = Array(match.number.masked.unicodeScalars)
            let start = match.range.lowerBound + shift
            let original = String(String.UnicodeScalarView(scalars[start..<(start + match.range.count)]))
            scalars.replaceSubrange(start..<(start + match.range.count), with: replacement)
            hidden.append(Hidden(start: start, length: replacement.count, original: original))
            shift += replacement.count - match.range.count
        }
        let plain = try JSONEncoder().encode(hidden)
        guard let combined = key.seal(plain, context: associatedData(sha)) else { throw LibraryFailure.sealing }
        return SealedText(masked: String(String.UnicodeScalarView(scalars)), sealed: combined, count: hidden.count)
    }

    /// The original text, numbers put back. Throws when the key cannot open the sealed list.
    func open(document sha: String, key: LibraryKey) throws -> String {
        guard let sealed else { return masked }
        guard let plain = key.unseal(sealed, context: Self.associatedData(sha)),
              let hidden = try? JSONDecoder().decode([Hidden].self, from: plain) else {
            throw LibraryFailure.wrongKey
        }
        var scalars = Array(masked.unicodeScalars)
        for item in hidden.reversed() {
            guard item.start >= 0, item.start + item.length <= scalars.count else { continue }
            scalars.replaceSubrange(item.start..<(item.start + item.length), with: Array(item.original.unicodeScalars))
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
