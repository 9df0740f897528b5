import ArkivatorImaging
@testable import ArkivatorOCR
import Foundation
import TestSupport
import Testing

/// Real Tesseract (`nor`) on real pages. The test process gets OMP_THREAD_LIMIT=1 from the Makefile.
@Suite(.serialized) struct RecognitionTests {
    /// An engine of the test's own: an engine is used by one thread only (~60 ms to make).
    private func makeEngine() throws -> TesseractEngine { try TesseractEngine(language: "nor") }

    private func cleaned(_ name: String) throws -> CleanedPage {
        let image = try #require(try Image.decodePages(Fixtures.bytes(name)).first)
        return try PageCleaner().clean(image)
    }

    @Test func readsACleanPageWithFewErrors() throws {
        let engine = try makeEngine()
        let page = try engine.recognize(try cleaned("clean.png").text)
        let truth = try Fixtures.text("clean.txt")
        let cer = characterErrorRate(truth: truth, predicted: page.text)
        #expect(cer < 0.06, "CER \(cer)")
        #expect(!page.noText)
        #expect(page.meanConfidence > 0.85)
    }

    @Test(arguments: ["photo.jpg", "photo2.jpg", "skew.jpg", "skew-neg.jpg"])
    func readsDegradedPagesAfterCleanup(name: String) throws {
        let engine = try makeEngine()
        let page = try engine.recognize(try cleaned(name).text)
        let truth = try Fixtures.text(name.replacingOccurrences(of: ".jpg", with: ".txt"))
        let cer = characterErrorRate(truth: truth, predicted: page.text)
        #expect(cer < 0.08, "\(name): CER \(cer)")
    }

    @Test(arguments: ["bad/blank-page.jpg", "bad/noise-photo.jpg"])
    func reportsPagesWithoutText(name: String) throws {
        let engine = try makeEngine()
        let page = try engine.recognize(try cleaned(name).text)
        #expect(page.noText)
        #expect(page.text.isEmpty)
    }

    @Test func wordRangesPointIntoTheText() throws {
        let engine = try makeEngine()
        let page = try engine.recognize(try cleaned("photo.jpg").text)
        let scalars = Array(page.text.unicodeScalars)
        #expect(!page.words.isEmpty)
        for word in page.words {
            let slice = String(String.UnicodeScalarView(scalars[word.start..<(word.start + word.length)]))
            #expect(slice == word.text)
            #expect((0...1).contains(word.confidence))
        }
        #expect(page.lowConfidenceWords().allSatisfy { $0.confidence < 0.7 })
        // Paragraphs are separated by a blank line.
        #expect(page.text.contains("\n\n"))
    }

    @Test func keepsTheLetterheadColumnsInReadingOrder() throws {
        let engine = try makeEngine()
        let page = try engine.recognize(try cleaned("clean.png").text)
        let truthLines = try Fixtures.text("clean.txt").split(separator: "\n").map(String.init)
        // The first lines of the truth (letterhead, left column then right) come out in that order.
        var position = page.text.startIndex
        for line in truthLines.prefix(4) {
            let range = try #require(page.text.range(of: line, range: position..<page.text.endIndex), "\(line)")
            position = range.upperBound
        }
    }

    @Test(arguments: [1, 2, 3])
    func detectsSidewaysAndUpsideDownPages(turns: Int) throws {
        let detector = try OrientationDetector()
        let upright = try cleaned("clean.png")
        let turned = try upright.rotated(quarterTurns: turns)
        let result = try #require(detector.uprightTurns(try turned.binary()))
        #expect(result.quarterTurns == (4 - turns) % 4)
    }
}

@Suite struct TypographyTests {
    private func line(_ words: String) -> String {
        var items = words.split(separator: " ").map { PageLayout.Word(text: String($0), confidence: 0.9, box: [0, 0, 1, 1]) }
        Typography.normalizeDashes(&items)
        return items.map(\.text).joined(separator: " ")
    }

    @Test func dashes() {
        #expect(line("- Paracet 500 mg - 1 tablett") == "– Paracet 500 mg – 1 tablett")
        #expect(line("Hemoglobin 13,4 - 17,0") == "Hemoglobin 13,4 - 17,0")
        #expect(line("Sykehuset — Postadresse") == "Sykehuset – Postadresse")
        #expect(Typography.normalized("1-2") == "1–2")
        #expect(Typography.normalized("(10-14).") == "(10–14).")
        #expect(Typography.normalized("(2,9-6,1)") == "(2,9–6,1)")
        #expect(Typography.normalized("3,5-4,4") == "3,5–4,4")
        #expect(Typography.normalized("24/02683-11") == "24/02683-11")
        #expect(Typography.normalized("2025-11-03") == "2025-11-03")
        #expect(Typography.normalized("25/05981-8") == "25/05981-8")
        #expect(Typography.normalized("Albyl-E") == "Albyl-E")
    }

    @Test func scribbleLinesAreDropped() {
        var layout = PageLayout()
        layout.startBlock(box: [0, 0, 100, 100])
        for word in ["Med", "vennlig", "hilsen"] { layout.add(.init(text: word, confidence: 0.95, box: [0, 0, 1, 1])) }
        layout.startLine()
        layout.add(.init(text: "SVNSK", confidence: 0.2, box: [0, 0, 1, 1]))
        layout.startLine()
        for word in ["Kari", "Lege"] { layout.add(.init(text: word, confidence: 0.9, box: [0, 0, 1, 1])) }
        #expect(layout.page().text == "Med vennlig hilsen\nKari Lege")
    }

    @Test func sideBySideBlocksReadLeftColumnFirst() {
        var layout = PageLayout()
        layout.startBlock(box: [1200, 100, 600, 200])
        layout.add(.init(text: "Postboks", confidence: 0.9, box: [0, 0, 1, 1]))
        layout.startBlock(box: [100, 110, 600, 120])
        layout.add(.init(text: "Sykehuset", confidence: 0.9, box: [0, 0, 1, 1]))
        layout.startBlock(box: [100, 500, 1700, 300])
        layout.add(.init(text: "Brødtekst", confidence: 0.9, box: [0, 0, 1, 1]))
        layout.startBlock(box: [100, 400, 600, 50])
        layout.add(.init(text: "Adresse", confidence: 0.9, box: [0, 0, 1, 1]))
        #expect(layout.orderedBlocks().map { $0.paragraphs[0][0][0].text } == ["Sykehuset", "Postboks", "Adresse", "Brødtekst"])
    }
}
