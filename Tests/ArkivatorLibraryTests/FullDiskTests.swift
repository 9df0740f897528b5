import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// A full disk is told as a full disk, wherever it fills: the one mapping from `errno`, reached
/// by the errors Foundation throws as well as by the project's own system calls.
@Suite struct FullDiskTests {
    @Test func foundationErrorsAreToldByTheirErrno() {
        let full = CocoaError(.fileWriteOutOfSpace, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EDQUOT))])
        #expect(AtomicFileError(full, operation: "write", path: "/b/Originaler/1.jpg").kind == .diskFull)
        #expect(AtomicFileError(CocoaError(.fileWriteOutOfSpace), operation: "write", path: "/b/1.jpg").kind == .diskFull)
        #expect(AtomicFileError(POSIXError(.ENOSPC), operation: "write", path: "/b/1.jpg").kind == .diskFull)
        #expect(AtomicFileError(NSError(domain: NSPOSIXErrorDomain, code: Int(EIO)), operation: "write", path: "/b/1.jpg").kind == .io)
        #expect(AtomicFileError(CocoaError(.fileReadUnknown), operation: "write", path: "/b/1.jpg").kind == .io)
        #expect(AtomicFileError.isDiskFull(errno: ENOSPC) && AtomicFileError.isDiskFull(errno: EDQUOT) && !AtomicFileError.isDiskFull(errno: EIO))
    }

    /// The photo as taken is copied into `Originaler/` on a disk that is full: «Disken er full»
    /// with what to do, never «Disken svarte ikke», and nothing is left of the document.
    @Test(.enabled(if: SmallDisk.available, "needs root and a working mount (tmpfs)"))
    func keepingThePhotoOnAFullDiskSaysTheDiskIsFull() throws {
        try withLibrary { library, directory in
            let photo = directory.appendingPathComponent("IMG_0001.jpg")
            let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try Data(bytes).write(to: photo)
            try SmallDisk.with(kilobytes: 256, at: library.documents.originalsRoot) { _ in
                let original = ReceivedOriginal(name: "IMG_0001.jpg", format: "jpeg", file: photo, sha256: try Self.sha256(photo))
                var caught: (any Error)?
                do {
                    _ = try library.documents.file(LibraryRecropTests.document(), originals: [original]) {
                        try Archive.write(Archive.urls(root: Archive.root(library), person: nil,
                                                       title: "2025-03-11 Innkalling fra helsestasjonen"), $0)
                    }
                } catch {
                    caught = error
                }
                let failure = try #require(caught as? AtomicFileError, "\(String(describing: caught))")
                #expect(failure.kind == .diskFull && failure.errorCode == "diskFull")
                #expect(failure.userMessage.norwegian.hasPrefix("Disken er full"), "\(failure.userMessage.norwegian)")
                #expect(failure.userMessage.norwegian.contains("Frigjør plass"))
                #expect(!failure.userMessage.norwegian.contains("svarte ikke"))
                #expect(try library.documents.list(DocumentFilter(), limit: 10).isEmpty)
            }
        }
    }

    /// The library's database on a disk that fills: SQLite's failure says the disk is full, with
    /// what to do, whichever of its codes (`SQLITE_FULL`, or an I/O error over `ENOSPC`) it gave.
    @Test(.enabled(if: SmallDisk.available, "needs root and a working mount (tmpfs)"))
    func aDatabaseOnAFullDiskSaysTheDiskIsFull() throws {
        try SmallDisk.with(kilobytes: 2048) { disk in
            let library = try Library.open(LibraryLocation(directory: disk.appendingPathComponent("bibliotek")), environment: [:])
            SmallDisk.fill(disk)
            var caught: (any Error)?
            do {
                for number in 0..<200 {
                    var document = LibraryRecropTests.document(title: "2025-03-11 Brev \(number)")
                    document.sha256 = String(format: "%064x", number + 1)
                    document.text = String(repeating: "Innkalling til time ved poliklinikken \(number). ", count: 400)
                    _ = try library.documents.file(document) { _ in [] }
                }
            } catch {
                caught = error
            }
            let failure = try #require(caught as? any UserFacingError, "\(String(describing: caught))")
            #expect(failure.errorCode == "diskFull", "\(failure)")
            #expect(failure.userMessage.norwegian.contains("Disken er full") && failure.userMessage.norwegian.contains("Frigjør plass"),
                    "\(failure.userMessage.norwegian)")
        }
    }

    /// The file's SHA-256 as `sha256sum` prints it.
    static func sha256(_ url: URL) throws -> String {
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }
}
