import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// A page replaced after it was read again: every file and the row change together, and a
/// crash at any moment leaves them agreeing; the originals kept with the library.
@Suite struct LibraryRecropTests {
    static func document(title: String = "2025-03-11 Innkalling fra helsestasjonen") -> LibraryDocument {
        var document = LibraryDocument(sha256: String(repeating: "ab", count: 32), sourceName: "foto.heic", title: title,
                                       docType: .innkalling, documentDate: "2025-03-11", text: "Gammel tekst om kvittering",
                                       pages: [.init(number: 1, ocrConfidence: 0.5, width: 100, height: 140, original: 1,
                                                     originalPage: 1, crop: .whole(width: 400, height: 300))])
        document.pageCount = 1
        return document
    }

    @Test func theOriginalIsKeptWithTheLibraryAndAPageReplacementMovesEverythingTogether() throws {
        try withLibrary { library, _ in
            let heic = [UInt8]("ftypheic fake photo bytes".utf8)
            let filed = try library.documents.file(Self.document(), originals: [ReceivedOriginal(name: "IMG_0001.HEIC", format: "heic", bytes: heic)]) {
                try Archive.write(Archive.urls(root: Archive.root(library), person: nil, title: "2025-03-11 Innkalling fra helsestasjonen"), $0)
            }
            let original = try #require(try library.documents.originals(of: filed.shortID).first)
            #expect(original.url.deletingLastPathComponent().lastPathComponent == filed.shortID)
            #expect(try [UInt8](Data(contentsOf: original.url)) == heic)
            #expect(original.contentType == "image/heic" && original.name == "IMG_0001.HEIC")
            #expect(try library.documents.document(filed.shortID).pages.first?.crop == .whole(width: 400, height: 300))

            var changed = try library.documents.document(filed.shortID, revealNumbers: true)
            changed.text = "Ny tekst om vaksinasjon"
            changed.title = "2025-03-11 Innkalling til vaksinasjon"
            changed.pages[0].crop = PageCrop(corners: [[10, 10], [390, 12], [388, 290], [12, 288]], quarterTurns: 1,
                                             width: 400, height: 300, source: .user)
            let stale = PageRereading(page: 1, document: changed, startedFrom: "1999-01-01T00:00:00Z", jpeg: [1], pdf: nil)
            #expect(throws: RecropFailure.changedMeanwhile) { try library.documents.replacePage(stale, programVersion: "test") }

            let rereading = PageRereading(page: 1, document: changed, startedFrom: filed.updatedAt, jpeg: [0xFF, 0xD8, 7],
                                          pdf: nil)
            let after = try library.documents.replacePage(rereading, programVersion: "test")
            #expect(after.title == "2025-03-11 Innkalling til vaksinasjon")
            #expect(after.pages.first?.crop?.source == .user && after.pages.first?.crop?.quarterTurns == 1)
            let image = try #require(after.files.images.first)
            #expect(image.url.lastPathComponent == "2025-03-11 Innkalling til vaksinasjon.jpeg")
            #expect(try [UInt8](Data(contentsOf: image.url)) == [0xFF, 0xD8, 7])
            #expect(!Archive.exists(try #require(filed.files.images.first).path), "the old name is gone")
            #expect(try library.index.search("vaksinasjon").hits.map(\.id) == [after.shortID])
            #expect(try library.index.search("kvittering").hits.isEmpty)
            #expect(try intentCount(library.location) == 0)
        }
    }

    @Test func aCrashBeforeTheCommitUndoesAndACrashAfterItFinishes() throws {
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            var target = URL(fileURLWithPath: "/")
            do {
                let library = try Library.open(location, environment: [:])
                let filed = try Archive.file(library, Self.document())
                target = try #require(filed.files.images.first).url
            }
            // What a process killed between the steps leaves: a staged file and its intent.
            func crash(action: String) throws -> URL {
                let staged = AtomicFile.makeTemporaryURL(beside: target)
                try Data("ny side".utf8).write(to: staged)
                let relative = { (url: URL) in String(url.path.dropFirst(location.directory.path.count + 1)) }
                let paths = String(decoding: try JSONEncoder().encode([[relative(staged), relative(target)]]), as: UTF8.self)
                let database = try Database.open(library: location)
                try database.execute("INSERT INTO filing_intents (action, paths, created_at) VALUES (?, ?, '2025-01-01T00:00:00Z')",
                                     [action, paths])
                return staged
            }
            let before = try Data(contentsOf: target)
            let undone = try crash(action: "replace")
            _ = try Library.open(location, environment: [:])
            #expect(!Archive.exists(undone), "not committed: the staged page goes")
            #expect(try Data(contentsOf: target) == before, "and the old page stays")

            let finished = try crash(action: "replace-committed")
            _ = try Library.open(location, environment: [:])
            #expect(!Archive.exists(finished))
            #expect(try Data(contentsOf: target) == Data("ny side".utf8), "committed: the new page takes its place")
            #expect(try intentCount(location) == 0)
        }
    }
}
