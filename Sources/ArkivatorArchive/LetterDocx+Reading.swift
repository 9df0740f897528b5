import Foundation

extension LetterDocx {
    /// Reads back a `.docx` that arkivator wrote (``DocxWriter`` from ``content(mask:created:)``):
    /// the title, the custom properties, the footer's file name and the body text, paragraphs
    /// joined by a blank line (highlights and page breaks are not kept). Used to take archive
    /// files that a restored library does not know back into it. Nil when the file is not one of
    /// arkivator's (no `sourceSHA256` property); throws when it is not a readable zip.
    public static func read(from url: URL) throws -> LetterDocx? {
        let zip = try ZipReader(url: url)
        guard let custom = try zip.entry("docProps/custom.xml").map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        let properties = DocxReading.customProperties(custom)
        guard let sha = properties["sourceSHA256"], sha.count == 64 else { return nil }
        let core = try zip.entry("docProps/core.xml").map { String(decoding: $0, as: UTF8.self) } ?? ""
        let body = try zip.entry("word/document.xml").map { String(decoding: $0, as: UTF8.self) } ?? ""
        let footer = try zip.entry("word/footer1.xml").map { String(decoding: $0, as: UTF8.self) } ?? ""
        var paragraphs = DocxReading.paragraphs(body)
        let title = DocxReading.element("dc:title", in: core) ?? paragraphs.first ?? url.deletingPathExtension().lastPathComponent
        if !paragraphs.isEmpty { paragraphs.removeFirst() }  // the heading: the title again
        let footerText = DocxReading.paragraphs(footer).joined(separator: " ")
        let parts = footerText.components(separatedBy: " · ")
        let version = parts.count >= 3 ? parts[1].replacingOccurrences(of: "Arkivator ", with: "") : ""
        func value(_ name: String) -> String? { properties[name].flatMap { $0.isEmpty ? nil : $0 } }
        let documentDate = value("documentDate")
        return LetterDocx(
            title: title, date: documentDate ?? String(title.prefix(10)), institution: value("institution"),
            specialty: value("specialty"), person: value("person"), docType: value("docType"),
            documentDate: documentDate, scanDate: value("scanDate"),
            keywords: (value("keywords") ?? "").components(separatedBy: ", ").filter { !$0.isEmpty },
            ocrConfidence: value("ocrConfidence").flatMap(Double.init), sha256: sha.lowercased(),
            text: paragraphs.joined(separator: "\n\n"), lowConfidence: [],
            sourceName: parts.count >= 3 ? parts[2...].joined(separator: " · ") : url.lastPathComponent,
            programVersion: version)
    }
}

/// The few pieces of the XML that ``DocxWriter`` writes, read back without a general parser
/// (the writer's own shapes: `<w:p>`, `<w:t xml:space="preserve">`, `<w:br/>`, `<w:tab/>`,
/// `<property name="…"><vt:lpwstr>`).
enum DocxReading {
    /// The custom properties by name.
    static func customProperties(_ xml: String) -> [String: String] {
        var result: [String: String] = [:]
        for chunk in xml.components(separatedBy: "<property ").dropFirst() {
            guard let nameStart = chunk.range(of: "name=\"") else { continue }
            let rest = chunk[nameStart.upperBound...]
            guard let nameEnd = rest.firstIndex(of: "\"") else { continue }
            result[unescape(String(rest[..<nameEnd]))] = element("vt:lpwstr", in: String(rest)) ?? ""
        }
        return result
    }

    /// The text of the first `<tag>…</tag>`, unescaped.
    static func element(_ tag: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(tag)>") ?? xml.range(of: "<\(tag) "),
              let close = xml.range(of: "</\(tag)>", range: open.upperBound..<xml.endIndex),
              let start = xml[open.lowerBound..<close.lowerBound].firstIndex(of: ">") else { return nil }
        return unescape(String(xml[xml.index(after: start)..<close.lowerBound]))
    }

    /// Each `<w:p>`'s text: `w:t` contents, `w:br` as a line end, `w:tab` as a tab.
    static func paragraphs(_ xml: String) -> [String] {
        var result: [String] = []
        var current: String?
        var index = xml.startIndex
        while let open = xml[index...].firstIndex(of: "<") {
            guard let close = xml[open...].firstIndex(of: ">") else { break }
            let tag = xml[xml.index(after: open)..<close]
            index = xml.index(after: close)
            let name = tag.prefix { $0 != " " && $0 != "/" && $0 != ">" }
            switch name {
            case "w:p": current = ""
            case "w:t" where !tag.hasSuffix("/"):
                guard let end = xml.range(of: "</w:t>", range: index..<xml.endIndex) else { break }
                current = (current ?? "") + unescape(String(xml[index..<end.lowerBound]))
                index = end.upperBound
            case "w:br": current = (current ?? "") + "\n"
            case "w:tab": current = (current ?? "") + "\t"
            default:
                if tag == "/w:p", let text = current {
                    result.append(text)
                    current = nil
                }
            }
        }
        return result
    }

    /// XML character data with its entities and character references replaced.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let scalar = number.flatMap({ Unicode.Scalar($0) }) { result.unicodeScalars.append(scalar) }
                else { result += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
