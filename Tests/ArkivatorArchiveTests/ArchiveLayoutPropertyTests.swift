import ArkivatorCore
@testable import ArkivatorArchive
import Foundation
import PropertyBased
import Testing
import TestSupport

/// Hostile titles and person names written through ``ArchiveLayout/write(_:person:title:)``
/// into a fresh archive: everything lands inside it, names are short and NFC, nothing that was
/// there is replaced, and the same title twice makes two documents.
@Suite struct ArchiveLayoutPropertyTests {
    @Test func hostileNamesNeverEscapeOrOverwrite() async {
        await propertyCheck(count: 150,
                            input: Gen.int(in: 0...10_000).array(of: 0...12), Gen.int(in: 0...10_000).array(of: 0...6),
                            Gen.int(in: 0...3), Gen.int(in: 0...7)) { titleIndexes, personIndexes, pageCount, shape in
            let title = Hostile.string(titleIndexes)
            let person: String? = shape & 4 == 0 && personIndexes.isEmpty ? nil : Hostile.string(personIndexes)
            let withDocx = shape & 1 == 1
            let withPDF = shape & 2 == 2
            guard withDocx || withPDF || pageCount > 0 else { return }
            do {
                try withTemporaryDirectory { folder in
                    try Self.check(folder: folder, title: title, person: person, pageCount: pageCount,
                                   withDocx: withDocx, withPDF: withPDF)
                }
            } catch {
                Issue.record("write failed for title \(title.debugDescription), person \(String(describing: person?.debugDescription)): \(error)")
            }
        }
    }

    static func files(seed: UInt8, withDocx: Bool, pages: Int, pdf: URL?) -> ArchiveFiles {
        ArchiveFiles(docx: withDocx ? [seed, 0xD0] : nil,
                     images: (0..<pages).map { [seed, UInt8($0)] }, pdf: pdf)
    }

    static func check(folder: URL, title: String, person: String?, pageCount: Int,
                      withDocx: Bool, withPDF: Bool) throws {
        let root = folder.appendingPathComponent("arkiv")
        let layout = ArchiveLayout(root: root)

        // Someone's file already holds the document's first name.
        let plan = layout.plan(person: person, title: title, pageCount: pageCount)
        let squatted = withDocx ? plan.docx : (pageCount > 0 ? plan.images[0] : plan.pdf)
        try FileManager.default.createDirectory(at: squatted.deletingLastPathComponent(), withIntermediateDirectories: true)
        let theirs = Array("someone else's file".utf8)
        try Data(theirs).write(to: squatted)

        func pdfTemporary(_ byte: UInt8) throws -> URL? {
            guard withPDF else { return nil }
            let url = try layout.temporaryURL(person: person, for: .pdf)
            try Data([byte, 0xFD]).write(to: url)
            return url
        }
        let first = try layout.write(files(seed: 1, withDocx: withDocx, pages: pageCount, pdf: try pdfTemporary(1)),
                                     person: person, title: title)
        let second = try layout.write(files(seed: 2, withDocx: withDocx, pages: pageCount, pdf: try pdfTemporary(2)),
                                      person: person, title: title)

        // Nothing replaced; the document moved on to a suffix, the same for all its files.
        #expect(LayoutFS.readBytes(squatted) == theirs)
        #expect(first.copy == 2 && second.copy == 3)
        for document in [first, second] {
            #expect(document.files.allSatisfy { $0.lastPathComponent.hasPrefix(document.name) })
            #expect(document.name.hasSuffix(" (\(document.copy))"))
        }
        // Two distinct documents, each with its own bytes.
        #expect(Set(first.files).isDisjoint(with: second.files))
        #expect(first.files.count == second.files.count)
        for (document, seed) in [(first, UInt8(1)), (second, UInt8(2))] {
            #expect(document.files.allSatisfy { LayoutFS.readBytes($0)?.first == seed })
            #expect(document.images.count == pageCount)
            #expect((document.docx != nil) == withDocx && (document.pdf != nil) == withPDF)
        }

        // Every file inside the root (real paths), with short NFC names; nothing else anywhere.
        let realRoot = LayoutFS.resolved(root) + "/"
        let expected = Set([squatted] + first.files + second.files).map { LayoutFS.resolved($0) }
        for file in first.files + second.files {
            let real = LayoutFS.resolved(file)
            #expect(real.utf8.starts(with: realRoot.utf8), "\(real)")
            #expect(layout.contains(file))
            let relative = String(decoding: real.utf8.dropFirst(realRoot.utf8.count), as: UTF8.self)
                .split(separator: "/", omittingEmptySubsequences: false)
            #expect(relative.count == 3, "\(relative)")  // Person/Folder/file
            for component in relative {
                #expect(!component.isEmpty && component != "." && component != "..")
                #expect(component.utf8.count <= 255)
                #expect(Array(component.unicodeScalars) == Array(String(component).precomposedStringWithCanonicalMapping.unicodeScalars))
                #expect(!component.unicodeScalars.contains { $0.value < 0x20 || $0 == "\\" })
            }
        }
        let onDisk = LayoutFS.filesBelow(root).map { realRoot + $0 }
        #expect(Set(onDisk) == Set(expected), "\(onDisk)")
        #expect(LayoutFS.filesBelow(folder).allSatisfy { $0.hasPrefix("arkiv/") })
    }
}
