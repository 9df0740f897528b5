import ArkivatorImaging
@testable import ArkivatorOCR
import Testing

/// A digital PDF page's text layer and the OCR of its pictures, put together in reading order.
@Suite struct PictureMergeTests {
    /// A text-layer line at `y` from `x`, words 20 px a letter and 40 px high.
    private func line(_ text: String, x: Int = 300, y: Int) -> [PDFTextLayer.Word] {
        var left = x
        return text.split(separator: " ").map { word in
            defer { left += 20 * (word.count + 1) }
            return PDFTextLayer.Word(text: String(word), box: [left, y, 20 * word.count, 40])
        }
    }

    /// A picture's reading: its lines (in the read image's pixels, 80 px apart) at `confidence`.
    private func reading(_ lines: [String], confidence: Double) -> OCRPage {
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] = []
        for (row, text) in lines.enumerated() {
            for (column, word) in text.split(separator: " ").enumerated() {
                items.append((String(word), confidence, [column * 200, row * 80, 180, 60], column == 0 ? .line : .none))
            }
        }
        return OCRPage.assemble(items)
    }

    @Test func aPictureIsReadWhereItStandsAndItsWordsCountWithTheirConfidence() {
        let layer = PDFTextLayer(lines: [line("Helse Vestvik HF", y: 300), line("Vi har mottatt dette:", y: 360),
                                         line("Med vennlig hilsen", y: 1500)], imageCoverage: 0.1)
        let picture = OCRPage.PictureReading(
            box: [300, 500, 1800, 600], reading: reading(["Jeg henviser pasienten", "til vurdering ved poliklinikken"], confidence: 0.8),
            scale: 2)
        let page = OCRPage(textLayer: layer, pictures: [picture])
        #expect(page.text == "Helse Vestvik HF\nVi har mottatt dette:\n\nJeg henviser pasienten\n"
                + "til vurdering ved poliklinikken\n\nMed vennlig hilsen")
        #expect(page.meanConfidence > 0.8 && page.meanConfidence < 1)
        let first = page.words.first { $0.text == "Jeg" }
        // The read image was twice the picture's size: its boxes are halved and moved onto the page.
        #expect(first?.box == [300, 500, 90, 30])
        #expect(first?.confidence == 0.8)
        #expect(OCRPage(textLayer: layer, pictures: []) == OCRPage(textLayer: layer))
    }

    @Test func aPictureBesideAColumnComesAfterTheLinesBesideIt() {
        let layer = PDFTextLayer(lines: [line("Pasient Ola Nordmann", y: 300), line("Storgata 14 Granvik", y: 360),
                                         line("Telefon 61 17 42 90", y: 420), line("Svar fra laboratoriet kommer her", y: 900)],
                                 imageCoverage: 0.1)
        let beside = OCRPage.PictureReading(box: [1400, 280, 900, 300], reading: reading(["Laboratoriet Granvik sykehus"], confidence: 0.9),
                                            scale: 1)
        let below = OCRPage.PictureReading(box: [300, 1200, 1800, 300], reading: reading(["Stempel fra legekontoret her"], confidence: 0.9),
                                           scale: 1)
        let expected = "Pasient Ola Nordmann\nStorgata 14 Granvik\nTelefon 61 17 42 90\n\nLaboratoriet Granvik sykehus\n\n"
            + "Svar fra laboratoriet kommer her\n\nStempel fra legekontoret her"
        // The line below the column does not reach under the picture: the picture follows the
        // lines beside it.
        #expect(OCRPage(textLayer: layer, pictures: [below, beside]).text == expected)
        // A line across the page under the picture: the picture comes before it.
        var wide = layer
        wide.lines[3] = line("Svar fra laboratoriet kommer her", x: 300, y: 900).map { word in
            var word = word
            word.box[0] += word.text == "her" ? 1400 : 0
            return word
        }
        #expect(OCRPage(textLayer: wide, pictures: [below, beside]).text == expected)
    }
}
