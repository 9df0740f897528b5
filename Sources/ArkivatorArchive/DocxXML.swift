/// Small pieces of WordprocessingML: escaping, runs and paragraphs.
enum DocxXML {
    static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
    static let wordNamespace = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    static let relationshipNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

    /// Whether XML 1.0 allows `scalar` in a document (`Char` production; lone surrogates cannot occur in Swift).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `text` as XML character data or an attribute value: `& < > " '` escaped, tab and line
    /// ends as character references (so they survive attribute normalisation and CR/LF
    /// folding), characters XML forbids removed.
    static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default: if isAllowed(scalar) { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    /// One `w:r`: text in `w:t` (spaces kept), `\n` (also `\r\n`, `\r`, U+2028, U+2029) as
    /// `w:br`, tab as `w:tab`, form feed as a page break. Empty when nothing would show.
    static func run(_ text: String, properties: String = "") -> String {
        var content = ""
        var chunk = ""
        func flush() {
            guard !chunk.isEmpty else { return }
            content += #"<w:t xml:space="preserve">"# + escape(chunk) + "</w:t>"
            chunk = ""
        }
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\n" where afterCR:
                continue
            case "\n", "\r", "\u{2028}", "\u{2029}":
                flush()
                content += "<w:br/>"
            case "\t":
                flush()
                content += "<w:tab/>"
            case "\u{0C}":
                flush()
                content += #"<w:br w:type="page"/>"#
            default:
                if isAllowed(scalar) { chunk.unicodeScalars.append(scalar) }
            }
        }
        flush()
        guard !content.isEmpty else { return "" }
        let rPr = properties.isEmpty ? "" : "<w:rPr>\(properties)</w:rPr>"
        return "<w:r>\(rPr)\(content)</w:r>"
    }

    /// A body run: yellow highlight when the OCR was unsure.
    static func run(_ run: DocxRun) -> String {
        self.run(run.text, properties: run.highlighted ? #"<w:highlight w:val="yellow"/>"# : "")
    }

    /// One `w:p` with paragraph style `style` (nil: Normal) holding `runs` (already XML).
    static func paragraph(style: String?, _ runs: String) -> String {
        let pPr = style.map { #"<w:pPr><w:pStyle w:val=""# + escape($0) + #""/></w:pPr>"# } ?? ""
        return "<w:p>\(pPr)\(runs)</w:p>"
    }
}
