import ArkivatorImaging
import TestSupport
import Testing

/// Which pictures of a digital PDF page OCR reads besides its text layer: those large enough to
/// hold text and not already under words of the layer.
@Suite struct PDFPictureTests {
    static let words = [[300, 300, 200, 40], [520, 300, 180, 40], [720, 300, 150, 40]]

    @Test func smallPicturesAreLeftOutAndStripsAreJoined() {
        let logo = [2000, 150, 300, 140]
        let rule = [300, 3300, 1800, 10]
        // A scan stored as three strips that meet, and a second picture below.
        let strips = [[300, 1000, 1800, 100], [300, 1100, 1800, 100], [300, 1200, 1800, 60]]
        let second = [400, 2000, 900, 600]
        let found = PDFTextLayer.readablePictures([second, logo, rule] + strips, words: Self.words,
                                                  pageWidth: 2480, pageHeight: 3508)
        #expect(found == [[300, 1000, 1800, 260], second])
    }

    @Test func aPictureUnderWordsOfTheLayerIsNotReadAgain() {
        // A scan with an invisible text layer over it: three words stand on it.
        let scan = [250, 250, 1200, 700]
        #expect(PDFTextLayer.readablePictures([scan], words: Self.words, pageWidth: 2480, pageHeight: 3508).isEmpty)
        // One label on a picture is no text layer of it.
        #expect(PDFTextLayer.readablePictures([scan], words: [Self.words[0]], pageWidth: 2480, pageHeight: 3508) == [scan])
    }

    @Test func picturesAreCutToThePage() {
        let found = PDFTextLayer.readablePictures([[-100, 3000, 1000, 1000]], words: [], pageWidth: 2480, pageHeight: 3508)
        #expect(found == [[0, 3000, 900, 508]])
    }

    @Test func aHugePictureIsReadWithinThePixelLimit() throws {
        let page = try Image(gray: [UInt8](repeating: 250, count: 7000 * 5000), width: 7000, height: 5000)
        let picture = try #require(try PageCleaner().picture(on: page, box: [0, 0, 7000, 5000]))
        #expect(picture.image.width * picture.image.height <= PageCleaner.picturePixelLimit)
        #expect(abs(Double(picture.image.width) / picture.scale - 7000) < 5)
        // A box partly off the page is cut to it; one wholly off it is nothing to read.
        #expect(try PageCleaner().picture(on: page, box: [6500, 4500, 1000, 1000])?.image.width == 500)
        #expect(try PageCleaner().picture(on: page, box: [8000, 0, 1000, 1000]) == nil)
    }

    @Test func aDigitalPageListsItsPictureWhereItStands() throws {
        let page = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first).grayscale()
        let paragraph = try page.cropped(x: 250, y: 1300, width: 1980, height: 340)
        let picture = PDFMaker.Picture(jpeg: try paragraph.jpegData(quality: 85), width: 1980, height: 340, left: 60, top: 180)
        let logo = PDFMaker.Picture(jpeg: try page.cropped(x: 280, y: 220, width: 300, height: 120).jpegData(),
                                    width: 300, height: 120, left: 400, top: 40)
        let lines = ["Helse Vestvik HF", "Avdeling for hudsykdommer", "", "Vi har mottatt denne henvisningen:"]
        let pdf = PDFMaker.make([PDFMaker.Page(lines: lines, pictures: [picture, logo]),
                                 PDFMaker.Page(lines: lines, pictures: [picture], rotate: 90)])
        let pages = try EncodedPages.inspect(pdf)
        let layer = try #require(pages.textLayer(page: 0))
        #expect(pages.isDigitalPDF)
        // 60 × 180 points from the top left, 1980 × 340 pixels at 300 DPI: the logo is too small.
        let box = try #require(layer.pictures.first)
        #expect(layer.pictures.count == 1)
        #expect(abs(box[0] - 250) <= 2 && abs(box[1] - 750) <= 2 && abs(box[2] - 1980) <= 2 && abs(box[3] - 340) <= 2, "\(box)")
        // On a page turned a quarter poppler cannot tell where a picture stands: none is read.
        #expect(pages.textLayer(page: 1)?.pictures == [])
    }
}
