@testable import ArkivatorImaging
import Testing

/// A PDF's structure read from hostile files: loops between cross-reference sections or object
/// streams and impossible predictor parameters give nothing rather than a crash.
@Suite struct PDFObjectsTests {
    /// A zlib stream storing `data` uncompressed (RFC 1950/1951, one stored block).
    private func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var a = 1, b = 0
        for byte in data {
            a = (a + Int(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a, n = data.count
        return [0x78, 0x01, 0x01, UInt8(n & 0xff), UInt8(n >> 8), UInt8(~n & 0xff), UInt8((~n >> 8) & 0xff)] + data
            + (0..<4).reversed().map { UInt8(truncatingIfNeeded: adler >> (8 * $0)) }
    }

    /// A file of `objects` (numbered from 1) with a classic cross-reference table.
    private func classic(_ objects: [[UInt8]]) -> [UInt8] {
        var out = Array("%PDF-1.4\n".utf8), offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Array(String(repeating: "0", count: 10 - String(offset).count).utf8) + Array("\(offset) 00000 n \n".utf8) }
        out += Array("trailer\n<< /Size \(objects.count + 1) >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    @Test func impossiblePredictorParametersGiveNothing() throws {
        let rows = zlibStored([2, 1, 2, 3, 4, 5, 2, 1, 1, 1, 1, 1])
        func decoded(_ parameters: String) throws -> [UInt8]? {
            let stream = Array("<< /Filter /FlateDecode /DecodeParms << \(parameters) >> /Length \(rows.count) >>\nstream\n".utf8)
                + rows + Array("\nendstream".utf8)
            let objects = try #require(PDFObjects(classic([stream])))
            return objects.decodedData(try #require(objects.object(1)))
        }
        #expect(try decoded("/Predictor 12 /Columns 5") == [1, 2, 3, 4, 5, 2, 3, 4, 5, 6])
        #expect(try decoded("/Predictor 12 /Columns -5 /Colors -1") == nil)
        #expect(try decoded("/Predictor 12 /Columns 99999999999 /Colors 99999999999") == nil)
        #expect(try decoded("/Predictor 12 /Columns 5 /Colors 0") == nil)
    }

    @Test func aHybridSectionPointingAtItselfIsReadOnce() {
        var file = Array("%PDF-1.5\n".utf8)
        let xref = file.count
        file += Array("xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 /XRefStm \(xref) /Prev \(xref) >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        #expect(PDFObjects(file) == nil)
    }

    @Test func anObjectStreamWhoseLengthLiesInItselfGivesNothing() throws {
        var file = Array("%PDF-1.5\n".utf8)
        let streamOffset = file.count
        file += Array("1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Length 2 0 R >>\nstream\n2 0 42\nendstream\nendobj\n".utf8)
        let xref = file.count
        var entries: [UInt8] = []
        func entry(_ kind: UInt8, _ second: Int, _ third: UInt8) {
            entries += [kind] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: second >> (8 * $0)) } + [third]
        }
        entry(0, 0, 0)
        entry(1, streamOffset, 0)
        entry(2, 1, 0)
        entry(1, xref, 0)
        file += Array("3 0 obj\n<< /Type /XRef /Size 4 /W [1 4 1] /Length \(entries.count) >>\nstream\n".utf8) + entries
            + Array("\nendstream\nendobj\nstartxref\n\(xref)\n%%EOF\n".utf8)
        let objects = try #require(PDFObjects(file))
        #expect(objects.object(2) == nil)
    }

    @Test func aPageWhoseDrawingNamesOnePartOverAndOverIsNotRead() throws {
        func page(repeats: Int) throws -> PDFPicture? {
            let padding = [UInt8](repeating: 32, count: 1 << 20)
            let objects = classic([
                Array("<< /Type /Catalog /Pages 2 0 R >>".utf8),
                Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
                Array(("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Resources << /XObject << /Im0 5 0 R >> >> "
                       + "/Contents [4 0 R" + String(repeating: " 6 0 R", count: repeats) + "] >>").utf8),
                Array("<< /Length 30 >>\nstream\nq 100 0 0 100 0 0 cm /Im0 Do Q\nendstream".utf8),
                Array(("<< /Type /XObject /Subtype /Image /Width 100 /Height 100 /ColorSpace /DeviceGray /BitsPerComponent 8 "
                       + "/Filter /DCTDecode /Length 4 >>\nstream\n").utf8) + [0xFF, 0xD8, 0xFF, 0xD9] + Array("\nendstream".utf8),
                Array("<< /Length \(padding.count) >>\nstream\n".utf8) + padding + Array("\nendstream".utf8),
            ])
            var file = objects
            // The catalog is the trailer's root.
            let trailer = try #require(file.indices.reversed().first { file[$0...].starts(with: Array("<< /Size".utf8)) })
            file.replaceSubrange(trailer..<(trailer + 2), with: Array("<< /Root 1 0 R".utf8))
            return PDFPicture.find(in: try #require(PDFObjects(file)), page: 0)
        }
        #expect(try page(repeats: 3) != nil, "a few parts are read")
        #expect(try page(repeats: 17) == nil, "17 MB of drawing instructions are not")
    }
}
