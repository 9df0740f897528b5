import Foundation

extension SearchablePDF {
    /// Reads back a PDF that ``data()`` wrote: each page's JPEG as it is embedded, its size and
    /// resolution, and its invisible text lines with their boxes (worked back from the position,
    /// font size and horizontal scaling each line was drawn with, to within a pixel or two). Nil
    /// for any other PDF (a letter kept as the PDF it came as): only our own plain layout is read.
    public init?(reading bytes: [UInt8]) {
        guard let file = OwnPDF(bytes), file.isOurs, let tree = file.dictionary(file.rootPages),
              let kids = Self.references(after: "/Kids", in: tree) else { return nil }
        var pages: [Page] = []
        for kid in kids {
            guard let page = file.dictionary(kid), let image = Self.reference(after: "/Im0", in: page),
                  let content = Self.reference(after: "/Contents", in: page),
                  let media = Self.numbers(after: "/MediaBox [", in: page), media.count == 4, media[2] > 0, media[3] > 0,
                  let picture = file.stream(image), let width = Self.integer(after: "/Width", in: picture.dictionary),
                  let height = Self.integer(after: "/Height", in: picture.dictionary), width > 0, height > 0,
                  let drawing = file.stream(content) else { return nil }
            let dpi = Double(width) * 72 / media[2]
            let lines = Self.lines(in: String(decoding: drawing.bytes, as: UTF8.self), dpi: dpi, pageHeight: media[3])
            pages.append(Page(jpeg: picture.bytes, width: width, height: height, dpi: dpi,
                              components: picture.dictionary.contains("/DeviceRGB") ? 3 : 1, lines: lines))
        }
        self.init(title: "", pages: pages)
    }

    /// The lines of a content stream as ``contentStream(_:size:)`` writes them:
    /// `/F1 <size> Tf <stretch> Tz 1 0 0 1 <x> <y> Tm (<text>) Tj`.
    private static func lines(in stream: String, dpi: Double, pageHeight: Double) -> [Line] {
        let scale = 72 / dpi
        var lines: [Line] = []
        for row in stream.split(separator: "\n") where row.hasPrefix("/F1 ") && row.hasSuffix(") Tj") {
            guard let open = row.firstIndex(of: "(") else { continue }
            let head = row[..<open].split(separator: " ").compactMap { Double($0) }
            guard head.count == 8 else { continue }
            let (fontSize, stretch, x, y) = (head[0], head[1], head[6], head[7])
            let encoded = unescaped(row[row.index(after: open)..<row.index(row.endIndex, offsetBy: -4)])
            let heightPoints = fontSize / 0.9
            let boxHeight = heightPoints / scale
            let top = (pageHeight - y + heightPoints * 0.15) / scale - boxHeight
            let width = stretch / 100 * Double(encoded.count) * fontSize * 0.5 / scale
            // A number no page of ours has (infinite, or beyond any page) leaves the line out.
            let box = [x / scale, top, width, boxHeight].map { $0.rounded() }
            guard box.allSatisfy({ abs($0) < 1e9 }) else { continue }
            lines.append(Line(text: fromWinAnsi(encoded), box: [Int(box[0]), Int(box[1]), max(1, Int(box[2])), max(1, Int(box[3]))]))
        }
        return lines
    }

    /// The bytes of a PDF literal string's inside (`\(`, `\)`, `\\` and `\ooo` undone).
    private static func unescaped(_ text: Substring) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x5C, index + 1 < bytes.count else {
                out.append(byte)
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if (0x30...0x37).contains(next) {
                var value = 0, used = 0
                while used < 3, index + 1 + used < bytes.count, (0x30...0x37).contains(bytes[index + 1 + used]) {
                    value = value * 8 + Int(bytes[index + 1 + used] - 0x30)
                    used += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
                index += 1 + used
            } else {
                out.append(next)
                index += 2
            }
        }
        return out
    }

    /// Windows-1252 bytes as text (the inverse of ``winAnsi(_:)``).
    static func fromWinAnsi(_ bytes: [UInt8]) -> String {
        let extra: [UInt8: Unicode.Scalar] = [
            0x80: "€", 0x82: "‚", 0x83: "ƒ", 0x84: "„", 0x85: "…", 0x86: "†", 0x87: "‡", 0x88: "ˆ", 0x89: "‰",
            0x8A: "Š", 0x8B: "‹", 0x8C: "Œ", 0x8E: "Ž", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”", 0x95: "•",
            0x96: "–", 0x97: "—", 0x98: "˜", 0x99: "™", 0x9A: "š", 0x9B: "›", 0x9C: "œ", 0x9E: "ž", 0x9F: "Ÿ",
        ]
        var text = String.UnicodeScalarView()
        for byte in bytes {
            text.append(extra[byte] ?? Unicode.Scalar(byte))
        }
        return String(text)
    }

    private static func reference(after key: String, in text: String) -> Int? {
        references(after: key, in: text, limit: 1)?.first
    }

    /// The object numbers of `N 0 R` references after `key` (a `[…]` list or one reference).
    private static func references(after key: String, in text: String, limit: Int = .max) -> [Int]? {
        guard let range = text.range(of: key + " ") else { return nil }
        var rest = text[range.upperBound...]
        if rest.hasPrefix("[") { rest = rest.dropFirst().prefix { $0 != "]" } }
        let words = rest.split(separator: " ")
        var found: [Int] = []
        var index = 0
        while index + 2 < words.count, found.count < limit, words[index + 1] == "0", words[index + 2].hasPrefix("R"),
              let number = Int(words[index]) {
            found.append(number)
            index += 3
        }
        return found.isEmpty ? nil : found
    }

    private static func numbers(after key: String, in text: String) -> [Double]? {
        guard let range = text.range(of: key) else { return nil }
        return text[range.upperBound...].prefix { $0 != "]" }.split(separator: " ").compactMap { Double($0) }
    }

    private static func integer(after key: String, in text: String) -> Int? {
        guard let range = text.range(of: key + " ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}

/// The objects of a PDF made by ``SearchablePDF/data()``, found through its cross-reference table.
private struct OwnPDF {
    let bytes: [UInt8]
    let offsets: [Int]
    let rootPages: Int
    let isOurs: Bool

    init?(_ bytes: [UInt8]) {
        guard bytes.starts(with: Array("%PDF-1.4\n".utf8)), bytes.count < Int(Int32.max) else { return nil }
        let tail = String(decoding: bytes.suffix(200), as: UTF8.self)
        guard let start = tail.range(of: "startxref\n", options: .backwards),
              let xref = Int(tail[start.upperBound...].prefix { $0.isNumber }), xref > 0, xref < bytes.count else { return nil }
        let table = String(decoding: bytes[xref...], as: UTF8.self)
        let rows = table.split(separator: "\n")
        guard rows.count > 3, rows[0] == "xref", let count = rows[1].split(separator: " ").last.flatMap({ Int($0) }),
              count > 1, count < rows.count - 2 else { return nil }
        var offsets = [0]
        for row in rows[3..<(count + 2)] {
            guard let offset = Int(row.prefix(10)), offset >= 0, offset < xref else { return nil }
            offsets.append(offset)
        }
        self.bytes = bytes
        self.offsets = offsets
        // The writer reserves the catalog first and the page tree second.
        rootPages = 2
        let trailer = rows[(count + 2)...].joined(separator: "\n")
        isOurs = trailer.contains("/Root 1 0 R")
        guard isOurs, let info = Int(trailer.components(separatedBy: "/Info ").last?.prefix { $0.isNumber } ?? ""),
              let infoText = Self.object(bytes, offsets, info).map({ String(decoding: $0, as: UTF8.self) }),
              infoText.contains("/Producer (Arkivator)") else { return nil }
    }

    /// The body of object `id` (between `N 0 obj\n` and `\nendobj`).
    private static func object(_ bytes: [UInt8], _ offsets: [Int], _ id: Int) -> ArraySlice<UInt8>? {
        guard id > 0, id < offsets.count else { return nil }
        let head = Array("\(id) 0 obj\n".utf8)
        let start = offsets[id]
        guard start + head.count <= bytes.count, Array(bytes[start..<(start + head.count)]) == head else { return nil }
        return bytes[(start + head.count)...]
    }

    /// An object that is no stream, as text.
    func dictionary(_ id: Int) -> String? {
        guard let body = Self.object(bytes, offsets, id) else { return nil }
        let text = body.prefix(4096)
        guard let end = text.firstRange(of: Array("\nendobj".utf8)) else { return nil }
        return String(decoding: text[..<end.lowerBound], as: UTF8.self)
    }

    /// A stream object: its dictionary as text and its bytes (`/Length` of them).
    func stream(_ id: Int) -> (dictionary: String, bytes: [UInt8])? {
        guard let body = Self.object(bytes, offsets, id),
              let open = body.prefix(4096).firstRange(of: Array(">>\nstream\n".utf8)) else { return nil }
        let dictionary = String(decoding: body[..<open.lowerBound], as: UTF8.self)
        guard let range = dictionary.range(of: "/Length "), let length = Int(dictionary[range.upperBound...].prefix { $0.isNumber }),
              length >= 0, length <= bytes.count - open.upperBound else { return nil }
        return (dictionary, Array(bytes[open.upperBound..<(open.upperBound + length)]))
    }
}
