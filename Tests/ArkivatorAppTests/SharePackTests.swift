import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorIntake
import ArkivatorLibrary
@testable import ArkivatorApp
import ArkivatorPipeline
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// The share pack through the library-level API, on a letter saved from an office program (a
/// digital PDF, archived as it came: its pages are drawn and its words taken from its own text,
/// so no OCR runs here; `SharePackCLITests` reads a scan with Tesseract).
@Suite struct SharePackTests {
    static let number = "17097243859"

    static func letter() -> [UInt8] {
        PDFMaker.digital([[
            "Østre Lia sykehus, Hudpoliklinikken", "",
            "Epikrise etter poliklinisk kontroll", "",
            "Pasient: Kari Nordmann, f.nr. \(number)",
            "Mor: Kari Nordmann, f.nr. 1709 7243859", "",
            "Føflekken på venstre skulderblad er fjernet.",
            "Med vennlig hilsen",
        ]])
    }

    @Test func aDigitalLetterIsBoxedAndMaskedAndTheArchiveIsLeftAsItWas() throws {
        try withTemporaryDirectory { dir in
            let household = try Household.open(LibraryLocation(directory: dir.appendingPathComponent("bibliotek")), environment: [:])
            try household.library.family { _ = try $0.add(name: "Kari Nordmann", fodselsnummer: Self.number) }
            let source = dir.appendingPathComponent("epikrise.pdf")
            try Data(Self.letter()).write(to: source)
            let records = NIOLockedValueBox<[DocumentRecord]>([])
            try household.makePipeline(.init(jobs: 1)).run([DocumentSource(name: "epikrise.pdf", pages: [source])]) { record in
                records.withLockedValue { $0.append(record) }
            }
            let id = try #require(records.withLockedValue { $0.first?.libraryID })
            let archived = try #require(try household.library.documents.document(id).files.pdf)
            let before = try Data(contentsOf: archived.url)

            let seen = NIOLockedValueBox<[(Int, Int)]>([])
            let pack = dir.appendingPathComponent("pakke.pdf")
            let summary = try household.writeSharePack([id, String(id.prefix(8))], to: pack) { done, total in
                seen.withLockedValue { $0.append((done, total)) }
            }
            #expect(summary == SharePackSummary(letters: 1, pages: 2, boxes: 3), "the same letter twice is one; a box on each word, the split number's two too")
            #expect(seen.withLockedValue { $0.map(\.0) } == [0, 1] && seen.withLockedValue { $0.allSatisfy { $0.1 == 1 } })
            #expect(try Data(contentsOf: archived.url) == before, "the archived letter is not changed")

            let bytes = [UInt8](try Data(contentsOf: pack))
            let texts = try #require(PDFTextLayer.pageTexts(ofPDF: bytes))
            #expect(texts.count == 2)
            let all = texts.joined(separator: "\n")
            #expect(!all.filter(\.isNumber).contains("7243859"), "\(all)")
            #expect(all.contains("Kari Nordmann, født 17.09.1972") && all.contains("Føflekken"), "\(all)")

            // The page images: black where the number's words stand in the letter's own text.
            let words = try #require(try EncodedPages.inspect(Self.letter()).textLayer(page: 0)).lines.joined()
                .filter { word in word.text.filter(\.isNumber).count >= 4 && Self.number.contains(word.text.filter(\.isNumber)) }
            #expect(words.count == 3)
            let images = try household.sharedPageImages(id)
            #expect(images.count == 1)
            let jpeg = try #require(images.first)
            let page = try #require(try Image.decodePages(jpeg).first)
            let pixels = try page.grayBytes()
            for word in words {
                let (x, y, w, h) = (word.box[0], word.box[1], word.box[2], word.box[3])
                let inside = (y..<(y + h)).flatMap { row in (x..<(x + w)).map { pixels[row * page.width + $0] } }
                #expect(Set(inside).count == 1 && (inside.first ?? 255) < 40, "\(word.text) is under a solid box")
            }

            let text = try household.shareTextBundle([id])
            #expect(!text.contains("Kari") && !text.filter(\.isNumber).contains("7243859") && text.contains("Føflekken"), "\(text)")
            #expect(throws: SharePackFailure.noLetters) { try household.writeSharePack([], to: pack) }
        }
    }
}
