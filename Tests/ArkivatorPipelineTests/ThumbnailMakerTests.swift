import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
@testable import ArkivatorPipeline
import Foundation
import TestSupport
import Testing

/// Thumbnails of first pages: made from the archived page, kept in the library's own folder,
/// made again when the pages change, and gone with the document.
@Suite struct ThumbnailMakerTests {
    /// Files a letter whose archived page is `page` (copied into the archive), returns its short id.
    func file(_ page: URL?, sha: String, into library: Library) throws -> String {
        let document = LibraryDocument(sha256: sha, sourceName: "brev.png", title: "2024-03-15 Prøvesvar",
                                       docType: .labSvar, documentDate: "2024-03-15", text: "Hemoglobin 13,2")
        let folder = library.defaultArchiveRoot.appendingPathComponent("Ukjent person/Bilder")
        let target = folder.appendingPathComponent("\(sha.prefix(6)).png")
        return try library.documents.file(document) { reservation in
            guard let page else { return [] }
            try reservation.reserve([target])
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: page, to: target)
            return [ArchivedFile(kind: .image, page: 1, path: target.path)]
        }.shortID
    }

    @Test func madeOnceSmallKeptWithTheLibraryAndGoneWithTheDocument() throws {
        try withTemporaryDirectory { dir in
            let library = try Library.open(LibraryLocation(directory: dir.appendingPathComponent("bibliotek")), environment: [:])
            let page = Fixtures.root.appendingPathComponent("samples/labsvar-ren.png")
            let id = try file(page, sha: String(repeating: "d4", count: 32), into: library)
            let bare = try file(nil, sha: String(repeating: "e5", count: 32), into: library)
            #expect(try library.documents.thumbnail(id) == .missing && library.documents.documentsWithoutThumbnail().count == 2)
            #expect(try ThumbnailMaker.makeMissing(in: library) == 1, "one made; the letter without a page has none")
            #expect(try library.documents.thumbnail(bare) == .none, "no page: none, and not tried again")
            guard case .file(let url, let version) = try library.documents.thumbnail(id) else {
                Issue.record("no thumbnail made")
                return
            }
            #expect(url.path.hasPrefix(library.documents.thumbnailRoot.path) && version.count == 8)
            let bytes = try [UInt8](Data(contentsOf: url))
            #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.count < 20_000, "a small JPEG: \(bytes.count) bytes")
            let shown = try #require(try Image.decodePages(bytes).first)
            #expect(shown.width == Image.thumbnailWidth && shown.height > shown.width)
            #expect(try library.documents.list().first { $0.id == id }?.thumbnailVersion == version)
            #expect(try library.documents.list().first { $0.id == bare }?.hasNoThumbnail == true)
            #expect(try ThumbnailMaker.makeMissing(in: library) == 0, "made once")

            // Pages changed: made again, under a new version, the old file gone.
            try library.documents.forgetThumbnail(id)
            #expect(!FileManager.default.fileExists(atPath: url.path))
            let again = try ThumbnailMaker.thumbnail(id, in: library)
            #expect(again == .file(url, version: version), "the same page gives the same picture and address")

            // The trash keeps it; purging shreds it.
            _ = try library.documents.delete(id)
            #expect(try library.documents.thumbnail(id) == .file(url, version: version))
            _ = try library.documents.restore(id)
            _ = try library.documents.delete(id, purge: true)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func anArchivedJPEGIsReadSmallAndGivesTheSameShape() throws {
        let page = try #require(try Image.decodePages([UInt8](Data(contentsOf: Fixtures.root.appendingPathComponent(
            "samples/labsvar-ren.png")))).first)
        let jpeg = try page.jpegData()
        let small = try Image.thumbnailJPEG(firstPageOf: jpeg)
        let shown = try #require(try Image.decodePages(small).first)
        #expect(shown.width == Image.thumbnailWidth && small.count < 20_000)
        let ratio = Double(page.height) / Double(page.width), shownRatio = Double(shown.height) / Double(shown.width)
        #expect(abs(ratio - shownRatio) < 0.02, "the page's shape: \(ratio) against \(shownRatio)")
    }
}
