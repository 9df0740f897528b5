import ArkivatorCore
import Foundation

/// Where a number OCR may have misread stands on its page: outlined over the page image on the
/// review and document pages, so a person compares it with the paper (see ``ReviewReason``'s
/// «Usikkert tall»). Kept in `documents.number_marks` (migration 18).
public struct NumberMark: Sendable, Equatable, Codable {
    /// The page (1…).
    public var page: Int
    /// x, y, width, height in the page image's pixels (the page's ``LibraryDocument/Page`` size):
    /// the union of the boxes of the words the number stands in.
    public var box: [Int]
    /// The number as it stands in the text (a fødselsnummer's digits masked).
    public var text: String
    /// Where it stands in the document's text: Unicode scalars, as ``LibraryDocument/lowConfidence``.
    public var start: Int
    public var length: Int

    public init(page: Int, box: [Int], text: String, start: Int, length: Int) {
        self.page = page
        self.box = box
        self.text = text
        self.start = start
        self.length = length
    }

    /// Whether the box is one a page can show: four numbers, a positive size.
    public var hasBox: Bool { box.count == 4 && box[2] > 0 && box[3] > 0 && box[0] >= 0 && box[1] >= 0 }

    /// The marks with any fødselsnummer in their text masked, as the stored text has it.
    static func redacted(_ marks: [NumberMark]) -> [NumberMark] {
        marks.map { mark in
            var masked = mark
            masked.text = Redaction.redact(mark.text)
            return masked
        }
    }

    /// The marks as stored: a JSON list.
    static func json(_ marks: [NumberMark]?) throws -> String {
        String(decoding: try JSONEncoder().encode(marks ?? []), as: UTF8.self)
    }

    /// The marks a stored list holds; nil when none (or the text is not a list of marks).
    static func marks(_ json: String?) -> [NumberMark]? {
        guard let json, let marks = try? JSONDecoder().decode([NumberMark].self, from: Data(json.utf8)),
              !marks.isEmpty else { return nil }
        return marks
    }

    /// The marks whose number still stands as it was after the text changed, moved to where it
    /// stands now; a mark on a number that was changed (a person put it right) or taken out goes.
    static func mapped(_ marks: [NumberMark]?, through diff: TextDiff) -> [NumberMark]? {
        let kept = (marks ?? []).compactMap { mark -> NumberMark? in
            guard let range = diff.mapped([LibraryDocument.TextRange(start: mark.start, length: mark.length)]).first,
                  range.length == mark.length else { return nil }
            var moved = mark
            moved.start = range.start
            return moved
        }
        return kept.isEmpty ? nil : kept
    }
}
