import ArkivatorClassify
import ArkivatorCore
import ArkivatorOCR

/// Joins the pages of one document into its record: text, confidence, low-confidence words.
package enum RecordAssembler {
    /// The separator between pages in a document's text.
    package static let pageSeparator = "\u{0C}"

    package static func assemble(_ base: DocumentRecord, pages: [PageReader.ReadPage], imageNames: [String?]) -> DocumentRecord {
        var record = base
        record.pages = pages.count
        var text = ""
        var offset = 0
        var weighted = 0.0
        var weights = 0.0
        for (number, page) in pages.enumerated() {
            if number > 0 {
                text += pageSeparator
                offset += pageSeparator.unicodeScalars.count
            }
            let ocr = page.ocr
            text += ocr.text
            for word in ocr.lowConfidenceWords() {
                record.lowConfidenceWords.append(.init(
                    word: word.text, page: number + 1, start: offset + word.start, length: word.length,
                    confidence: (word.confidence * 1000).rounded() / 1000))
            }
            for word in ocr.words where word.confidence < DocumentRecord.numberConfidence
                && word.text.unicodeScalars.contains(where: { ("0"..."9").contains($0) }) {
                record.unsureNumberWords.append(.init(
                    word: word.text, page: number + 1, start: offset + word.start, length: word.length,
                    confidence: (word.confidence * 1000).rounded() / 1000))
            }
            offset += ocr.text.unicodeScalars.count
            for word in ocr.words {
                weighted += word.confidence * Double(word.length)
                weights += Double(word.length)
            }
            record.timings.cleanup += page.cleanupSeconds
            record.timings.ocr += page.ocrSeconds
            record.pageReports.append(.init(
                cleanup: page.report, ocrConfidence: (ocr.meanConfidence * 1000).rounded() / 1000,
                noText: ocr.noText, width: page.width, height: page.height,
                image: number < imageNames.count ? imageNames[number] : nil,
                orientationChecked: page.orientationChecked, exifOrientation: page.exifOrientation,
                droppedLines: ocr.droppedLines > 0 ? ocr.droppedLines : nil,
                textLayer: page.fromTextLayer ? true : nil,
                picturesRead: page.picturesRead > 0 ? page.picturesRead : nil,
                source: page.picturesRead > 0
                    ? "text layer + OCR of \(page.picturesRead) picture\(page.picturesRead == 1 ? "" : "s")" : nil,
                crop: page.fromTextLayer ? nil : page.crop, original: page.original, originalPage: page.originalPage))
        }
        record.text = text
        // A fødselsnummer may stand in the text (where it was printed), nowhere else: low-confidence
        // words that are part of one are listed masked.
        let numbers = Fodselsnummer.numbers(in: text).map(\.digits)
        if !numbers.isEmpty {
            for index in record.lowConfidenceWords.indices {
                let digits = record.lowConfidenceWords[index].word.filter(\.isNumber)
                if digits.count >= 4, numbers.contains(where: { $0.contains(digits) }) {
                    record.lowConfidenceWords[index].word = String(repeating: "•", count: record.lowConfidenceWords[index].word.count)
                }
            }
        }
        record.noText = pages.allSatisfy(\.ocr.noText)
        record.ocrConfidence = weights > 0 ? weighted / weights : nil
        return record
    }
}
