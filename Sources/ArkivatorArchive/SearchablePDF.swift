import Foundation

/// A searchable PDF: each page is the cleaned page image (its JPEG bytes, embedded as they are)
/// with the recognised text laid over it invisibly, line by line, in the document's reading order,
/// so that searching, selecting and `pdftotext` give back exactly the archived text. A page may
/// instead (or as well) carry printed text, drawn visibly: the share pack's cover and index.
public struct SearchablePDF: Sendable {
    /// One page: a JPEG (none for a page of printed text only), its size in pixels and
    /// resolution, its text lines with their boxes, and any printed text.
    public struct Page: Sendable {
        public var jpeg: [UInt8]
        public var width: Int
        public var height: Int
        public var dpi: Double
        public var lines: [Line]
        /// 1 for gray, 3 for colour.
        public var components: Int
        /// Text drawn visibly in Helvetica, over the image if there is one.
        public var printed: [Printed]

        public init(jpeg: [UInt8], width: Int, height: Int, dpi: Double = 300, components: Int = 1, lines: [Line],
                    printed: [Printed] = []) {
            self.jpeg = jpeg
            self.width = width
            self.height = height
            self.dpi = dpi
            self.components = components
            self.lines = lines
            self.printed = printed
        }
    }

    /// A run of visible text: its baseline's start in page pixels (x, y from the top left), its
    /// size in pixels, and whether it is bold.
    public struct Printed: Sendable, Equatable {
        public var text: String
        public var x: Int
        public var y: Int
        public var size: Int
        public var bold: Bool
        public init(text: String, x: Int, y: Int, size: Int, bold: Bool = false) {
            self.text = text
            self.x = x
            self.y = y
            self.size = size
            self.bold = bold
        }
    }

    /// A line of text and its box in image pixels (x, y from the top left, width, height).
    public struct Line: Sendable, Equatable {
        public var text: String
        public var box: [Int]
        public init(text: String, box: [Int]) {
            self.text = text
            self.box = box
        }
    }

    public var title: String
    public var pages: [Page]

    public init(title: String, pages: [Page]) {
        self.title = title
        self.pages = pages
    }

    /// The PDF file's bytes.
    public func data() -> [UInt8] {
        var writer = PDFObjects()
        let catalog = writer.reserve(), pagesTree = writer.reserve(), font = writer.reserve()
        let bold = pages.contains { $0.printed.contains(where: \.bold) } ? writer.reserve() : nil
        var pageIDs: [Int] = []
        for page in pages {
            let image = page.jpeg.isEmpty ? nil : writer.reserve()
            let content = writer.reserve(), pageID = writer.reserve()
            pageIDs.append(pageID)
            let points = (w: Double(page.width) * 72 / page.dpi, h: Double(page.height) * 72 / page.dpi)
            if let image {
                writer.set(image, dictionary: "/Type /XObject /Subtype /Image /Width \(page.width) /Height \(page.height) "
                    + "/ColorSpace /\(page.components == 3 ? "DeviceRGB" : "DeviceGray") /BitsPerComponent 8 /Filter /DCTDecode",
                    stream: page.jpeg)
            }
            writer.set(content, dictionary: "", stream: Array(contentStream(page, size: points).utf8))
            let pictures = image.map { "/XObject << /Im0 \($0) 0 R >> " } ?? ""
            let fonts = "/F1 \(font) 0 R" + (bold.map { " /F2 \($0) 0 R" } ?? "")
            writer.set(pageID, "<< /Type /Page /Parent \(pagesTree) 0 R /MediaBox [0 0 \(fmt(points.w)) \(fmt(points.h))] "
                + "/Resources << \(pictures)/Font << \(fonts) >> >> /Contents \(content) 0 R >>")
        }
        writer.set(font, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        if let bold {
            writer.set(bold, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
        }
        writer.set(pagesTree, "<< /Type /Pages /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pageIDs.count) >>")
        writer.set(catalog, "<< /Type /Catalog /Pages \(pagesTree) 0 R >>")
        let info = writer.reserve()
        writer.set(info, "<< /Title \(Self.textString(title)) /Producer (Arkivator) /Creator (Arkivator) >>")
        return writer.file(root: catalog, info: info)
    }

    /// Draws the image over the whole page, then each line in invisible text (render mode 3),
    /// sized to its box: font size from the box height, horizontal scaling to its width; then the
    /// printed text, visibly.
    private func contentStream(_ page: Page, size: (w: Double, h: Double)) -> String {
        var s = page.jpeg.isEmpty ? "BT 3 Tr\n" : "q \(fmt(size.w)) 0 0 \(fmt(size.h)) 0 0 cm /Im0 Do Q\nBT 3 Tr\n"
        let scale = 72 / page.dpi
        for line in page.lines where line.box.count == 4 && !line.text.isEmpty {
            let height = max(1, Double(line.box[3])) * scale
            let fontSize = max(1, height * 0.9)
            let x = Double(line.box[0]) * scale
            let y = size.h - Double(line.box[1] + line.box[3]) * scale + height * 0.15
            let encoded = Self.winAnsi(line.text)
            // Helvetica's average advance is about half the font size.
            let natural = Double(encoded.count) * fontSize * 0.5
            let stretch = natural > 0 ? max(10, min(500, Double(line.box[2]) * scale / natural * 100)) : 100
            s += "/F1 \(fmt(fontSize)) Tf \(fmt(stretch)) Tz 1 0 0 1 \(fmt(x)) \(fmt(y)) Tm (\(Self.escaped(encoded))) Tj\n"
        }
        s += "ET\n"
        guard !page.printed.isEmpty else { return s }
        s += "BT 0 Tr 100 Tz 0 g\n"
        for run in page.printed where !run.text.isEmpty {
            let x = Double(run.x) * scale, y = size.h - Double(run.y) * scale
            s += "/\(run.bold ? "F2" : "F1") \(fmt(max(1, Double(run.size) * scale))) Tf 1 0 0 1 \(fmt(x)) \(fmt(y)) Tm "
                + "(\(Self.escaped(Self.winAnsi(run.text)))) Tj\n"
        }
        return s + "ET\n"
    }

    /// Text in the font's encoding (Windows-1252, which holds æ, ø, å and the dashes);
    /// characters outside it become "?".
    static func winAnsi(_ text: String) -> [UInt8] {
        let extra: [Unicode.Scalar: UInt8] = [
            "€": 0x80, "‚": 0x82, "ƒ": 0x83, "„": 0x84, "…": 0x85, "†": 0x86, "‡": 0x87, "ˆ": 0x88, "‰": 0x89,
            "Š": 0x8A, "‹": 0x8B, "Œ": 0x8C, "Ž": 0x8E, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95,
            "–": 0x96, "—": 0x97, "˜": 0x98, "™": 0x99, "š": 0x9A, "›": 0x9B, "œ": 0x9C, "ž": 0x9E, "Ÿ": 0x9F,
        ]
        return text.precomposedStringWithCanonicalMapping.unicodeScalars.map { scalar in
            if let byte = extra[scalar] { return byte }
            if scalar.value == 9 { return 0x20 }
            if (0x20...0x7E).contains(scalar.value) || (0xA0...0xFF).contains(scalar.value) { return UInt8(scalar.value) }
            return 0x3F
        }
    }

    static func escaped(_ bytes: [UInt8]) -> String {
        var s = ""
        for byte in bytes {
            switch byte {
            case 0x28, 0x29, 0x5C: s += "\\" + String(UnicodeScalar(byte))
            case 0x20...0x7E: s.unicodeScalars.append(UnicodeScalar(byte))
            default: s += String(format: "\\%03o", byte)
            }
        }
        return s
    }

    /// A PDF text string in UTF-16BE with a byte order mark, as hex.
    static func textString(_ text: String) -> String {
        "<FEFF" + text.utf16.map { String(format: "%04X", $0) }.joined() + ">"
    }
}

private func fmt(_ value: Double) -> String { String(format: "%.2f", value) }

/// Numbered objects and the cross-reference table of one PDF file.
private struct PDFObjects {
    private var bodies: [Int: [UInt8]] = [:]
    private var count = 0

    mutating func reserve() -> Int {
        count += 1
        return count
    }

    mutating func set(_ id: Int, _ text: String) { bodies[id] = Array(text.utf8) }

    mutating func set(_ id: Int, dictionary: String, stream: [UInt8]) {
        bodies[id] = Array("<< \(dictionary) /Length \(stream.count) >>\nstream\n".utf8) + stream + Array("\nendstream".utf8)
    }

    func file(root: Int, info: Int) -> [UInt8] {
        var out = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets = [Int](repeating: 0, count: count + 1)
        for id in 1...max(1, count) {
            offsets[id] = out.count
            out += Array("\(id) 0 obj\n".utf8) + (bodies[id] ?? Array("null".utf8)) + Array("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(count + 1)\n0000000000 65535 f \n".utf8)
        for id in 1...max(1, count) { out += Array(String(format: "%010d 00000 n \n", offsets[id]).utf8) }
        out += Array("trailer\n<< /Size \(count + 1) /Root \(root) 0 R /Info \(info) 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
