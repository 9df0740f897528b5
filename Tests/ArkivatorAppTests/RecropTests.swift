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

/// The photo as taken kept with the library, and a page read again with corners moved by hand,
/// on the fixture `scripts/fixtures/make_recrop.py` makes: a letter whose automatic crop takes a
/// receipt beside it for part of the sheet, and the same letter photographed cleanly.
@Suite struct RecropTests {
    static func file(_ household: Household, _ names: [String]) throws -> [DocumentRecord] {
        let pipeline = try household.makePipeline(.init(jobs: 2))
        let records = NIOLockedValueBox<[DocumentRecord]>([])
        pipeline.run(names.map { DocumentSource(name: $0, pages: [Fixtures.url("recrop/\($0)")]) }) { record in
            records.withLockedValue { $0.append(record) }
        }
        return records.withLockedValue { $0 }
    }

    static func corners(_ name: String) throws -> [[Double]] {
        let json = try Fixtures.json("recrop/recrop.json")
        let entry = json[name] as? [String: Any]
        return (entry?["page_corners"] as? [[Double]]) ?? []
    }

    @Test func aPageCroppedWronglyIsReadAgainFromThePhotoWithTheCornersMovedByHand() throws {
        try withTemporaryDirectory { dir in
            let household = try Household.open(LibraryLocation(directory: dir.appendingPathComponent("bibliotek")), environment: [:])
            let records = try Self.file(household, ["recrop-wrong.jpg", "recrop-clean.jpg"])
            #expect(records.count == 2)
            #expect(records.allSatisfy { $0.failure == nil }, "\(records.map { $0.failure?.userMessage.english ?? "" })")
            let truth = try Fixtures.text("recrop/recrop.txt")
            let wrongID = try #require(records[0].libraryID), cleanID = try #require(records[1].libraryID)
            let library = household.library

            // The photo as taken: kept byte for byte inside the library, its path stored relative.
            let originals = try library.documents.originals(of: wrongID)
            #expect(originals.count == 1)
            let original = try #require(originals.first)
            #expect(try Data(contentsOf: original.url) == Data(contentsOf: Fixtures.url("recrop/recrop-wrong.jpg")))
            #expect(original.path.hasPrefix(library.documents.originalsRoot.path + "/"))
            #expect(original.name == "recrop-wrong.jpg" && original.format == "jpeg" && original.contentType == "image/jpeg")
            let before = try library.documents.document(wrongID)
            let page = try #require(before.pages.first)
            #expect(page.original == 1 && page.originalPage == 1)
            let found = try #require(page.crop)
            #expect(found.width == 1800 && found.height == 2400 && found.corners.count == 4)

            let clean = wordRecall(truth: truth, predicted: try library.documents.document(cleanID).text)
            let automatic = wordRecall(truth: truth, predicted: before.text)
            #expect(before.text.contains("214,50"), "the fixture does what it is for: the automatic crop takes in the receipt")
            #expect(try library.index.search("214").hits.contains { $0.id == wrongID })

            // The corners moved to the letter's own, and the page read again.
            let oldPage = try #require(before.files.images.first)
            let oldImage = try Data(contentsOf: oldPage.url)
            let after = try household.recrop(wrongID, page: 1, .init(corners: try Self.corners("wrong")))
            let recropped = wordRecall(truth: truth, predicted: after.text)
            print("word recall: clean photo \(clean), automatic crop \(automatic), corners by hand \(recropped)")
            #expect(recropped >= clean - 0.02, "recall \(recropped) against the clean photo's \(clean)")
            #expect(!after.text.contains("214,50"), "the receipt is left out")
            #expect(after.pages.first?.crop?.source == .user)
            #expect(after.updatedAt >= before.updatedAt)

            // Everything followed: the page image, the PDF's text, the .docx, the index.
            let image = try #require(after.files.images.first)
            #expect(try Data(contentsOf: image.url) != oldImage)
            let pdf = try #require(after.files.pdf)
            let pdfText = PDFTextLayer.pageTexts(ofPDF: [UInt8](try Data(contentsOf: pdf.url)))?.joined() ?? ""
            #expect(pdfText.contains("vaksinasjon"), "\(pdfText.prefix(200))")
            #expect(!pdfText.contains("214,50"))
            let docxFile = try #require(after.files.docx)
            let docx = try #require(try LetterDocx.read(from: docxFile.url))
            #expect(docx.text.contains("helsestasjonen"))
            #expect(try library.index.search("kortermet").hits.contains { $0.id == after.shortID })
            #expect(try library.index.search("214").hits.isEmpty, "the receipt's words left the index")
            for file in after.files { #expect(FileManager.default.fileExists(atPath: file.path), "\(file.path)") }
            let leftovers = FileManager.default.enumerator(atPath: library.defaultArchiveRoot.path)?.allObjects
                .compactMap { $0 as? String }.filter { AtomicFile.isTemporaryName(URL(fileURLWithPath: $0).lastPathComponent) } ?? []
            #expect(leftovers.isEmpty)

            // Refusals in words: corners that make no sheet, a page that is not there.
            #expect(throws: RecropFailure.badCorners(PageCrop(corners: [[0, 0], [10, 0], [10, 10], [0, 10]], quarterTurns: 0,
                                                              width: 1800, height: 2400, source: .user).problem)) {
                try household.recrop(wrongID, page: 1, .init(corners: [[0, 0], [10, 0], [10, 10], [0, 10]]))
            }
            #expect(throws: RecropFailure.noSuchPage(2, pages: 1)) { try household.recrop(wrongID, page: 2, .init(whole: true)) }
            #expect(RecropFailure.noSuchPage(2, pages: 1).userMessage.norwegian == "Dokumentet har ingen side 2 (det har én side).")

            // The originals go to the trash with the document, come back with it, and are gone when purged.
            _ = try library.documents.delete(wrongID)
            let trashed = try #require(try library.documents.originals(of: wrongID).first)
            #expect(trashed.path.hasPrefix(library.trashRoot.path + "/"))
            #expect(!FileManager.default.fileExists(atPath: original.path))
            _ = try library.documents.restore(wrongID)
            #expect(try library.documents.originals(of: wrongID).first?.path == original.path)
            #expect(FileManager.default.fileExists(atPath: original.path))
            _ = try library.documents.delete(wrongID, purge: true)
            #expect(!FileManager.default.fileExists(atPath: original.path))
        }
    }
}
