import ArkivatorCore
@testable import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// A scanned PDF page's one picture read straight from the file (never decoded whole by poppler),
/// through classic cross-reference tables and PDF 1.5's streams alike; anything else on the page
/// leaves it to poppler.
@Suite struct ScannedPDFTests {
    /// Part of the letter fixture, in gray.
    private func letter() throws -> Image {
        try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first).grayscale().cropped(x: 200, y: 150, width: 900, height: 700)
    }

    private func mean(_ image: Image) throws -> Double {
        let bytes = try image.grayBytes()
        return Double(bytes.reduce(0) { $0 + Int($1) }) / Double(max(1, bytes.count))
    }

    /// The PNG's zlib stream (its IDAT chunks joined): rows led by PNG filter bytes, as a PDF
    /// picture with `/Predictor 15` stores them; with the PNG's colour channels.
    private func zlibRows(_ png: [UInt8]) -> (data: [UInt8], channels: Int) {
        var at = 8, data: [UInt8] = [], channels = 1
        while at + 8 <= png.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(png[at + $1]) }
            let kind = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            if kind == "IHDR" { channels = png[at + 8 + 9] == 2 ? 3 : 1 }
            if kind == "IDAT" { data += png[(at + 8)..<(at + 8 + length)] }
            at += 12 + length
        }
        return (data, channels)
    }

    /// A one-page PDF: the page `width × height` points drawing `content`, with picture `/Im0`
    /// (`dictionary` and `data`). With `objectStreams`, the page and its picture's dictionary
    /// objects go in an object stream found through a cross-reference stream (PDF 1.5).
    private func pdf(content: String, picture dictionary: String, data: [UInt8], width: Double, height: Double,
                     objectStreams: Bool = false) -> [UInt8] {
        let page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>"
        var out = Array("%PDF-1.5\n".utf8)
        var offsets: [Int: Int] = [:]
        func add(_ number: Int, _ body: [UInt8]) {
            offsets[number] = out.count
            out += Array("\(number) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        func stream(_ dictionary: String, _ data: [UInt8]) -> [UInt8] {
            Array("<< \(dictionary) /Length \(data.count) >>\nstream\n".utf8) + data + Array("\nendstream".utf8)
        }
        add(1, Array("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        add(4, stream("", Array(content.utf8)))
        add(5, stream(dictionary, data))
        if objectStreams {
            // Objects 2 and 3 (the page tree and the page) in object stream 6, unfiltered.
            let tree = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
            let header = "2 0 3 \(tree.utf8.count + 1) "
            add(6, stream("/Type /ObjStm /N 2 /First \(header.utf8.count)", Array((header + tree + " " + page).utf8)))
            var entries: [UInt8] = []
            func entry(_ kind: UInt8, _ second: Int, _ third: Int) {
                entries += [kind] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: second >> (8 * $0)) }
                    + [UInt8(truncatingIfNeeded: third >> 8), UInt8(truncatingIfNeeded: third)]
            }
            entry(0, 0, 65535)
            entry(1, offsets[1] ?? 0, 0)
            entry(2, 6, 0)
            entry(2, 6, 1)
            for number in 4...6 { entry(1, offsets[number] ?? 0, 0) }
            let xref = out.count
            entry(1, xref, 0)
            add(7, stream("/Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R", entries))
            out += Array("startxref\n\(xref)\n%%EOF\n".utf8)
        } else {
            add(2, Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8))
            add(3, Array(page.utf8))
            let xref = out.count
            out += Array("xref\n0 6\n0000000000 65535 f \n".utf8)
            for number in 1...5 { out += Array(String(format: "%010d 00000 n \n", offsets[number] ?? 0).utf8) }
            out += Array("trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        }
        return out
    }

    @Test func aScannedJPEGPageIsReadFromItsPicture() throws {
        let page = try letter()
        let jpeg = try page.jpegData(quality: 85)
        let file = PDFMaker.scanned([(jpeg, page.width, page.height)])
        let pages = try EncodedPages.inspect(file, largePicture: 1)
        let picture = try #require(pages.picture(page: 0))
        #expect(picture.encoding == .dct && picture.dpi == 300)
        #expect(pages.sizes[0] == (page.width, page.height))
        let read = try pages.decodePixels(page: 0)
        let direct = try #require(try Image.decodePages(jpeg).first)
        #expect(read.gray.width == page.width && read.gray.height == page.height)
        #expect(abs(try mean(read.gray) - mean(direct)) < 0.01)
        // Below the size where it matters, poppler draws the page as before.
        #expect(try EncodedPages.inspect(file).picture(page: 0) == nil)
    }

    @Test func aFlatePictureIsReadRowByRowThroughEitherKindOfCrossReference() throws {
        let page = try letter()
        for colour in [false, true] {
            let image = colour ? try #require(try Image.decodePages(page.bmpData(colour: true)).first) : page
            let (data, channels) = zlibRows(try image.pngData())
            let space = channels == 3 ? "/DeviceRGB" : "/DeviceGray"
            let dictionary = "/Type /XObject /Subtype /Image /Width \(page.width) /Height \(page.height) /ColorSpace \(space) "
                + "/BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors \(channels) /Columns \(page.width) >>"
            for objectStreams in [false, true] {
                // Shown at 150 DPI.
                let w = Double(page.width) * 72 / 150, h = Double(page.height) * 72 / 150
                let file = pdf(content: "q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q", picture: dictionary, data: data,
                               width: w, height: h, objectStreams: objectStreams)
                let pages = try EncodedPages.inspect(file, largePicture: 1)
                let picture = try #require(pages.picture(page: 0), "colour \(colour), object streams \(objectStreams)")
                #expect(picture.channels == channels && picture.dpi == 150)
                let read = try pages.decodePixels(page: 0)
                #expect(read.gray.width == page.width && read.gray.height == page.height)
                #expect(abs(try mean(read.gray) - mean(page)) < 0.5)
                #expect((read.colour != nil) == colour)
                // Its stored rows cut short: a damaged PDF, said so.
                let cut = pdf(content: "q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q", picture: dictionary,
                              data: Array(data.prefix(data.count / 2)), width: w, height: h, objectStreams: objectStreams)
                #expect(throws: InputError.damagedPDF) { try EncodedPages.inspect(cut, largePicture: 1).decodePixels(page: 0) }
            }
        }
    }

    @Test func onlyAPageThatIsOnePictureIsReadFromIt() throws {
        let page = try letter()
        let jpeg = try page.jpegData()
        let dictionary = "/Type /XObject /Subtype /Image /Width \(page.width) /Height \(page.height) /ColorSpace /DeviceGray "
            + "/BitsPerComponent 8 /Filter /DCTDecode"
        let w = Double(page.width) * 72 / 300, h = Double(page.height) * 72 / 300
        func found(_ content: String) throws -> Bool {
            let file = pdf(content: content, picture: dictionary, data: jpeg, width: w, height: h)
            let objects = try #require(PDFObjects(file))
            return PDFPicture.find(in: objects, page: 0) != nil
        }
        #expect(try found("q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q"))
        // An OCR layer drawn invisibly over the scan, and a clip to the page, change nothing.
        #expect(try found("q 0 0 \(w) \(h) re W n \(w) 0 0 \(h) 0 0 cm /Im0 Do Q BT 3 Tr (Brev) Tj ET"))
        // Visible text, a painted box, a picture not covering the page, one drawn twice, upside down.
        #expect(try !found("q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q BT (Brev) Tj ET"))
        #expect(try !found("q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q 0 0 10 10 re f"))
        #expect(try !found("q \(w / 2) 0 0 \(h / 2) 0 0 cm /Im0 Do Q"))
        #expect(try !found("q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q"))
        #expect(try !found("q \(w) 0 0 -\(h) 0 \(h) cm /Im0 Do Q"))
        // A page turned a quarter is left to poppler.
        let turned = PDFMaker.make([PDFMaker.Page(image: (jpeg, page.width, page.height), rotate: 90)])
        #expect(PDFPicture.find(in: try #require(PDFObjects(turned)), page: 0) == nil)
        // Junk is no PDF to read this way.
        #expect(PDFObjects(Array("%PDF-1.4\nstartxref\n99999\n%%EOF".utf8)) == nil)
    }
}
