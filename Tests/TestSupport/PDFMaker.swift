import Foundation

/// PDF files written by hand for the tests: scanned pages (one gray JPEG a page, shown at
/// 300 DPI), pages of text as an office program writes them (Helvetica, one line after the
/// other), both on one page, pictures placed among the text, and blank pages of any size and number.
public enum PDFMaker {
    /// One page: a scanned image filling it, lines of text, or both.
    public struct Page {
        public var image: (jpeg: [UInt8], width: Int, height: Int)?
        /// Lines from the top left, 14 pt apart; an empty line leaves a gap.
        public var lines: [String]
        /// Text drawn invisibly (render mode 3), as OCR programs lay it over a scan.
        public var invisible: Bool
        /// Pictures placed on the page (a scanned paragraph pasted into a letter), drawn under the text.
        public var pictures: [Picture]
        /// Degrees the page is turned clockwise when shown (`/Rotate`).
        public var rotate: Int

        public init(image: (jpeg: [UInt8], width: Int, height: Int)? = nil, lines: [String] = [], invisible: Bool = false,
                    pictures: [Picture] = [], rotate: Int = 0) {
            self.image = image
            self.lines = lines
            self.invisible = invisible
            self.pictures = pictures
            self.rotate = rotate
        }
    }

    /// A gray JPEG of `width × height` pixels shown at 300 DPI, its top left corner `left` and
    /// `top` points from the page's top left corner.
    public struct Picture {
        public var jpeg: [UInt8]
        public var width: Int
        public var height: Int
        public var left: Double
        public var top: Double

        public init(jpeg: [UInt8], width: Int, height: Int, left: Double, top: Double) {
            self.jpeg = jpeg
            self.width = width
            self.height = height
            self.left = left
            self.top = top
        }
    }

    /// One page per JPEG (8-bit gray, `width × height` pixels), each shown at 300 DPI.
    public static func scanned(_ pages: [(jpeg: [UInt8], width: Int, height: Int)]) -> [UInt8] {
        make(pages.map { Page(image: $0) })
    }

    /// Pages of text in Helvetica 11 pt on A4, as a letter saved from an office program.
    public static func digital(_ pages: [[String]]) -> [UInt8] {
        make(pages.map { Page(lines: $0) })
    }

    /// Any pages; object 3 is the font every page may use. Each page's objects follow in turn:
    /// the page, its contents, its scan and its pictures.
    public static func make(_ pages: [Page]) -> [UInt8] {
        var objects = [Array("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".utf8)]
        var kids: [Int] = []
        for page in pages {
            let first = 3 + objects.count  // page, contents, image
            let (w, h) = page.image.map { (Double($0.width) * 72 / 300, Double($0.height) * 72 / 300) } ?? (595, 842)
            var content = page.image == nil ? [] : Array(String(format: "q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q\n", w, h).utf8)
            for (index, picture) in page.pictures.enumerated() {
                let (pw, ph) = (Double(picture.width) * 72 / 300, Double(picture.height) * 72 / 300)
                content += Array(String(format: "q %.2f 0 0 %.2f %.2f %.2f cm /Pi%d Do Q\n", pw, ph, picture.left,
                                        h - picture.top - ph, index).utf8)
            }
            if !page.lines.isEmpty {
                content += Array(String(format: "BT %d Tr /F1 11 Tf 14 TL 72 %.2f Td\n", page.invisible ? 3 : 0, h - 72).utf8)
                for line in page.lines { content += Array("(".utf8) + winAnsi(line) + Array(") Tj T*\n".utf8) }
                content += Array("ET".utf8)
            }
            let firstPicture = first + (page.image == nil ? 2 : 3)
            let names = (page.image == nil ? [] : ["/Im0 \(first + 2) 0 R"])
                + page.pictures.indices.map { "/Pi\($0) \(firstPicture + $0) 0 R" }
            let image = names.isEmpty ? "" : "/XObject << \(names.joined(separator: " ")) >> "
            objects.append(Array(String(format: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Rotate %d ", w, h, page.rotate).utf8)
                + Array("/Resources << \(image)/Font << /F1 3 0 R >> >> /Contents \(first + 1) 0 R >>".utf8))
            objects.append(stream(content, dictionary: ""))
            if let scan = page.image {
                objects.append(stream(scan.jpeg, dictionary: "/Type /XObject /Subtype /Image /Width \(scan.width) /Height \(scan.height) "
                                      + "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode "))
            }
            for picture in page.pictures {
                objects.append(stream(picture.jpeg, dictionary: "/Type /XObject /Subtype /Image /Width \(picture.width) "
                                      + "/Height \(picture.height) /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode "))
            }
            kids.append(first)
        }
        return document(objects, kids: kids)
    }

    /// A PDF string's bytes in WinAnsiEncoding (Latin-1 and the en dash), escaped.
    private static func winAnsi(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            switch scalar {
            case "(", ")", "\\": [0x5C, UInt8(scalar.value)]
            case "–": [0x96]
            default: scalar.value < 256 ? [UInt8(scalar.value)] : [0x3F]
            }
        }
    }

    /// `count` empty pages of `width × height` points.
    public static func blank(pages count: Int, width: Double = 595, height: Double = 842) -> [UInt8] {
        let page = Array(String(format: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.0f %.0f] >>", width, height).utf8)
        return document(Array(repeating: page, count: count), kids: Array(3..<(3 + count)))
    }

    private static func stream(_ bytes: [UInt8], dictionary: String) -> [UInt8] {
        Array("<< \(dictionary)/Length \(bytes.count) >>\nstream\n".utf8) + bytes + Array("\nendstream".utf8)
    }

    /// Catalog (1), page tree (2), then `objects` as 3, 4 …; `kids` are the page objects' numbers.
    private static func document(_ objects: [[UInt8]], kids: [Int]) -> [UInt8] {
        var out = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        let all = [Array("<< /Type /Catalog /Pages 2 0 R >>".utf8),
                   Array("<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(kids.count) >>".utf8)]
            + objects
        for (index, object) in all.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n".utf8) + object + Array("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(all.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Array(String(format: "%010d 00000 n \n", offset).utf8) }
        out += Array("trailer\n<< /Size \(all.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
