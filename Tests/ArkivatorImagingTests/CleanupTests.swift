import ArkivatorCore
import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// Cleanup steps on pages with known skew and perspective (sidecar JSON beside each fixture).
@Suite struct CleanupTests {
    private func decode(_ name: String) throws -> Image {
        try #require(try Image.decodePages(Fixtures.bytes(name)).first)
    }

    /// The largest corner error as a share of the photo's longer side.
    static func cornerError(_ found: Quad, _ truth: [[Double]], width: Int, height: Int) -> Double {
        zip(found.corners, truth).map { max(abs($0.x - $1[0]), abs($0.y - $1[1])) }.max()! / Double(max(width, height))
    }

    @Test(arguments: ["photo.jpg", "photo2.jpg"])
    func findsAndFlattensThePhotographedSheet(name: String) throws {
        let image = try decode(name)
        let truth = try Fixtures.json(name.replacingOccurrences(of: ".jpg", with: ".json"))
        let corners = try #require(truth["page_corners"] as? [[Double]])
        let page = try PageCleaner().clean(image)
        let sheet = try #require(page.report.sheet)
        #expect(Self.cornerError(sheet, corners, width: image.width, height: image.height) < 0.02)
        // 250 to 300 DPI after flattening (a phone photo's sheet is often near 200 DPI, and is
        // brought to 250): an A4 page is 2067 to 2480 pixels wide.
        #expect(page.gray.width > 2000 && page.gray.width < 2600, "\(page.gray.width) pixels wide")
        #expect(page.gray.height > page.gray.width)
    }

    @Test(arguments: ["skew.jpg", "skew-neg.jpg"])
    func straightensSkewedScans(name: String) throws {
        let truth = try Fixtures.json(name.replacingOccurrences(of: ".jpg", with: ".json"))
        // The fixture turns the page counter-clockwise by rotation_deg; the report says clockwise.
        let rotation = try #require(truth["rotation_deg"] as? Double)
        let page = try PageCleaner().clean(try decode(name))
        #expect(page.report.sheet == nil)
        #expect(abs(page.report.skewDegrees + rotation) <= 0.3, "measured \(page.report.skewDegrees)°")
        // Measuring the cleaned page again finds it straight.
        let again = try #require(try page.binary().measureSkew())
        #expect(abs(again.degrees) <= 0.3)
    }

    @Test func leavesAFlatbedPageAlone() throws {
        let page = try PageCleaner().clean(try decode("clean.png"))
        #expect(page.report.sheet == nil)
        #expect(abs(page.report.skewDegrees) < 0.3)
        #expect(page.report.scale == 1)
        #expect(page.gray.width == 2480)
    }

    @Test func scalesLowResolutionPagesToAbout300DPI() throws {
        let small = try decode("clean.png").scaled(by: 0.5)
        let page = try PageCleaner().clean(small)
        #expect(abs(page.report.estimatedDPI - 150) < 5)
        #expect(abs(page.gray.width - 2480) < 10)
    }

    @Test func evensOutLightToAWhitePage() throws {
        let page = try PageCleaner().clean(try decode("photo.jpg"))
        let bytes = try page.gray.grayBytes()
        let sorted = bytes.sorted()
        // Paper is most of the page and comes out white; ink stays dark.
        #expect(sorted[sorted.count / 2] >= 240)
        #expect(sorted[sorted.count / 200] < 100)
    }

    /// Faded typewriting on yellowed paper, with a shadow over the lower half: the paper (180,
    /// and 110 in the shadow) becomes white everywhere, and the letters (28 % darker than the
    /// paper around them) keep their contrast, in the light and in the shadow alike. Measured
    /// from every pixel brighter than black, the paper took in the faint letters, and they were
    /// evened away with it.
    @Test func fadedInkOnYellowedPaperKeepsItsContrast() throws {
        let width = 800, height = 600
        var bytes = [UInt8](repeating: 0, count: width * height)
        var light: [Int] = [], shadow: [Int] = []
        for y in 0..<height {
            let shaded = y >= height / 2
            for x in 0..<width {
                // Strokes 5 pixels wide and 24 high, 12 apart, in rows 40 apart: dense typewriting.
                let stroke = x >= 40 && x < width - 40 && x % 12 < 5 && y % 40 >= 8 && y % 40 < 32
                bytes[y * width + x] = stroke ? (shaded ? 79 : 130) : (shaded ? 110 : 180)
                if stroke { shaded ? shadow.append(y * width + x) : light.append(y * width + x) }
            }
        }
        let even = try Image(gray: bytes, width: width, height: height).evenedLight().grayBytes()
        for (name, ink) in [("light", light), ("shadow", shadow)] {
            let levels = ink.map { Int(even[$0]) }.sorted()
            #expect(levels[levels.count / 2] < 195, "letters in the \(name): \(levels[levels.count / 2])")
        }
        // Paper between the rows, in the light and in the shadow.
        for y in [4, height / 2 + 4] {
            let row = even[(y * width)..<(y * width + width)].map(Int.init).sorted()
            #expect(row[row.count / 2] >= 240, "paper at row \(y): \(row[row.count / 2])")
        }
    }

    /// A sliver of an image (a one-pixel line, a narrow strip) is too small to close over its
    /// letters: it is evened as it is, and does not fail.
    @Test(arguments: [(1, 1), (40, 9), (600, 2), (63, 400)])
    func aSliverIsEvenedWithoutFailing(width: Int, height: Int) throws {
        let even = try Image(gray: [UInt8](repeating: 200, count: width * height), width: width, height: height).evenedLight()
        #expect(even.width == width && even.height == height)
    }

    @Test func archiveJPEGStaysUnderTwoMegabytes() throws {
        for name in ["photo.jpg", "skew.jpg", "clean.png"] {
            let page = try PageCleaner().clean(try decode(name))
            #expect(try page.gray.jpegData(quality: 80).count < 2_000_000)
        }
    }

    @Test func turnsByQuarterTurns() throws {
        let image = try decode("clean.png")
        let turned = try image.rotated(quarterTurns: 1)
        #expect(turned.width == image.height && turned.height == image.width)
        let back = try turned.rotated(quarterTurns: 3)
        #expect(try back.grayBytes() == image.grayBytes())
    }

    /// On the evaluation corpus, when present: every photo's corners within 2 %, every scan's
    /// skew within 0.3°.
    @Test(.enabled(if: Corpus.directory != nil)) func corpusGeometry() throws {
        let corpus = try #require(Corpus.directory)
        var checked = 0
        for truth in try Corpus.truths() {
            guard let pages = truth["pages"] as? [String], let params = truth["degradationParams"] as? [[String: Any]],
                  let kind = truth["degradation"] as? String, kind != "clean" else { continue }
            for (name, param) in zip(pages, params) {
                let bytes = try [UInt8](Data(contentsOf: corpus.appendingPathComponent("images/\(name)")))
                let image = try #require(try Image.decodePages(bytes).first)
                let page = try PageCleaner().clean(image)
                if kind == "photo", let corners = param["page_corners"] as? [[Double]] {
                    let sheet = try #require(page.report.sheet, "no sheet found in \(name)")
                    #expect(Self.cornerError(sheet, corners, width: image.width, height: image.height) < 0.02, "\(name)")
                } else if kind == "scan", let rotation = param["rotation_deg"] as? Double {
                    #expect(page.report.sheet == nil, "\(name)")
                    #expect(abs(page.report.skewDegrees + rotation) <= 0.3, "\(name): \(page.report.skewDegrees) vs \(rotation)")
                }
                checked += 1
            }
        }
        #expect(checked > 0)
    }
}

@Suite struct DecodeTests {
    @Test func refusesADecompressionBombBeforeDecoding() throws {
        let bytes = try Fixtures.bytes("bad/bomb.png")
        do {
            _ = try Image.decodePages(bytes)
            Issue.record("the bomb was decoded")
        } catch {
            #expect(error.errorCode == "tooLarge")
            #expect(error.userMessage.english.contains("100000×100000"))
        }
    }

    @Test func readsEveryPageOfAMultiPageTIFF() throws {
        let pages = try Image.decodePages(Fixtures.bytes("twopage.tif"))
        #expect(pages.count == 2)
        #expect(pages.allSatisfy { $0.width == 2480 && $0.height == 3508 })
    }

    @Test func aThousandPageTIFFIsRefusedFromItsHeaders() throws {
        let bytes = TIFFMaker.pages(1000)
        #expect(bytes.count < 2_000_000, "small on disk")
        do {
            _ = try EncodedPages.inspect(bytes)
            Issue.record("a 1000-page TIFF was accepted")
        } catch {
            #expect(error.errorCode == "tooManyPages")
            #expect(error.userMessage.norwegian.contains("\(Image.maximumPages) sider"))
        }
        // Up to the limit, the pages are only counted: each is decoded when asked for.
        let pages = try EncodedPages.inspect(TIFFMaker.pages(3))
        #expect(pages.count == 3 && pages.sizes.allSatisfy { $0 == (2480, 3508) })
        let page = try pages.decode(page: 2)
        #expect(page.width == 2480 && page.height == 3508)
        #expect(throws: InputError.self) { try pages.decode(page: 3) }
    }

    @Test func refusesGarbage() {
        for bytes in [[UInt8](), Array("ikke et bilde".utf8), [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]] {
            #expect(throws: InputError.self) { try Image.decodePages(bytes) }
        }
    }

    @Test func grayRoundTrip() throws {
        let bytes = (0..<(37 * 11)).map { UInt8($0 % 256) }
        let image = try Image(gray: bytes, width: 37, height: 11)
        #expect(try image.grayBytes() == bytes)
    }
}

@Suite struct PhoneFormatTests {
    @Test func exifOrientationIsReadInBothByteOrders() throws {
        let jpeg = try Image(gray: [UInt8](repeating: 200, count: 16 * 8), width: 16, height: 8).jpegData()
        #expect(ExifOrientation.of(jpeg: jpeg) == nil)
        for orientation in 1...8 {
            #expect(ExifOrientation.of(jpeg: ExifMaker.jpeg(jpeg, orientation: orientation)) == orientation)
            #expect(ExifOrientation.of(jpeg: ExifMaker.jpeg(jpeg, orientation: orientation, bigEndian: false)) == orientation)
        }
        #expect(ExifOrientation.of(jpeg: ExifMaker.jpeg(jpeg, orientation: 9)) == nil, "not an orientation")
        // A damaged segment length is no crash and no orientation.
        var broken = ExifMaker.jpeg(jpeg, orientation: 6)
        broken[4] = 0xFF
        broken[5] = 0xFF
        #expect(ExifOrientation.of(jpeg: broken) == nil)
        #expect(ExifOrientation.of(jpeg: Array(ExifMaker.jpeg(jpeg, orientation: 6).prefix(20))) == nil)
    }

    @Test(arguments: [(6, 3), (8, 1), (3, 2)])
    func aPhoneJPEGIsTurnedUprightWhenDecoded(orientation: Int, storedTurns: Int) throws {
        let upright = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
        let stored = try upright.rotated(quarterTurns: storedTurns).jpegData(quality: 90)
        let pages = try EncodedPages.inspect(ExifMaker.jpeg(stored, orientation: orientation))
        #expect(pages.exifOrientation == orientation)
        let page = try pages.decode(page: 0)
        #expect(page.width == upright.width && page.height == upright.height)
    }

    @Test func webPIsRead() throws {
        let upright = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
        let webp = try upright.webpData()
        let pages = try EncodedPages.inspect(webp)
        #expect(pages.count == 1 && pages.exifOrientation == nil)
        let page = try pages.decode(page: 0)
        #expect(page.width == upright.width && page.height == upright.height)
    }
}

/// When a PDF's text layer may stand in for OCR.
struct PDFTextLayerTests {
    private func layer(_ text: String, coverage: Double = 0) -> PDFTextLayer {
        PDFTextLayer(lines: text.split(separator: "\n").map { line in
            line.split(separator: " ").map { PDFTextLayer.Word(text: String($0), box: [0, 0, 10, 10]) }
        }, imageCoverage: coverage)
    }

    @Test func wordsNumbersAndPunctuationAreText() {
        #expect(layer("Innkalling til time (øre-nese-hals)\nDato: 12.03.2025 kl. 09:30, rom 2–14.").isTrustworthy)
        #expect(layer("Tlf. 55 97 50 00 – e-post: post@helse-vestvik.no").isTrustworthy)
    }

    @Test func letterSoupFewWordsAndScansAreNot() {
        #expect(!layer("Xkfw Qrtpl Zmvbn Hjkrt Sdfgh").isTrustworthy, "no vowels: a font without a Unicode map")
        #expect(!layer("\u{FFFD}\u{FFFD}\u{FFFD} \u{E001}\u{E002} \u{FFFD}\u{FFFD}x").isTrustworthy)
        #expect(!layer("Side 1").isTrustworthy, "two words are no text layer")
        #expect(!layer("Innkalling til time ved poliklinikken", coverage: 0.9).isTrustworthy, "a scan")
    }
}
