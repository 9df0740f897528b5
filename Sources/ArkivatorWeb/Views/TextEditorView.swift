import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache

/// "Rett teksten" (document page and review): one text box per page with the text as the
/// library holds it (numbers masked; a masked number left as it is keeps its number), the words
/// the OCR was unsure of named above it, and on the document page the text's versions with
/// "Hent tilbake OCR-lesningen".
struct TextEditorView {
    let action: String
    /// Where to go after saving: `review`, or nil for the document page.
    let back: String?
    let open: Bool
    let notice: String?
    let pageCount: Int
    let pages: [Page]
    /// The text shows a masked fødselsnummer: say that it may stay as it is.
    let hasMaskedNumber: Bool
    let hasLowWords: Bool
    let lowWords: [String]
    let hasVersions: Bool
    let versions: [Version]
    let restoreAction: String?

    struct Page {
        let field: String
        let label: String
        let text: String
        let rows: Int
    }

    struct Version {
        let when: String
        let iso: String
        let what: String
    }

    /// The most words named above the editor.
    static let namedWords = 30

    init(_ document: LibraryDocument, back: String? = nil, open: Bool = false, notice: String? = nil,
         versions: [TextVersion] = [], words: Words) {
        action = "/documents/\(document.shortID)/text"
        self.back = back
        self.notice = notice
        self.open = open || notice != nil
        var parts = document.text.components(separatedBy: "\u{0C}")
        if parts.count < document.pageCount { parts += Array(repeating: "", count: document.pageCount - parts.count) }
        pageCount = parts.count
        pages = parts.enumerated().map { index, text in
            let label = parts.count == 1 ? words["textEditLabel"]
                : words.text("Teksten, side \(index + 1)", "The text, page \(index + 1)")
            return Page(field: "side\(index + 1)", label: label, text: text,
                        rows: min(30, max(8, text.split(separator: "\n", omittingEmptySubsequences: false).count + 2)))
        }
        hasMaskedNumber = document.text.contains(" " + Redaction.hiddenDigits)
        lowWords = Self.lowWords(document)
        hasLowWords = !lowWords.isEmpty
        let newest = versions.count - 1
        self.versions = versions.enumerated().reversed().map { index, version in
            let what: String
            switch version.kind {
            case .ocr: what = words["textVersionOCR"]
            case .restored: what = words["textVersionRestored"]
            case .corrected:
                let shown = version.changes.prefix(5).map { change in
                    change.removed.isEmpty ? "+ «\(change.added)»" : change.added.isEmpty ? "− «\(change.removed)»"
                        : "«\(change.removed)» → «\(change.added)»"
                }
                what = words["textVersionCorrected"] + " " + shown.joined(separator: ", ") + (version.changes.count > 5 ? " …" : "")
            }
            return Version(when: version.shownTime, iso: version.createdAt,
                           what: index == newest ? what + " " + words["textVersionCurrent"] : what)
        }
        hasVersions = !versions.isEmpty
        restoreAction = versions.last?.kind == .corrected ? "/documents/\(document.shortID)/text/ocr" : nil
    }

    /// The low-confidence words, each once, in the text's order.
    static func lowWords(_ document: LibraryDocument) -> [String] {
        let scalars = Array(document.text.unicodeScalars)
        var seen: Set<String> = [], result: [String] = []
        for range in document.lowConfidence where range.start >= 0 && range.length > 0 && range.start + range.length <= scalars.count {
            let word = String(String.UnicodeScalarView(scalars[range.start..<(range.start + range.length)]))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !word.isEmpty, seen.insert(word).inserted else { continue }
            result.append(word)
            if result.count == namedWords { break }
        }
        return result
    }

    /// The text a posted editor gives (its pages joined by form feeds), or nil without one.
    static func text(from form: WebForm) -> String? {
        guard form["side1"] != nil else { return nil }
        let count = min(500, max(1, Int(form["pages"] ?? "1") ?? 1))
        return (1...count).map { form["side\($0)"] ?? "" }.joined(separator: "\u{0C}")
    }

    /// The notice for `?tekst=` after a save: saved, unchanged, saved with the PDF kept, OCR back.
    static func notice(_ form: WebForm, words: Words) -> String? {
        switch form.value("tekst") {
        case "lagret": words["textSaved"]
        case "uendret": words["textUnchanged"]
        case "pdf": words["textSaved"] + " " + words["textPdfKept"]
        case "ocr": words["textRestored"]
        default: nil
        }
    }

    /// The `?tekst=` value for what a save did.
    static func outcome(_ correction: TextCorrection, restored: Bool = false) -> String {
        guard correction.changed else { return "uendret" }
        if restored { return "ocr" }
        return correction.pdfRewritten || correction.document.files.pdf == nil ? "lagret" : "pdf"
    }
}

extension TextEditorView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "action": action
        case "back": back
        case "open": open
        case "notice": notice
        case "pageCount": pageCount
        case "pages": pages
        case "hasMaskedNumber": hasMaskedNumber
        case "hasLowWords": hasLowWords
        case "lowWords": lowWords
        case "hasVersions": hasVersions
        case "versions": versions
        case "restoreAction": restoreAction
        default: nil
        }
    }
}

extension TextEditorView.Page: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "field": field
        case "label": label
        case "text": text
        case "rows": rows
        default: nil
        }
    }
}

extension TextEditorView.Version: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "when": when
        case "iso": iso
        case "what": what
        default: nil
        }
    }
}
