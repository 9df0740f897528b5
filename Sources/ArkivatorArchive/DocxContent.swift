import Foundation

/// A stretch of body text with one look: plain, or highlighted in yellow (a word the OCR was
/// unsure of). A `\n` in `text` becomes a line break, a tab a tab.
public struct DocxRun: Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var highlighted: Bool

    public init(_ text: String, highlighted: Bool = false) {
        self.text = text
        self.highlighted = highlighted
    }

    public init(text: String, highlighted: Bool) {
        self.init(text, highlighted: highlighted)
    }

    public var description: String { highlighted ? "[\(text)]" : text }
}

/// What goes into one `.docx`: the title (also the heading), the page header's fields, the body
/// paragraphs, the footer line and the document properties.
public struct DocxContent: Sendable {
    /// The document's title: `dc:title` and the Heading 1 that opens the body.
    public var title: String
    /// Shown in the page header as `Label: value`, in order; fields with an empty value are left out.
    public var headerFields: [(label: String, value: String)]
    /// Body paragraphs after the heading, each a list of runs.
    public var paragraphs: [[DocxRun]]
    /// The page footer, e.g. `Skannet 2025-11-20 · Arkivator 0.1 · brev_p1.jpg`.
    public var footer: String
    /// `dcterms:created` (and `modified`); also the zip entries' time, so the same content gives the same bytes.
    public var created: Date
    /// Custom document properties (`docProps/custom.xml`), as text; a name given twice keeps its last value.
    public var customProperties: [(name: String, value: String)]
    /// The text's language (BCP 47), for spelling and hyphenation.
    public var language: String

    public init(title: String, headerFields: [(label: String, value: String)] = [], paragraphs: [[DocxRun]] = [],
                footer: String = "", created: Date = Date(), customProperties: [(name: String, value: String)] = [],
                language: String = "nb-NO") {
        self.title = title
        self.headerFields = headerFields
        self.paragraphs = paragraphs
        self.footer = footer
        self.created = created
        self.customProperties = customProperties
        self.language = language
    }

    /// Body paragraphs from recognised text, with the given ranges highlighted.
    ///
    /// - A blank line (empty, or only whitespace) ends a paragraph; so does a form feed `\f`
    ///   (between pages) or U+2029.
    /// - Other line ends (`\n`, `\r\n`, `\r`, U+2028) stay inside the paragraph as `\n` in the
    ///   runs (a line break in the document), so a paragraph's text is its lines joined by `\n`.
    /// - Characters XML 1.0 forbids (control characters other than tab and line ends,
    ///   U+FFFE, U+FFFF) are removed.
    /// - `lowConfidence` ranges count Unicode scalars of `text` (as `lowConfidenceWords` in
    ///   `ingest --json` do); exactly those characters are highlighted, runs split at the edges.
    ///   Parts of ranges outside the text are ignored.
    public static func paragraphs(fromText text: String, lowConfidence: [(start: Int, length: Int)] = []) -> [[DocxRun]] {
        let scalars = Array(text.unicodeScalars)
        var marked = [Bool](repeating: false, count: scalars.count)
        for range in lowConfidence where range.length > 0 {
            let lower = max(0, range.start)
            let (end, overflow) = range.start.addingReportingOverflow(range.length)
            let upper = min(scalars.count, overflow ? scalars.count : end)
            if lower < upper { for index in lower..<upper { marked[index] = true } }
        }

        typealias Mark = (scalar: Unicode.Scalar, highlighted: Bool)
        var paragraphs: [[DocxRun]] = []
        var lines: [[Mark]] = []     // the current paragraph's lines so far
        var lineBreaks: [Bool] = []       // whether the line end before each line (after the first) is highlighted
        var line: [Mark] = []
        var pendingBreak = false          // the highlight of the line end that ended the last line

        func endParagraph() {
            defer { lines = []; lineBreaks = [] }
            guard !lines.isEmpty else { return }
            var characters: [Mark] = []
            for (number, line) in lines.enumerated() {
                if number > 0 { characters.append(("\n", lineBreaks[number - 1])) }
                characters.append(contentsOf: line)
            }
            paragraphs.append(runs(characters))
        }
        func endLine(breakHighlighted: Bool, endsParagraph: Bool) {
            let blank = line.allSatisfy { $0.scalar.properties.isWhitespace }
            if blank {
                endParagraph()
            } else {
                if !lines.isEmpty { lineBreaks.append(pendingBreak) }
                lines.append(line)
                if endsParagraph { endParagraph() }
            }
            pendingBreak = breakHighlighted
            line = []
        }

        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n":
                index += 1  // CR LF: one line end, at the LF
                endLine(breakHighlighted: marked[index], endsParagraph: false)
            case "\n", "\r", "\u{2028}":
                endLine(breakHighlighted: marked[index], endsParagraph: false)
            case "\u{0C}", "\u{2029}":
                endLine(breakHighlighted: false, endsParagraph: true)
            default:
                if DocxXML.isAllowed(scalar) { line.append((scalar, marked[index])) }
            }
            index += 1
        }
        endLine(breakHighlighted: false, endsParagraph: true)
        return paragraphs
    }

    /// Runs from highlighted characters: one run per stretch with the same highlight.
    private static func runs(_ characters: [(scalar: Unicode.Scalar, highlighted: Bool)]) -> [DocxRun] {
        var result: [DocxRun] = []
        var text = String.UnicodeScalarView()
        var highlighted = false
        for character in characters {
            if character.highlighted != highlighted, !text.isEmpty {
                result.append(DocxRun(String(text), highlighted: highlighted))
                text = String.UnicodeScalarView()
            }
            highlighted = character.highlighted
            text.append(character.scalar)
        }
        if !text.isEmpty { result.append(DocxRun(String(text), highlighted: highlighted)) }
        return result
    }
}
