import ArkivatorImaging
import ArkivatorOCR

extension PageReader {
    /// A picture's reading is kept when its words are read with at least this mean confidence:
    /// a photo or a drawing gives a few doubtful marks, typed or printed text reads well above.
    static let pictureConfidence = 0.6

    /// Reads the pictures at `boxes` (x, y, width, height) of `page`, a PDF page drawn at 300
    /// DPI (gray or colour), one at a time (see ``PageCleaner/picture(on:box:)``); returns the
    /// readings that hold text. A picture that cannot be prepared or read is left out: the page
    /// keeps its text layer.
    func readPictures(_ boxes: [[Int]], on page: Image) -> [OCRPage.PictureReading] {
        boxes.compactMap { box in
            guard let prepared = try? cleaner.picture(on: page, box: box),
                  let reading = try? engine.recognize(prepared.image),
                  !reading.noText, reading.meanConfidence >= Self.pictureConfidence else { return nil }
            return OCRPage.PictureReading(box: box, reading: reading, scale: prepared.scale)
        }
    }
}
