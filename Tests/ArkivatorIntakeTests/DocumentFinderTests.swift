import ArkivatorCore
@testable import ArkivatorIntake
import Foundation
import TestSupport
import Testing

@Suite struct DocumentFinderTests {
    private func page(_ stem: String) -> String? {
        DocumentFinder.pageNumber(in: stem).map { "\($0.base)#\($0.number)" }
    }

    @Test func pageNumbersInNames() {
        #expect(page("brev_p2") == "brev#2")
        #expect(page("Epikrise-side10") == "Epikrise#10")
        #expect(page("skann_page1") == "skann#1")
        #expect(page("brev side 3") == "brev#3")
        #expect(page("doc-003_p1") == "doc-003#1")
        #expect(page("brev") == nil)
        #expect(page("_p1") == nil)
        #expect(page("rapport-2024") == nil)
    }

    @Test func groupsPagesAndKeepsOtherFilesApart() throws {
        try withTemporaryDirectory { dir in
            for name in ["brev_p2.jpg", "brev_p1.jpg", "brev_p10.jpg", "annet.png", "notat.txt", ".skjult.jpg", "vedtak-side1.tif"] {
                _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([1]))
            }
            let found = DocumentFinder().find([dir.path])
            #expect(found.problems.isEmpty)
            let byName = Dictionary(uniqueKeysWithValues: found.documents.map { ($0.name, $0.pages.map(\.lastPathComponent)) })
            #expect(byName["brev"] == ["brev_p1.jpg", "brev_p2.jpg", "brev_p10.jpg"])
            #expect(byName["annet"] == ["annet.png"])
            #expect(byName["vedtak"] == ["vedtak-side1.tif"])
            #expect(found.documents.count == 3)
        }
    }

    @Test func searchesSubfoldersAndCanTreatThemAsDocuments() throws {
        try withTemporaryDirectory { dir in
            let sub = dir.appendingPathComponent("Brev fra sykehuset")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            for name in ["side 2.jpg", "side 1.jpg"] {
                _ = FileManager.default.createFile(atPath: sub.appendingPathComponent(name).path, contents: Data([1]))
            }
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("los.jpg").path, contents: Data([1]))
            let recursive = DocumentFinder().find([dir.path]).documents
            #expect(recursive.count == 3)
            let asDocuments = DocumentFinder(foldersAreDocuments: true).find([dir.path]).documents
            #expect(asDocuments.count == 2)
            let folder = try #require(asDocuments.first { $0.name == "Brev fra sykehuset" })
            #expect(folder.pages.map(\.lastPathComponent) == ["side 1.jpg", "side 2.jpg"])
        }
    }

    @Test func namedFilesAreAlwaysConsideredAndMissingOnesReported() {
        let found = DocumentFinder().find([Fixtures.url("bad/not-an-image.png").path, "/finnes/ikke.jpg"])
        #expect(found.documents.count == 1)
        #expect(found.problems == [.missing("/finnes/ikke.jpg")])
    }
}

@Suite struct LibraryLocationTests {
    @Test func resolutionOrder() {
        let env = ["ARKIVATOR_LIBRARY": "/a", "XDG_DATA_HOME": "/x", "HOME": "/h"]
        #expect(LibraryLocation.resolve(explicit: "/e", environment: env).directory.path == "/e")
        #expect(LibraryLocation.resolve(explicit: nil, environment: env).directory.path == "/a")
        #expect(LibraryLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).directory.path == "/x/arkivator")
        #expect(LibraryLocation.resolve(explicit: nil, environment: ["HOME": "/h"]).directory.path == "/h/.local/share/arkivator")
    }

    @Test func createdForTheOwnerOnly() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir.appendingPathComponent("bibliotek"))
            try library.prepare()
            let attributes = try FileManager.default.attributesOfItem(atPath: library.directory.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        }
    }

    @Test func languageFollowsLocale() {
        #expect(UILanguage.from(environment: { _ in nil }) == .norwegian)
        #expect(UILanguage.from(environment: { $0 == "LANG" ? "en_GB.UTF-8" : nil }) == .english)
        #expect(UILanguage.from(environment: { $0 == "LANG" ? "nb_NO.UTF-8" : nil }) == .norwegian)
        #expect(UILanguage.from(environment: { $0 == "LC_ALL" ? "C.UTF-8" : ($0 == "LANG" ? "en_US" : nil) }) == .norwegian)
    }
}
