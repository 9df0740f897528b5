import ArkivatorCore
import ArkivatorIntake
import Foundation
import TestSupport
import Testing

@Suite struct ImageFormatTests {
    @Test func recognisesRealImagesByContent() throws {
        #expect(try ImageFormat.sniff(Fixtures.bytes("clean.png")) == .png)
        #expect(try ImageFormat.sniff(Fixtures.bytes("skew.jpg")) == .jpeg)
        #expect(try ImageFormat.sniff(Fixtures.bytes("twopage.tif")) == .tiff)
    }

    @Test(arguments: [("bad/empty.jpg", "empty"), ("bad/truncated.jpg", "truncated"), ("bad/not-an-image.png", "notAnImage")])
    func refusesBadFilesWithAReason(file: String, code: String) throws {
        let bytes = try Fixtures.bytes(file)
        #expect(throws: InputError.self) { try ImageFormat.sniff(bytes) }
        do {
            _ = try ImageFormat.sniff(bytes)
        } catch {
            #expect(error.errorCode == code)
            #expect(!error.userMessage.norwegian.isEmpty && !error.userMessage.english.isEmpty)
        }
    }

    @Test func namesOtherFormats() {
        for (bytes, name) in [(Array("GIF8xa....".utf8), "GIF"), (Array("....ftypavif....".utf8), "AVIF")] {
            do {
                _ = try ImageFormat.sniff(bytes)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.errorCode == "unsupportedFormat")
                #expect(error.userMessage.english.contains(name))
            }
        }
    }

    @Test func recognisesAPDFAndACutOffOne() throws {
        let pdf = PDFMaker.blank(pages: 1)
        #expect(try ImageFormat.sniff(pdf) == .pdf)
        #expect(throws: InputError.truncated) { try ImageFormat.sniff(Array(pdf.prefix(pdf.count - 20))) }
    }

    @Test func recognisesGIFAndBMPAndCutOffOnes() throws {
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0] + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        #expect(try ImageFormat.sniff(gif) == .gif)
        #expect(try ImageFormat.sniff(gif + [0, 0]) == .gif)
        #expect(throws: InputError.truncated) { try ImageFormat.sniff(Array(gif.dropLast())) }
        // A 2 × 2 24-bit bitmap: 54 bytes of headers, two rows of 8 bytes.
        var bmp = Array("BM".utf8) + [UInt8](repeating: 0, count: 52) + [UInt8](repeating: 255, count: 16)
        for (at, value) in [(10, 54), (14, 40), (18, 2), (22, 2), (26, 1), (28, 24)] { bmp[at] = UInt8(value) }
        #expect(try ImageFormat.sniff(bmp) == .bmp)
        #expect(throws: InputError.truncated) { try ImageFormat.sniff(Array(bmp.dropLast(4))) }
        // "BM" alone is a word, not a bitmap.
        #expect(throws: InputError.self) { try ImageFormat.sniff(Array("BMW-verkstedet, faktura nr. 1234 for service".utf8)) }
    }

    @Test func recognisesWebPAndACutOffOne() throws {
        // A RIFF/WEBP header saying 100 bytes follow.
        let header = Array("RIFF".utf8) + [100, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        #expect(try ImageFormat.sniff(header + [UInt8](repeating: 0, count: 92)) == .webp)
        do {
            _ = try ImageFormat.sniff(header + [UInt8](repeating: 0, count: 20))
            Issue.record("a cut-off WebP was accepted")
        } catch {
            #expect(error.errorCode == "truncated")
        }
    }

    @Test func readsAFileAndHashesIt() throws {
        let file = try ReceivedFile.read(Fixtures.url("clean.png"))
        #expect(file.format == .png)
        #expect(file.sha256.count == 64)
        #expect(ReceivedFile.documentID(of: [file]) == file.sha256)
        let other = try ReceivedFile.read(Fixtures.url("skew.jpg"))
        #expect(ReceivedFile.documentID(of: [file, other]) != ReceivedFile.documentID(of: [other, file]))
    }

    @Test func missingFileIsUnreadable() {
        do {
            _ = try ReceivedFile.read(URL(fileURLWithPath: "/nonexistent/brev.jpg"))
            Issue.record("a missing file was read")
        } catch {
            #expect(error.errorCode == "unreadable")
        }
    }
}
