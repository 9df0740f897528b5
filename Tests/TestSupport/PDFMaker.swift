import Foundation

/// PDF files written by hand for the tests: scanned pages (one gray JPEG a page, shown at
/// 300 DPI) and blank pages of any size and number.
public enum PDFMaker {
    /// One page per JPEG (8-bit gray, `width × height` pixels), each shown at 300 DPI.
    public static func scanned(_ pages: [(jpeg: [UInt8], width: Int, height: Int)]) -> [UInt8] {
        var objects: [[UInt8]] = []
        var kids: [Int] = []
        for page in pages {
            let first = 3 + objects.count  // page, contents, image
            let (w, h) = (Double(page.width) * 72 / 300, Double(page.height) * 72 / 300)
            let content = Array(String(format: "q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", w, h).utf8)
            objects.append(Array(String(format: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] ", w, h).utf8)
                + Array("/Resources << /XObject << /Im0 \(first + 2) 0 R >> >> /Contents \(first + 1) 0 R >>".utf8))
            objects.append(stream(content, dictionary: ""))
            objects.append(stream(page.jpeg, dictionary: "/Type /XObject /Subtype /Image /Width \(page.width) /Height \(page.height) "
                                  + "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode "))
            kids.append(first)
        }
        return document(objects, kids: kids)
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
