#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArkivatorCore
@testable import ArkivatorArchive
import Foundation
import Testing
import TestSupport

@Suite struct ArchiveLayoutTests {
    let title = "2024-03-01 Innkalling til MR"

    @Test func planForOnePage() {
        let root = URL(fileURLWithPath: "/arkiv")
        let plan = ArchiveLayout(root: root).plan(person: "Kari Nordmann", title: title, pageCount: 1)
        #expect(plan.personFolder.path == "/arkiv/Kari Nordmann")
        #expect(plan.docx.path == "/arkiv/Kari Nordmann/Dokumenter/2024-03-01 Innkalling til MR.docx")
        #expect(plan.images.map(\.path) == ["/arkiv/Kari Nordmann/Bilder/2024-03-01 Innkalling til MR.jpeg"])
        #expect(plan.pdf.path == "/arkiv/Kari Nordmann/Bilder/2024-03-01 Innkalling til MR.pdf")
        #expect(plan.name == title && plan.copy == 1)
    }

    @Test func planForSeveralPagesNumbersEveryPage() {
        let plan = ArchiveLayout(root: URL(fileURLWithPath: "/arkiv")).plan(person: "Ola", title: "Epikrise", pageCount: 3)
        #expect(plan.images.map(\.lastPathComponent) == ["Epikrise - side 1.jpeg", "Epikrise - side 2.jpeg", "Epikrise - side 3.jpeg"])
        let second = ArchiveLayout(root: URL(fileURLWithPath: "/arkiv")).plan(person: "Ola", title: "Epikrise", pageCount: 2, copy: 2)
        #expect(second.images.map(\.lastPathComponent) == ["Epikrise (2) - side 1.jpeg", "Epikrise (2) - side 2.jpeg"])
        #expect(second.docx.lastPathComponent == "Epikrise (2).docx")
        #expect(second.pdf.lastPathComponent == "Epikrise (2).pdf")
    }

    @Test func unknownPersonFolder() {
        let layout = ArchiveLayout(root: URL(fileURLWithPath: "/arkiv"))
        for person in [nil, "", "   ", "/", "..", "../", "\0", "..."] as [String?] {
            #expect(layout.personFolderName(person) == "Ukjent person", "\(String(describing: person))")
        }
        #expect(layout.personFolderName("../../etc") == "etc")
        #expect(layout.personFolderName("CON") == "CON_")
        #expect(layout.personFolderName("Kari\tNordmann") == "Kari Nordmann")
    }

    @Test func hostileTitlesStayInTheirFolder() {
        let layout = ArchiveLayout(root: URL(fileURLWithPath: "/arkiv"))
        for bad in ["../../../etc/passwd", "..", "/", "a/../../b", "\0", String(repeating: "../", count: 200)] {
            let plan = layout.plan(person: "../..", title: bad, pageCount: 2)
            for url in plan.files {
                #expect(url.path.hasPrefix("/arkiv/Ukjent person/"), "\(url.path)")
                #expect(url.pathComponents.count == 5)
                #expect(!url.pathComponents.contains(".."))
                #expect(layout.contains(url) || !FileManager.default.fileExists(atPath: "/arkiv"))
            }
        }
    }

    @Test func longTitlesLeaveRoomForTailAndSuffix() {
        let layout = ArchiveLayout(root: URL(fileURLWithPath: "/arkiv"))
        let long = String(repeating: "ø", count: 400)
        let plan = layout.plan(person: nil, title: long, pageCount: 12_345, copy: ArchiveLayout.maximumCopy)
        for url in plan.files { #expect(url.lastPathComponent.utf8.count <= 255) }
        #expect(plan.images.last?.lastPathComponent.hasSuffix(" (9999) - side 12345.jpeg") == true)
    }

    @Test func writesEveryFileAndReturnsTheirPlaces() throws {
        try withTemporaryDirectory { folder in
            let root = folder.appendingPathComponent("Arkiv")
            let layout = ArchiveLayout(root: root)
            let pdfTemporary = try layout.temporaryURL(person: "Kari", for: .pdf)
            try Data("%PDF".utf8).write(to: pdfTemporary)
            let written = try layout.write(ArchiveFiles(docx: [1, 2], images: [[3], [4]], pdf: pdfTemporary),
                                           person: "Kari", title: title)
            #expect(written.copy == 1 && written.name == title)
            #expect(written.docx?.path == root.path + "/Kari/Dokumenter/\(title).docx")
            #expect(written.images.map(\.lastPathComponent) == ["\(title) - side 1.jpeg", "\(title) - side 2.jpeg"])
            #expect(written.pdf?.path == root.path + "/Kari/Bilder/\(title).pdf")
            #expect(LayoutFS.readBytes(written.docx!) == [1, 2])
            #expect(written.images.map { LayoutFS.readBytes($0) } == [[3], [4]])
            #expect(LayoutFS.readBytes(written.pdf!) == Array("%PDF".utf8))
            #expect(LayoutFS.filesBelow(root).count == 4)  // no temporary file left
            for file in written.files { #expect(LayoutFS.permissions(file) == 0o600) }
            #expect(LayoutFS.permissions(root) == 0o700)
            #expect(LayoutFS.permissions(root.appendingPathComponent("Kari")) == 0o700)
        }
    }

    @Test func onlyWhatIsGivenIsWritten() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            let written = try layout.write(ArchiveFiles(images: [[1]]), person: nil, title: "Resept")
            #expect(written.docx == nil && written.pdf == nil)
            #expect(written.images.map(\.lastPathComponent) == ["Resept.jpeg"])
            #expect(LayoutFS.filesBelow(folder) == ["Ukjent person/Bilder/Resept.jpeg"])
            #expect(throws: ArchiveLayoutError.self) { try layout.write(ArchiveFiles(), person: nil, title: "x") }
        }
    }

    @Test func sameTitleTwiceGivesTwoDocuments() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            let files = ArchiveFiles(docx: [1], images: [[2], [3]])
            let first = try layout.write(files, person: "Ola", title: "Vedtak")
            let second = try layout.write(ArchiveFiles(docx: [9], images: [[8], [7]]), person: "Ola", title: "Vedtak")
            let third = try layout.write(files, person: "Ola", title: "Vedtak")
            #expect([first.copy, second.copy, third.copy] == [1, 2, 3] as [Int])
            #expect(second.docx?.lastPathComponent == "Vedtak (2).docx")
            #expect(second.images.map(\.lastPathComponent) == ["Vedtak (2) - side 1.jpeg", "Vedtak (2) - side 2.jpeg"])
            #expect(LayoutFS.readBytes(first.docx!) == [1])
            #expect(LayoutFS.readBytes(second.docx!) == [9])
            #expect(LayoutFS.filesBelow(folder).count == 9)
        }
    }

    @Test func anyTakenNameMovesTheWholeDocument() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            // Only the PDF name is taken, by a file someone put there.
            let images = folder.appendingPathComponent("Ola/Bilder")
            try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: images.appendingPathComponent("Lab-svar.pdf"))
            let pdf = try layout.temporaryURL(person: "Ola", for: .pdf)
            try Data([1]).write(to: pdf)
            let written = try layout.write(ArchiveFiles(docx: [2], images: [[3]], pdf: pdf), person: "Ola", title: "Lab-svar")
            #expect(written.copy == 2)
            #expect(written.files.map(\.lastPathComponent) == ["Lab-svar (2).docx", "Lab-svar (2).jpeg", "Lab-svar (2).pdf"])
            #expect(LayoutFS.readBytes(images.appendingPathComponent("Lab-svar.pdf")) == Array("mine".utf8))
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/Ola/Dokumenter/Lab-svar.docx"))
            // A one-page name blocks a later several-page document too, and the other way round.
            let many = try layout.write(ArchiveFiles(images: [[1], [2]]), person: "Ola", title: "Lab-svar")
            #expect(many.copy == 3)
        }
    }

    @Test func failureMidwayRemovesWhatWasPublished() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            let missingPDF = folder.appendingPathComponent("Kari/Bilder/.arkivator-missing.tmp")
            let docx = try layout.temporaryURL(person: "Kari", for: .docx)
            try Data([1]).write(to: docx)
            var caught: (any Error)?
            do {
                _ = try layout.write(ArchiveFiles(docxFile: docx, images: [[1], [2]], pdf: missingPDF),
                                     person: "Kari", title: "Henvisning")
            } catch { caught = error }
            #expect((caught as? AtomicFileError)?.kind == .notFound)
            #expect(LayoutFS.filesBelow(folder).isEmpty, "\(LayoutFS.filesBelow(folder))")
        }
    }

    @Test func failureWhilePublishingTakesBackEarlierFiles() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            let pdf = try layout.temporaryURL(person: "Kari", for: .pdf)
            try Data([9]).write(to: pdf)
            // The disk fills up just as the PDF (the last file) is published.
            var caught: (any Error)?
            do {
                _ = try layout.write(ArchiveFiles(docx: [1], images: [[2], [3]], pdf: pdf), person: "Kari", title: "Brev",
                                     beforePublishing: { target throws(AtomicFileError) in
                                         if target.pathExtension == "pdf" { throw AtomicFileError(errno: ENOSPC, operation: "link", path: target.path) }
                                     })
            } catch { caught = error }
            #expect((caught as? AtomicFileError)?.kind == .diskFull)
            #expect((caught as? AtomicFileError)?.userMessage.norwegian.hasPrefix("Disken er full") == true)
            #expect(LayoutFS.filesBelow(folder).isEmpty, "\(LayoutFS.filesBelow(folder))")
        }
    }

    @Test func lostRaceMovesTheWholeDocumentToTheNextName() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            let pdf = try layout.temporaryURL(person: "Ola", for: .pdf)
            try Data([9]).write(to: pdf)
            let docx = try layout.temporaryURL(person: "Ola", for: .docx)
            try Data([8]).write(to: docx)
            // Another writer creates "Brev.pdf" after the names were checked, just before ours.
            let written = try layout.write(
                ArchiveFiles(docxFile: docx, images: [[1], [2]], pdf: pdf), person: "Ola", title: "Brev",
                beforePublishing: { target throws(AtomicFileError) in
                    if target.lastPathComponent == "Brev.pdf" { try AtomicFile.write(Array("andre".utf8), to: target) }
                })
            #expect(written.copy == 2)
            #expect(written.files.map(\.lastPathComponent) == ["Brev (2).docx", "Brev (2) - side 1.jpeg", "Brev (2) - side 2.jpeg", "Brev (2).pdf"])
            #expect(written.files.map { LayoutFS.readBytes($0) } == [[8], [1], [2], [9]])
            #expect(LayoutFS.readBytes(folder.appendingPathComponent("Ola/Bilder/Brev.pdf")) == Array("andre".utf8))
            #expect(LayoutFS.filesBelow(folder) == [
                "Ola/Bilder/Brev (2) - side 1.jpeg", "Ola/Bilder/Brev (2) - side 2.jpeg", "Ola/Bilder/Brev (2).pdf",
                "Ola/Bilder/Brev.pdf", "Ola/Dokumenter/Brev (2).docx",
            ])
        }
    }

    @Test func givenTemporaryFilesAreConsumed() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder.appendingPathComponent("arkiv"))
            // One beside the target, one elsewhere on the same disk.
            let docx = try layout.temporaryURL(person: nil, for: .docx)
            try Data([1]).write(to: docx)
            let pdf = folder.appendingPathComponent("render.pdf")
            try Data([2]).write(to: pdf)
            let written = try layout.write(ArchiveFiles(docxFile: docx, pdf: pdf), person: nil, title: "Resept")
            #expect(!FileManager.default.fileExists(atPath: docx.path))
            #expect(!FileManager.default.fileExists(atPath: pdf.path))
            #expect(LayoutFS.readBytes(written.docx!) == [1])
            #expect(LayoutFS.readBytes(written.pdf!) == [2])
            #expect(LayoutFS.filesBelow(folder) == ["arkiv/Ukjent person/Bilder/Resept.pdf", "arkiv/Ukjent person/Dokumenter/Resept.docx"])
        }
    }

    @Test func temporaryFileOnAnotherDisk() throws {
        try withTemporaryDirectory { folder in
            let shm = URL(fileURLWithPath: "/dev/shm/arkivator-test-\(UUID().uuidString).pdf")
            guard FileManager.default.createFile(atPath: shm.path, contents: Data([7])) else { return }
            defer { try? FileManager.default.removeItem(at: shm) }
            let layout = ArchiveLayout(root: folder)
            // Taken name: the document moves on to (2), and the PDF still arrives.
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("Ola/Bilder"), withIntermediateDirectories: true)
            try Data().write(to: folder.appendingPathComponent("Ola/Bilder/Epikrise.pdf"))
            let written = try layout.write(ArchiveFiles(pdf: shm), person: "Ola", title: "Epikrise")
            #expect(written.copy == 2)
            #expect(LayoutFS.readBytes(written.pdf!) == [7])
            #expect(!FileManager.default.fileExists(atPath: shm.path))
            #expect(LayoutFS.filesBelow(folder) == ["Ola/Bilder/Epikrise (2).pdf", "Ola/Bilder/Epikrise.pdf"])
        }
    }

    @Test func symlinkOutOfTheArchiveIsRefused() throws {
        try withTemporaryDirectory { folder in
            let root = folder.appendingPathComponent("arkiv")
            let outside = folder.appendingPathComponent("utenfor")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("Kari"), withDestinationURL: outside)
            let layout = ArchiveLayout(root: root)
            var caught: (any Error)?
            do { _ = try layout.write(ArchiveFiles(docx: [1], images: [[2]]), person: "Kari", title: "Brev") } catch { caught = error }
            #expect((caught as? ArchiveLayoutError)?.kind == .outsideArchive)
            #expect((caught as? ArchiveLayoutError)?.userMessage.norwegian.contains("arkivmappen") == true)
            #expect(LayoutFS.filesBelow(outside).isEmpty)
            #expect(!layout.contains(root.appendingPathComponent("Kari/Dokumenter/Brev.docx")))
            // A symlinked file name inside the person's folder is not followed either.
            let ola = root.appendingPathComponent("Ola/Dokumenter")
            try FileManager.default.createDirectory(at: ola, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: ola.appendingPathComponent("Brev.docx"),
                                                       withDestinationURL: outside.appendingPathComponent("stjålet.docx"))
            let written = try layout.write(ArchiveFiles(docx: [1]), person: "Ola", title: "Brev")
            #expect(written.copy == 2)
            #expect(LayoutFS.filesBelow(outside).isEmpty)
        }
    }

    @Test func rootBehindASymlinkIsFine() throws {
        try withTemporaryDirectory { folder in
            let real = folder.appendingPathComponent("ekte")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
            let link = folder.appendingPathComponent("lenke")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            let written = try ArchiveLayout(root: link).write(ArchiveFiles(docx: [1]), person: "Kari", title: "Brev")
            #expect(written.docx?.path == link.path + "/Kari/Dokumenter/Brev.docx")
            #expect(LayoutFS.filesBelow(real) == ["Kari/Dokumenter/Brev.docx"])
        }
    }

    @Test func concurrentWritersOfOneTitleGetDistinctDocuments() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            let results = ConcurrentResults()
            DispatchQueue.concurrentPerform(iterations: 12) { index in
                do {
                    let written = try layout.write(ArchiveFiles(docx: [UInt8(index)], images: [[UInt8(index)], [UInt8(index)]]),
                                                   person: "Kari", title: "Innkalling")
                    results.add(.success(written))
                } catch {
                    results.add(.failure(error))
                }
            }
            let written = results.values.compactMap { try? $0.get() }
            #expect(written.count == 12, "\(results.values)")
            #expect(Set(written.map(\.copy)) == Set(1...12))
            for document in written {
                // Every file of a document holds that document's bytes: nothing was mixed or replaced.
                let docx = LayoutFS.readBytes(document.docx!)
                #expect(docx?.count == 1)
                #expect(document.images.allSatisfy { LayoutFS.readBytes($0) == docx })
            }
            #expect(LayoutFS.filesBelow(folder).count == 36)
        }
    }

    @Test(.enabled(if: !LayoutFS.runningAsRoot, "root may write to read-only folders"))
    func readOnlyArchiveFailsClearlyAndLeavesNothing() throws {
        try withTemporaryDirectory { folder in
            let layout = ArchiveLayout(root: folder)
            _ = try layout.write(ArchiveFiles(docx: [1]), person: "Kari", title: "Første")
            let images = folder.appendingPathComponent("Kari/Bilder")
            try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
            chmod(images.path, 0o500)
            defer { chmod(images.path, 0o700) }
            var caught: (any Error)?
            do { _ = try layout.write(ArchiveFiles(docx: [2], images: [[3]]), person: "Kari", title: "Andre") } catch { caught = error }
            #expect((caught as? AtomicFileError)?.kind == .permissionDenied)
            #expect(LayoutFS.filesBelow(folder) == ["Kari/Dokumenter/Første.docx"])
        }
    }
}

/// Collects results from concurrent writers.
final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<WrittenArchive, any Error>] = []
    func add(_ result: Result<WrittenArchive, any Error>) { lock.lock(); stored.append(result); lock.unlock() }
    var values: [Result<WrittenArchive, any Error>] { lock.lock(); defer { lock.unlock() }; return stored }
}
