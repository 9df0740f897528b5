import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

@Suite struct LibraryMaintenanceTests {
    // MARK: Backup

    @Test func backupIsACheckedPrivateCopy() throws {
        try withLibrary { library, directory throws in
            try library.documents.record(Letters.all)
            try Archive.file(library, LibraryPrivacyTests.letter)
            let target = directory.appendingPathComponent("kopi.sqlite")
            #expect(try library.backup(to: target) == 8)
            #expect(try posixMode(target) == 0o600)
            #expect(!FileManager.default.fileExists(atPath: target.path + "-wal"), "one self-contained file")

            let copy = try Database(url: target)
            #expect(try copy.rows("PRAGMA integrity_check").first?[0].string == "ok")
            #expect(try copy.firstRow("SELECT count(*) FROM documents")?[0].int == 8)
            #expect(try copy.firstRow("SELECT count(*) FROM document_files")?[0].int == 2)
            #expect(try copy.firstRow("SELECT count(*) FROM documents_fts WHERE documents_fts MATCH 'hemoglobin'")?[0].int == 1)
            #expect(try copy.firstRow("SELECT count(*) FROM filing_intents")?[0].int == 0)
            // The copy's sealed numbers belong to this library's key: a library opened on it reveals them.
            let restoredFolder = directory.appendingPathComponent("gjenopprettet")
            try FileManager.default.createDirectory(at: restoredFolder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: target, to: restoredFolder.appendingPathComponent(Database.fileName))
            let key = try Data(contentsOf: library.location.directory.appendingPathComponent(LibraryKey.fileName))
            let restored = try Library.open(LibraryLocation(directory: restoredFolder),
                                            environment: ["ARKIVATOR_KEY": key.base64EncodedString()])
            #expect(try restored.documents.document(LibraryPrivacyTests.letter.shortID, revealNumbers: true).text
                    == LibraryPrivacyTests.letter.text)
            #expect(try restored.documents.count() == 8)
        }
    }

    @Test func backupNeverReplacesAFile() throws {
        try withLibrary { library, directory throws in
            try library.documents.record([Letters.epikrise])
            let target = directory.appendingPathComponent("finnes.sqlite")
            try Data("mitt eget".utf8).write(to: target)
            #expect(failureCode { _ = try library.backup(to: target) } == .targetExists)
            #expect(try Data(contentsOf: target) == Data("mitt eget".utf8))
            #expect(try library.backup(to: directory.appendingPathComponent("ny.sqlite")) == 1)
        }
    }

    // MARK: Reindex

    @Test func reindexAnEmptyLibrary() throws {
        try withLibrary { library, _ throws in
            let report = try library.reindex()
            #expect(report.documents == 0 && report.terms == 0 && report.missingFiles.isEmpty)
        }
    }

    @Test
    func reindexRebuildsSearch() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let filed = try Archive.file(library, LibraryPrivacyTests.letter)
            let gone = try #require(filed.files.first { $0.kind == .image })
            try FileManager.default.removeItem(at: gone.url)
            let trashed = try Archive.file(library, Letters.letter("slettet", "Brev om menisk", type: .annet, person: "Ola",
                                                                   institution: nil, date: "2020-02-02", text: "Menisk."))
            _ = try library.documents.delete(trashed.shortID)

            let database = try Database.open(library: library.location)
            try database.execute("INSERT INTO documents_fts(documents_fts) VALUES('delete-all')")
            try database.execute("DELETE FROM vocabulary")
            try database.execute("INSERT INTO vocabulary_trigram(vocabulary_trigram) VALUES('delete-all')")
            #expect(try library.index.search("hemoglobin").hits.isEmpty, "the index is empty now")

            let report = try library.reindex()
            #expect(report.documents == 8, "the trash is not indexed")
            #expect(report.terms > 20)
            #expect(report.missingFiles == [gone.path])
            #expect(try library.index.search("hemoglobin").hits.map(\.id) == [Letters.labSvar.shortID])
            #expect(try library.index.search("prøvesvar").hits.map(\.id) == [Letters.labSvar.shortID])
            #expect(try library.index.search("artroskopi").hits.map(\.id) == [LibraryPrivacyTests.letter.shortID])
            #expect(try library.index.search("menisk").hits.isEmpty)
            #expect(try database.rows("PRAGMA integrity_check").first?[0].string == "ok")
            for suffix in ["", "-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: library.databaseURL.path + suffix))) ?? Data()
                for number in LibraryPrivacyTests.forbidden { #expect(!bytes.contains(number)) }
            }
        }
    }

    // MARK: Export

    @Test func exportWritesJSONAndFiles() throws {
        try withLibrary { library, directory throws in
            try library.documents.record([Letters.labSvar, Letters.kommune])
            let filed = try Archive.file(library, LibraryPrivacyTests.letter)
            let trashed = try Archive.file(library, Letters.henvisning)
            _ = try library.documents.delete(trashed.shortID)
            let folder = directory.appendingPathComponent("eksport")

            let report = try library.export(to: folder)
            #expect(report.documents == 3)
            #expect(report.files == 2)
            #expect(report.missingFiles.isEmpty)
            #expect(try posixMode(folder) == 0o700)
            let json = try Data(contentsOf: folder.appendingPathComponent("arkivator-eksport.json"))
            let exported = try JSONDecoder().decode([LibraryDocument].self, from: json)
            #expect(exported.map(\.shortID) == [Letters.kommune.shortID, Letters.labSvar.shortID,
                                                 LibraryPrivacyTests.letter.shortID], "oldest letter first, no trash")
            let letter = try #require(exported.last)
            #expect(letter.text == LibraryPrivacyTests.masked, "numbers masked unless asked")
            #expect(letter.title == LibraryPrivacyTests.letter.title)
            #expect(letter.docType == .epikrise)
            #expect(Set(letter.files.map(\.path)) == ["Kari/Dokumenter/\(letter.title).docx", "Kari/Bilder/\(letter.title).jpeg"])
            for (copy, original) in zip(letter.files, filed.files) {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(copy.path))
                // The .docx is written from the masked text; the image is copied.
                #expect((bytes == (try Data(contentsOf: original.url))) == (copy.kind == .image), "\(copy.path)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Ola").path), "trash not exported")

            // Asked for: the numbers as in the letter, every file as it is.
            let whole = directory.appendingPathComponent("eksport-med-numre")
            _ = try library.export(to: whole, withNumbers: true)
            let revealed = try JSONDecoder().decode([LibraryDocument].self,
                                                    from: try Data(contentsOf: whole.appendingPathComponent("arkivator-eksport.json")))
            let same = try #require(revealed.last)
            #expect(same.text == LibraryPrivacyTests.letter.text, "numbers as in the letter")
            for (copy, original) in zip(same.files, filed.files) {
                #expect(try Data(contentsOf: whole.appendingPathComponent(copy.path)) == Data(contentsOf: original.url))
            }
        }
    }

    @Test func exportRefusesAFolderInUse() throws {
        try withLibrary { library, directory throws in
            let filed = try Archive.file(library, Letters.innkalling)
            let busy = directory.appendingPathComponent("opptatt")
            try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: busy.appendingPathComponent("notat.txt"))
            #expect(failureCode { _ = try library.export(to: busy) } == .targetExists)
            #expect(try FileManager.default.contentsOfDirectory(atPath: busy.path) == ["notat.txt"])

            let empty = directory.appendingPathComponent("tom")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let missing = try #require(filed.files.first { $0.kind == .image })
            try FileManager.default.removeItem(at: missing.url)
            let report = try library.export(to: empty)
            #expect(report.documents == 1 && report.files == 1)
            #expect(report.missingFiles == [missing.path])
        }
    }
}
