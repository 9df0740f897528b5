import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

@Suite struct LibraryChangesTests {
    static let version = "test-1.0"

    private func hits(_ library: Library, _ text: String) throws -> [String] {
        try library.index.search(text).hits.map(\.id)
    }

    // MARK: Edit

    @Test func newTitleRenamesFilesAndIndex() throws {
        try withLibrary { library, _ throws in
            let before = try Archive.file(library, Letters.epikrise)
            try Archive.file(library, Letters.labSvar)
            let edited = try library.documents.edit(Letters.epikrise.shortID, DocumentChanges(title: "Epikrise kardiologisk avdeling"),
                                          programVersion: Self.version)
            #expect(edited.title == "2023-11-02 Epikrise kardiologisk avdeling")
            let expected = Archive.urls(root: library.defaultArchiveRoot, person: "Ola", title: edited.title)
            #expect(Set(edited.files.map(\.path)) == [expected.docx.path, expected.image.path])
            for file in edited.files { #expect(Archive.exists(file.path)) }
            for file in before.files { #expect(!Archive.exists(file.path)) }
            let docx = try Data(contentsOf: expected.docx)
            #expect(docx.starts(with: Data("PK".utf8)), "the .docx is written again with the new header")
            #expect(try hits(library, "kardiologisk") == [Letters.epikrise.shortID])
            #expect(try hits(library, "hjerteavdelingen").isEmpty)
            #expect(try hits(library, "brystsmerter") == [Letters.epikrise.shortID])
            #expect(try library.documents.document(Letters.epikrise.shortID).text == Letters.epikrise.text)
        }
    }

    @Test func newPersonMovesToTheirFolder() throws {
        try withLibrary { library, _ throws in
            let before = try Archive.file(library, Letters.epikrise)
            let edited = try library.documents.edit(Letters.epikrise.shortID, DocumentChanges(person: " Kari "), programVersion: Self.version)
            #expect(edited.person == "Kari")
            #expect(edited.familyMember == "Kari")
            let expected = Archive.urls(root: library.defaultArchiveRoot, person: "Kari", title: Letters.epikrise.title)
            #expect(Set(edited.files.map(\.path)) == [expected.docx.path, expected.image.path])
            for file in edited.files { #expect(Archive.exists(file.path)) }
            for file in before.files { #expect(!Archive.exists(file.path)) }
            #expect(try library.documents.list(DocumentFilter(person: "kari")).map(\.id) == [Letters.epikrise.shortID])
            #expect(try library.documents.list(DocumentFilter(person: "ola")).isEmpty)

            let nobody = try library.documents.edit(Letters.epikrise.shortID, DocumentChanges(person: ""), programVersion: Self.version)
            #expect(nobody.person == nil && nobody.familyMember == nil)
            #expect(nobody.files.allSatisfy { $0.path.contains("/Ukjent person/") })
            for file in nobody.files { #expect(Archive.exists(file.path)) }
        }
    }

    @Test func dateAndTypeKeepTheTitlePrefix() throws {
        try withLibrary { library, _ throws in
            try Archive.file(library, Letters.epikrise)
            let id = Letters.epikrise.shortID
            var edited = try library.documents.edit(id, DocumentChanges(date: CalendarDate(iso: "2023-11-05")), programVersion: Self.version)
            #expect(edited.documentDate == "2023-11-05")
            #expect(edited.title == "2023-11-05 Epikrise Hjerteavdelingen")
            #expect(edited.files.allSatisfy { $0.url.lastPathComponent.hasPrefix("2023-11-05 Epikrise Hjerteavdelingen") })
            for file in edited.files { #expect(Archive.exists(file.path)) }

            edited = try library.documents.edit(id, DocumentChanges(type: .henvisning), programVersion: Self.version)
            #expect(edited.docType == .henvisning)
            #expect(edited.title == "2023-11-05 Henvisning Hjerteavdelingen")

            edited = try library.documents.edit(id, DocumentChanges(type: DocumentType(name: "LAB-SVAR"), date: CalendarDate(iso: "2023-12-01")), programVersion: Self.version)
            #expect(edited.docType == .labSvar)
            #expect(edited.title == "2023-12-01 Prøvesvar Hjerteavdelingen")
            #expect(try library.documents.list(DocumentFilter(type: .labSvar, from: CalendarDate(iso: "2023-12-01"), to: CalendarDate(iso: "2023-12-01"))).map(\.id) == [id])

            edited = try library.documents.edit(id, DocumentChanges(title: "Kontroll etter innleggelse"), programVersion: Self.version)
            #expect(edited.title == "2023-12-01 Kontroll etter innleggelse", "a title without a date gets the letter's date")
            edited = try library.documents.edit(id, DocumentChanges(title: "2020-01-01 Gammelt brev"), programVersion: Self.version)
            #expect(edited.title == "2020-01-01 Gammelt brev", "a title with its own date keeps it")
            edited = try library.documents.edit(id, DocumentChanges(date: CalendarDate(iso: "2021-02-03")), programVersion: Self.version)
            #expect(edited.title == "2020-01-01 Gammelt brev", "a title not starting with the letter date is left alone")
            #expect(edited.documentDate == "2021-02-03")

            edited = try library.documents.edit(id, DocumentChanges(institution: "Sykehuset Innlandet"), programVersion: Self.version)
            #expect(edited.institution == "Sykehuset Innlandet")
            #expect(try hits(library, "innlandet") == [id])
            edited = try library.documents.edit(id, DocumentChanges(institution: ""), programVersion: Self.version)
            #expect(edited.institution == nil)
            for file in edited.files { #expect(Archive.exists(file.path)) }
        }
    }

    @Test func badChangesAreRefused() throws {
        try withLibrary { library, _ throws in
            let before = try Archive.file(library, Letters.resept)
            let id = Letters.resept.shortID
            let refused: [(DocumentChanges, LibraryFailure.Code)] = [
                (DocumentChanges(), .nothingToChange),
                (DocumentChanges(title: "  \n "), .badTitle),
            ]
            for (changes, code) in refused {
                #expect(failureCode { try library.documents.edit(id, changes, programVersion: Self.version) } == code, "\(changes)")
            }
            #expect(failureCode { try library.documents.edit("ffffffff", DocumentChanges(title: "x"), programVersion: Self.version) } == .notFound)
            let after = try library.documents.document(id)
            #expect(after.title == before.title && after.files == before.files && after.documentDate == before.documentDate)
            for file in before.files { #expect(Archive.exists(file.path)) }
        }
    }

    @Test func aTakenNameGetsASuffix() throws {
        try withLibrary { library, _ throws in
            var first = Letters.resept
            first.title = "2023-06-05 Resept"
            let taken = try Archive.file(library, first)
            let original = try taken.files.map { try Data(contentsOf: $0.url) }
            try Archive.file(library, Letters.innkalling)
            let edited = try library.documents.edit(Letters.innkalling.shortID,
                                          DocumentChanges(title: "Resept", person: "Kari", date: CalendarDate(iso: "2023-06-05")),
                                          programVersion: Self.version)
            #expect(edited.title == "2023-06-05 Resept")
            #expect(edited.files.map { $0.url.deletingPathExtension().lastPathComponent } == ["2023-06-05 Resept (2)",
                                                                                              "2023-06-05 Resept (2)"])
            #expect(try taken.files.map { try Data(contentsOf: $0.url) } == original, "nothing replaced")
        }
    }

    // MARK: Trash

    /// A library with the seven letters recorded and one letter filed with files; returns the filed one.
    private func libraryWithFiledLetter(_ library: Library) throws -> LibraryDocument {
        try library.documents.record(Letters.all)
        return try Archive.file(library, Letters.letter("kontroll", "Innkalling til kontroll", type: .innkalling,
                                                        person: "Kari", institution: "St. Olavs hospital",
                                                        date: "2024-05-02", text: "Kontroll av menisk etter artroskopi."))
    }

    @Test func deleteMovesToTheTrash() throws {
        try withLibrary { library, _ throws in
            let filed = try libraryWithFiledLetter(library)
            let id = filed.shortID
            #expect(try hits(library, "menisk") == [id])
            let trashed = try library.documents.delete(id)
            #expect(trashed.trashedAt != nil)
            for file in filed.files { #expect(!Archive.exists(file.path)) }
            for file in trashed.files {
                #expect(file.path.hasPrefix(library.trashRoot.appendingPathComponent(id).path + "/"))
                #expect(Archive.exists(file.path))
            }
            #expect(library.trashRoot.path == library.location.directory.appendingPathComponent("Papirkurv").path)
            #expect(try hits(library, "menisk").isEmpty)
                        #expect(try library.index.search("menisk", filter: DocumentFilter(trashed: true)).hits.isEmpty)
            #expect(try !library.documents.list().contains { $0.id == id })
            #expect(try library.documents.list(DocumentFilter(trashed: true)).map(\.id) == [id])
            #expect(try library.documents.list(DocumentFilter(trashed: true)).first?.trashedAt == trashed.trashedAt)
            #expect(try library.documents.count() == Letters.all.count)
            #expect(try library.documents.delete(id).trashedAt == trashed.trashedAt, "deleting twice changes nothing")
            #expect(try library.documents.emptyTrash() == 0, "not 30 days old")
            #expect(failureCode { _ = try library.documents.restore(Letters.resept.shortID) } == .notInTrash)
        }
    }

    @Test
    func restoreBringsItBack() throws {
        try withLibrary { library, _ throws in
            let filed = try libraryWithFiledLetter(library)
            let id = filed.shortID
            _ = try library.documents.delete(id)
            let restored = try library.documents.restore(id)
            #expect(restored.trashedAt == nil)
            #expect(restored.files == filed.files)
            for file in filed.files { #expect(Archive.exists(file.path)) }
            #expect(!Archive.exists(library.trashRoot.appendingPathComponent(id)))
            #expect(try hits(library, "menisk") == [id])
            #expect(try library.documents.list(DocumentFilter(trashed: true)).isEmpty)
            #expect(failureCode { _ = try library.documents.restore(id) } == .notInTrash)
        }
    }

    @Test
    func restoreWithoutARecordOfTheOldPlaceFilesUnderTheDefaultArchive() throws {
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            let library = try Library.open(location, environment: [:])
            let filed = try libraryWithFiledLetter(library)
            _ = try library.documents.delete(filed.shortID)
            // Another program (or a damaged file) spoiled the record of where the files were.
            try Database.open(library: location).execute("UPDATE documents SET trash_origin = 'ikke json'")
            let restored = try library.documents.restore(filed.shortID)
            #expect(restored.trashedAt == nil && restored.files.count == filed.files.count)
            let root = library.defaultArchiveRoot.standardizedFileURL.path + "/"
            for file in restored.files {
                #expect(Archive.exists(file.path) && file.url.standardizedFileURL.path.hasPrefix(root), "\(file.path)")
            }
            #expect(!Archive.exists(library.trashRoot.appendingPathComponent(filed.shortID)), "nothing left in the trash")
        }
    }

    @Test
    func restoreInAFreshlyOpenedLibrary() throws {
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            let filed = try libraryWithFiledLetter(try Library.open(location, environment: [:]))
            _ = try Library.open(location, environment: [:]).documents.delete(filed.shortID)
            // As `arkivator restore` does: a new process, a new Library.
            let library = try Library.open(location, environment: [:])
            let restored = try library.documents.restore(filed.shortID)
            #expect(restored.trashedAt == nil)
            #expect(restored.files == filed.files)
            for file in filed.files { #expect(Archive.exists(file.path)) }
            #expect(try hits(library, "menisk") == [filed.shortID])
        }
    }

    @Test
    func editingATrashedDocumentKeepsItInTheTrash() throws {
        try withLibrary { library, _ throws in
            let filed = try Archive.file(library, Letters.henvisning)
            let trashed = try library.documents.delete(filed.shortID)
            let code = failureCode {
                try library.documents.edit(filed.shortID, DocumentChanges(title: "Henvisning til røntgen"), programVersion: Self.version)
            }
            let after = try library.documents.document(filed.shortID)
            #expect(code != nil || after.trashedAt != nil)
            #expect(try hits(library, "røntgen").isEmpty, "a trashed document stays out of search")
            #expect(after.files.allSatisfy { $0.path.hasPrefix(library.trashRoot.path + "/") }, "\(after.files) \(trashed.files)")
        }
    }

    @Test func purgeRemovesFilesAndRow() throws {
        try withLibrary { library, _ throws in
            let kept = try Archive.file(library, Letters.labSvar)
            let filed = try Archive.file(library, Letters.vedtak)
            _ = try library.documents.delete(filed.shortID, purge: true)
            for file in filed.files { #expect(!Archive.exists(file.path)) }
            #expect(failureCode { _ = try library.documents.document(filed.shortID) } == .notFound)
            #expect(try hits(library, "fysioterapi").isEmpty)
            #expect(try library.documents.count() == 1 && library.documents.count(DocumentFilter(trashed: true)) == 0)

            // A document already in the trash.
            _ = try library.documents.delete(kept.shortID)
            _ = try library.documents.delete(kept.shortID, purge: true)
            #expect(!Archive.exists(library.trashRoot.appendingPathComponent(kept.shortID)))
            #expect(try library.documents.count(DocumentFilter(trashed: true)) == 0)
            #expect(try library.documents.existing(sha256: Letters.labSvar.sha256) == nil)
            try Archive.file(library, Letters.labSvar)  // can come in again
        }
    }

    @Test func emptyTrashPurgesOldDocuments() throws {
        try withLibrary { library, _ throws in
            let filed = try Archive.file(library, Letters.henvisning)
            try Archive.file(library, Letters.innkalling)
            let trashed = try library.documents.delete(filed.shortID)
            // Timestamps have whole seconds: let one pass so "older than now" holds.
            Thread.sleep(forTimeInterval: 1.1)
            #expect(try library.documents.emptyTrash(olderThanDays: 1) == 0)
            #expect(try library.documents.emptyTrash(olderThanDays: 0) == 1)
            for file in trashed.files { #expect(!Archive.exists(file.path)) }
            #expect(failureCode { _ = try library.documents.document(filed.shortID) } == .notFound)
            #expect(try library.documents.list().map(\.id) == [Letters.innkalling.shortID])
        }
    }

    @Test func eraseEverythingLeavesNoLibrary() throws {
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            do {
                let library = try Library.open(location, environment: [:])
                try Archive.file(library, Letters.innkalling)
                try Archive.file(library, Letters.epikrise)
                try library.documents.record([Letters.resept])
                let erased = try library.documents.eraseEverything()
                #expect(erased.documents == 3)
                #expect(erased.files == 4)
            }
            #expect(!FileManager.default.fileExists(atPath: location.directory.path),
                    "left: \((try? FileManager.default.subpathsOfDirectory(atPath: location.directory.path)) ?? [])")
        }
    }

    @Test
    func eraseEverythingAfterADeleteLeavesNoLibrary() throws {
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            do {
                let library = try Library.open(location, environment: [:])
                try Archive.file(library, Letters.innkalling)
                try Archive.file(library, Letters.epikrise)
                try library.documents.record([Letters.resept])
                _ = try library.documents.delete(Letters.epikrise.shortID)
                let erased = try library.documents.eraseEverything()
                #expect(erased.documents == 3)
                #expect(erased.files == 4)
            }
            #expect(!FileManager.default.fileExists(atPath: location.directory.path),
                    "left: \((try? FileManager.default.subpathsOfDirectory(atPath: location.directory.path)) ?? [])")
        }
    }
}
