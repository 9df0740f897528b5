import ArkivatorImaging
import ArkivatorOCR
import Foundation
import TestSupport
import Testing

/// Small print in a low-resolution phone photo: the upper part of a laboratory table in 8.7 pt
/// print, photographed at about 120 pixels an inch (made by `scripts/fixtures/make_smallprint.py
/// --test-fixture`, with its exact text beside it). Its letters are 7 pixels high as it came.
@Suite struct SmallPrintTests {
    /// The truth's words found in `text`, counted as multisets: the tokens between white space and
    /// dashes, less the punctuation around them (as `scripts/bench/small_print.py` counts them).
    private func wordRecall(truth: String, text: String) -> Double {
        func words(_ s: String) -> [String: Int] {
            var counts: [String: Int] = [:]
            let tokens = s.split { $0.isWhitespace || "-\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2015}".contains($0) }
            for token in tokens {
                let word = token.drop { !($0.isLetter || $0.isNumber) }.reversed().drop { !($0.isLetter || $0.isNumber) }
                if !word.isEmpty { counts[String(word.reversed()), default: 0] += 1 }
            }
            return counts
        }
        let expected = words(truth), read = words(text)
        let total = expected.values.reduce(0, +)
        let found = expected.reduce(0) { $0 + min($1.value, read[$1.key] ?? 0) }
        return total > 0 ? Double(found) / Double(total) : 0
    }

    /// Brought to the working resolution and cleaned, the page reads four in five of its words or more,
    /// and never fewer than plain OCR reads from the photo as it came.
    @Test func smallPrintInALowResolutionPhotoReadsItsWords() throws {
        let photo = try #require(try Image.decodePages(Fixtures.bytes("smallprint/smallprint-lab-120.jpg")).first)
        let truth = try Fixtures.text("smallprint/smallprint-lab-120.txt")
        let cleaned = try PageCleaner().clean(photo)
        #expect(cleaned.report.scale > 1.8, "enlarged from about 120 px/inch: \(cleaned.report)")
        let engine = try TesseractEngine(language: "nor")
        let text = try engine.recognize(cleaned.text).text
        let plain = try engine.recognize(photo.grayscale(), dpi: 120).text
        let recall = wordRecall(truth: truth, text: text)
        #expect(recall >= 0.8, "word recall \(recall)\n\(text)")
        #expect(recall >= wordRecall(truth: truth, text: plain) - 0.01, "plain OCR read more:\n\(plain)")
        for word in ["Trombocytter", "Leukocytter", "Prøvetatt:", "89879658", "Bilirubin"] {
            #expect(text.contains(word), "\(word) in\n\(text)")
        }
    }
}
