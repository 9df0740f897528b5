import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

// MARK: - Shared helpers: files in an archive folder

enum Archive {
    /// The archive folder of a test library: `<library>/Arkiv`.
    static func root(_ library: Library) -> URL { library.defaultArchiveRoot }

    /// The names of a one-page document, as the archive lays them out.
    static func urls(root: URL, person: String?, title: String) -> (docx: URL, image: URL) {
        let folder = root.appendingPathComponent(person ?? "Ukjent person")
        return (folder.appendingPathComponent("Dokumenter/\(title).docx"),
                folder.appendingPathComponent("Bilder/\(title).jpeg"))
    }

    /// Announces, then creates `urls` with small contents; returns them as archive files.
    static func write(_ urls: (docx: URL, image: URL), _ reservation: FilingReservation) throws -> [ArchivedFile] {
        try reservation.reserve([urls.docx, urls.image])
        for url in [urls.docx, urls.image] {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("innhold av \(url.lastPathComponent)".utf8).write(to: url)
        }
        return [ArchivedFile(kind: .docx, path: urls.docx.path), ArchivedFile(kind: .image, page: 1, path: urls.image.path)]
    }

    /// Files `document` with a `.docx` and one page image in the library's archive folder.
    @discardableResult
    static func file(_ library: Library, _ document: LibraryDocument) throws -> LibraryDocument {
        let urls = urls(root: root(library), person: document.familyMember, title: document.title)
        return try library.documents.file(document) { try write(urls, $0) }
    }

    static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}

/// The code of the ``LibraryFailure`` that `body` throws (nil when it throws nothing; other errors are recorded as issues).
func failureCode(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> LibraryFailure.Code? {
    do {
        try body()
        return nil
    } catch let failure as LibraryFailure {
        return failure.code
    } catch {
        Issue.record("expected a LibraryFailure, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Rows in `filing_intents`, read through a connection of our own.
func intentCount(_ location: LibraryLocation) throws -> Int {
    try Database.open(library: location).firstRow("SELECT count(*) FROM filing_intents")?[0].int ?? -1
}

// MARK: - Filing

struct TestFailure: Error {}

@Suite struct LibraryFilingTests {
    @Test func filesAreRecordedWithTheDocument() throws {
        try withLibrary { library, _ throws in
            var letter = Letters.innkalling
            letter.pages = [LibraryDocument.Page(number: 1, ocrConfidence: 91.5, width: 2480, height: 3508)]
            let stored = try Archive.file(library, letter)
            #expect(stored.number > 0)
            #expect(stored.files.count == 2)
            for file in stored.files { #expect(Archive.exists(file.path)) }
            let read = try library.documents.document(letter.shortID)
            #expect(read.files == stored.files)
            #expect(read.title == letter.title)
            #expect(read.pages == letter.pages)
            #expect(read.text == letter.text)
            #expect(try library.documents.list().first?.file == stored.files.first { $0.kind == .docx }?.path)
            #expect(try library.documents.existing(sha256: letter.sha256)?.trashed == false)
            #expect(try library.index.search("ortopedisk").hits.map(\.id) == [letter.shortID])
            #expect(try intentCount(library.location) == 0)
        }
    }

    @Test func aDuplicateIsRefusedBeforeWriting() throws {
        try withLibrary { library, _ throws in
            try Archive.file(library, Letters.epikrise)
            var called = false
            #expect(failureCode { try library.documents.file(Letters.epikrise) { _ in called = true; return [] } } == .duplicate)
            #expect(!called)
            _ = try library.documents.delete(Letters.epikrise.shortID)
            #expect(failureCode { try library.documents.file(Letters.epikrise) { _ in called = true; return [] } } == .inTrash)
            #expect(!called)
            #expect(try library.documents.count(DocumentFilter(trashed: true)) == 1)
            #expect(try intentCount(library.location) == 0)
        }
    }

    @Test func aFailingWriterRecordsNothing() throws {
        try withLibrary { library, _ throws in
            #expect(throws: TestFailure.self) {
                try library.documents.file(Letters.labSvar) { reservation in
                    try reservation.reserve([library.defaultArchiveRoot.appendingPathComponent("Kari/Dokumenter/x.docx")])
                    throw TestFailure()
                }
            }
            #expect(try library.documents.count() == 0)
            #expect(try library.documents.existing(sha256: Letters.labSvar.sha256) == nil)
            #expect(try intentCount(library.location) == 0)
            // The same document can be filed afterwards.
            try Archive.file(library, Letters.labSvar)
            #expect(try library.documents.count() == 1)
        }
    }

    @Test
    func filesOfAFailingWriterAreRemoved() throws {
        try withLibrary { library, _ throws in
            let urls = Archive.urls(root: library.defaultArchiveRoot, person: "Kari", title: "2024-01-20 Svar")
            #expect(throws: TestFailure.self) {
                try library.documents.file(Letters.labSvar) { reservation in
                    _ = try Archive.write(urls, reservation)
                    throw TestFailure()
                }
            }
            #expect(try library.documents.count() == 0)
            #expect(!Archive.exists(urls.docx) && !Archive.exists(urls.image))
        }
    }

    @Test func filesAreRemovedWhenRecordingFails() throws {
        try withLibrary { library, _ throws in
            let urls = Archive.urls(root: library.defaultArchiveRoot, person: "Ola", title: Letters.henvisning.title)
            // Another writer records the same paper while this one is writing its files.
            let code = failureCode {
                try library.documents.file(Letters.henvisning) { reservation in
                    let files = try Archive.write(urls, reservation)
                    #expect(try library.documents.record([Letters.henvisning]) == 1)
                    return files
                }
            }
            #expect(code == .duplicate)
            #expect(!Archive.exists(urls.docx))
            #expect(!Archive.exists(urls.image))
            #expect(try library.documents.count() == 1)
            #expect(try library.documents.document(Letters.henvisning.shortID).files.isEmpty)
            #expect(try intentCount(library.location) == 0)
        }
    }

    @Test func reopeningUndoesWhatACrashLeft() throws {
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            let root = location.directory.appendingPathComponent("Arkiv")
            let orphan = root.appendingPathComponent("Kari/Dokumenter/2024-03-15 Innkalling.docx")
            let used = root.appendingPathComponent("Ola/Dokumenter/2023-11-02 Epikrise.docx")
            let never = root.appendingPathComponent("Kari/Bilder/aldri skrevet.jpeg")
            let movedBack = root.appendingPathComponent("Kari/Dokumenter/gammelt navn.docx")
            let movedTo = root.appendingPathComponent("Ola/Dokumenter/nytt navn.docx")
            for url in [orphan, used, movedTo] {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("brev".utf8).write(to: url)
            }
            let encoder = JSONEncoder()
            do {
                let library = try Library.open(location, environment: [:])
                var epikrise = Letters.epikrise
                epikrise.files = [ArchivedFile(kind: .docx, path: used.path)]
                try library.documents.record([epikrise])
                let database = try Database.open(library: location)
                for (action, paths) in [("file", try encoder.encode([orphan.path, used.path, never.path])),
                                        ("move", try encoder.encode([[movedBack.path, movedTo.path]]))] {
                    try database.execute("INSERT INTO filing_intents (action, paths, created_at) VALUES (?, ?, ?)",
                                         [action, String(decoding: paths, as: UTF8.self), "2024-01-01T00:00:00Z"])
                }
                // Another open while this library is open: not alone, so nothing is recovered.
                let second = try Library.open(location, environment: [:])
                withExtendedLifetime((library, second)) {
                    #expect(Archive.exists(orphan))
                    #expect(Archive.exists(movedTo))
                }
                #expect(try intentCount(location) == 2)
            }
            // Every library released (the crashed process is gone): the next open recovers.
            let library = try Library.open(location, environment: [:])
            #expect(!Archive.exists(orphan), "a file no document uses is removed")
            #expect(Archive.exists(used), "a file a document uses stays")
            #expect(Archive.exists(movedBack), "an unfinished move is undone")
            #expect(!Archive.exists(movedTo))
            #expect(try intentCount(location) == 0)
            #expect(try library.documents.document(Letters.epikrise.shortID).files.map(\.path) == [used.path])
        }
    }

    @Test func idsArePrefixesOfTheSHA() throws {
        try withLibrary { library, _ throws in
            var first = Letters.resept
            first.sha256 = "abcd1" + String(first.sha256.dropFirst(5))
            var second = Letters.vedtak
            second.sha256 = "abcd2" + String(second.sha256.dropFirst(5))
            #expect(try library.documents.record([first, second]) == 2)
            #expect(failureCode { _ = try library.documents.document("abcd") } == .ambiguous)
            #expect(try library.documents.document("ABCD1").sha256 == first.sha256)
            #expect(try library.documents.document(" abcd2 ").sha256 == second.sha256)
            #expect(try library.documents.document(second.sha256).title == second.title)
            #expect(failureCode { _ = try library.documents.document("abc") } == .notFound)
            #expect(failureCode { _ = try library.documents.document("abcz1") } == .notFound)
            #expect(failureCode { _ = try library.documents.document("ffff") } == .notFound)
            #expect(failureCode { _ = try library.documents.document(second.sha256 + "0") } == .notFound)
        }
    }
}
