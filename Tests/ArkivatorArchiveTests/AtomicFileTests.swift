#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ArkivatorArchive
import ArkivatorCore
import Foundation
import Testing
import TestSupport

@Suite struct AtomicFileTests {
    /// The thrown error as an ``AtomicFileError``, or nil (with a recorded issue) when none was.
    func atomicError(_ body: () throws -> Void) -> AtomicFileError? {
        do {
            try body()
            Issue.record("expected an error")
            return nil
        } catch let error as AtomicFileError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func writesTheBytesPrivatelyAndLeavesNoTemporaryFile() throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("brev.docx")
            try AtomicFile.write([1, 2, 3], to: target)
            #expect(LayoutFS.readBytes(target) == [1, 2, 3])
            #expect(LayoutFS.permissions(target) == 0o600)
            #expect(LayoutFS.filesBelow(folder) == ["brev.docx"])
        }
    }

    @Test func modeCanBeChosenWhateverTheUmask() throws {
        try withTemporaryDirectory { folder in
            let old = umask(0o077)
            defer { umask(old) }
            let target = folder.appendingPathComponent("delt.jpeg")
            try AtomicFile.write([9], to: target, mode: 0o644)
            #expect(LayoutFS.permissions(target) == 0o644)
        }
    }

    @Test func emptyAndLargeFiles() throws {
        try withTemporaryDirectory { folder in
            try AtomicFile.write([], to: folder.appendingPathComponent("tom"))
            #expect(LayoutFS.readBytes(folder.appendingPathComponent("tom")) == [])
            let big = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try AtomicFile.write(big, to: folder.appendingPathComponent("stor"))
            #expect(LayoutFS.readBytes(folder.appendingPathComponent("stor")) == big)
        }
    }

    @Test func refusesToReplaceAnExistingFile() throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("brev.pdf")
            try AtomicFile.write(Array("original".utf8), to: target)
            let error = atomicError { try AtomicFile.write(Array("ny".utf8), to: target) }
            #expect(error?.kind == .exists)
            #expect(error?.errorCode == "exists")
            #expect(error?.userMessage.norwegian.contains("finnes allerede") == true)
            #expect(LayoutFS.readBytes(target) == Array("original".utf8))
            #expect(LayoutFS.filesBelow(folder) == ["brev.pdf"])
        }
    }

    @Test func refusesToReplaceASymlinkOrFolder() throws {
        try withTemporaryDirectory { folder in
            let outside = folder.appendingPathComponent("outside")
            try AtomicFile.write([7], to: outside)
            let link = folder.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
            #expect(atomicError { try AtomicFile.write([8], to: link) }?.kind == .exists)
            let dangling = folder.appendingPathComponent("dangling")
            try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: folder.path + "/nowhere")
            #expect(atomicError { try AtomicFile.write([8], to: dangling) }?.kind == .exists)
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/nowhere"))
            let sub = folder.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
            #expect(atomicError { try AtomicFile.write([8], to: sub) }?.kind == .exists)
            #expect(LayoutFS.readBytes(outside) == [7])
            #expect(LayoutFS.filesBelow(folder) == ["dangling", "link", "outside"])
        }
    }

    @Test func overwriteReplacesAtomically() throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("brev.docx")
            try AtomicFile.write([1], to: target)
            try AtomicFile.write([2, 2], to: target, overwrite: true)
            #expect(LayoutFS.readBytes(target) == [2, 2])
            #expect(LayoutFS.filesBelow(folder) == ["brev.docx"])
        }
    }

    @Test func failuresLeaveNothingBehind() throws {
        try withTemporaryDirectory { folder in
            // A missing folder.
            let missing = atomicError { try AtomicFile.write([1], to: folder.appendingPathComponent("nei/brev.docx")) }
            #expect(missing?.kind == .notFound)
            // A file where a folder should be.
            let file = folder.appendingPathComponent("fil")
            try AtomicFile.write([1], to: file)
            let notFolder = atomicError { try AtomicFile.write([1], to: file.appendingPathComponent("brev.docx")) }
            #expect(notFolder?.kind == .notADirectory)
            #expect(notFolder?.userMessage.norwegian.contains("ikke en mappe") == true)
            // A name longer than the disk allows.
            let long = atomicError { try AtomicFile.write([1], to: folder.appendingPathComponent(String(repeating: "a", count: 300))) }
            #expect(long?.kind == .nameTooLong)
            #expect(LayoutFS.filesBelow(folder) == ["fil"])
        }
    }

    @Test(.enabled(if: !LayoutFS.runningAsRoot, "root may write to read-only folders"))
    func readOnlyFolderFailsClearly() throws {
        try withTemporaryDirectory { folder in
            let locked = folder.appendingPathComponent("låst")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            chmod(locked.path, 0o500)
            defer { chmod(locked.path, 0o700) }
            let error = atomicError { try AtomicFile.write([1], to: locked.appendingPathComponent("brev.docx")) }
            #expect(error?.kind == .permissionDenied)
            #expect(error?.userMessage.norwegian.hasPrefix("Mangler skrivetilgang") == true)
            #expect(error?.userMessage.english.contains("No permission") == true)
            #expect(LayoutFS.filesBelow(locked).isEmpty)
        }
    }

    /// A full disk (or any failure) while the hidden temporary file is written is told of the
    /// file it was to become; a temporary name that reaches a message anyway shows its folder.
    @Test func messagesNameTheTargetNeverTheTemporaryFile() throws {
        let full = AtomicFileError(errno: ENOSPC, operation: "write", path: "/arkiv/Kari/.arkivator-0123456789abcdef.tmp")
        #expect(full.userMessage.norwegian.hasPrefix("Disken er full, så en fil i /arkiv/Kari kunne ikke lagres"),
                "\(full.userMessage.norwegian)")
        #expect(full.userMessage.english.contains("Free some space on the disk holding /arkiv/Kari"), "\(full.userMessage.english)")
        #expect(!full.userMessage.norwegian.contains(".arkivator-") && !full.userMessage.english.contains(".arkivator-"))
        let named = AtomicFileError(errno: ENOSPC, operation: "write", path: "/arkiv/Kari/brev.docx")
        #expect(named.userMessage.norwegian.hasPrefix("Disken er full, så /arkiv/Kari/brev.docx kunne ikke lagres"))
        // The first write of the temporary file fails (a folder that is gone): the target is named.
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("borte/brev.docx")
            let error = atomicError { try AtomicFile.write([1], to: target) }
            #expect(error?.path == target.path, "\(String(describing: error))")
        }
    }

    @Test func errnoMapsToPlainMessages() {
        let cases: [(Int32, AtomicFileError.Kind, String)] = [
            (ENOSPC, .diskFull, "Disken er full"), (EDQUOT, .diskFull, "Disken er full"),
            (EACCES, .permissionDenied, "Mangler skrivetilgang"), (EPERM, .permissionDenied, "Mangler skrivetilgang"),
            (EROFS, .readOnly, "skrivebeskyttet"), (ENOENT, .notFound, "Fant ikke"), (ENOTDIR, .notADirectory, "ikke en mappe"),
            (ENAMETOOLONG, .nameTooLong, "for langt"), (EIO, .io, "Disken svarte ikke"), (EEXIST, .exists, "finnes allerede"),
            (EBADF, .other, "Kunne ikke skrive"),
        ]
        for (number, kind, words) in cases {
            let error = AtomicFileError(errno: number, operation: "write", path: "/arkiv/brev.docx")
            #expect(error.kind == kind)
            #expect(error.userMessage.norwegian.contains(words), "\(error.userMessage.norwegian)")
            #expect(error.userMessage.norwegian.contains("/arkiv/brev.docx"))
            #expect(!error.userMessage.english.isEmpty && error.userMessage.english != error.userMessage.norwegian)
            #expect(error.errorNumber == number)
        }
    }

    @Test func temporaryNamesAreHiddenAndBesideTheTarget() {
        let target = URL(fileURLWithPath: "/arkiv/Kari/Bilder/brev.pdf")
        let first = AtomicFile.makeTemporaryURL(beside: target)
        let second = AtomicFile.makeTemporaryURL(beside: target)
        #expect(first != second)
        #expect(first.deletingLastPathComponent() == target.deletingLastPathComponent())
        #expect(first.lastPathComponent.hasPrefix("."))
        #expect(first.lastPathComponent.hasSuffix(".tmp"))
        #expect(AtomicFile.isTemporaryName(first.lastPathComponent))
        #expect(!AtomicFile.isTemporaryName("brev.pdf"))
    }

    @Test func publishMovesAnotherWritersFile() throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("brev.pdf")
            let temporary = AtomicFile.makeTemporaryURL(beside: target)
            try Data([4, 5, 6]).write(to: temporary)
            chmod(temporary.path, 0o644)
            try AtomicFile.publish(temporary: temporary, to: target)
            #expect(LayoutFS.readBytes(target) == [4, 5, 6])
            #expect(LayoutFS.permissions(target) == 0o600)
            #expect(LayoutFS.filesBelow(folder) == ["brev.pdf"])
        }
    }

    @Test func publishRefusesAnExistingFileAndKeepsTheTemporaryForTheCaller() throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("brev.pdf")
            try AtomicFile.write([1], to: target)
            let temporary = AtomicFile.makeTemporaryURL(beside: target)
            try Data([2]).write(to: temporary)
            #expect(atomicError { try AtomicFile.publish(temporary: temporary, to: target) }?.kind == .exists)
            #expect(LayoutFS.readBytes(target) == [1])
            #expect(LayoutFS.readBytes(temporary) == [2])
            try AtomicFile.publish(temporary: temporary, to: target, overwrite: true)
            #expect(LayoutFS.readBytes(target) == [2])
            #expect(LayoutFS.filesBelow(folder) == ["brev.pdf"])
        }
    }

    @Test func publishRefusesASymlinkAsTemporary() throws {
        try withTemporaryDirectory { folder in
            let secret = folder.appendingPathComponent("secret")
            try AtomicFile.write([42], to: secret)
            let temporary = folder.appendingPathComponent(".x.tmp")
            try FileManager.default.createSymbolicLink(at: temporary, withDestinationURL: secret)
            #expect(atomicError { try AtomicFile.publish(temporary: temporary, to: folder.appendingPathComponent("ut")) } != nil)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ut").path))
        }
    }

    @Test func publishFromAnotherFolderAndAnotherDisk() throws {
        try withTemporaryDirectory { folder in
            let sub = folder.appendingPathComponent("arkiv")
            try AtomicFile.createDirectory(sub)
            let temporary = folder.appendingPathComponent("render.pdf")
            try Data([3]).write(to: temporary)
            try AtomicFile.publish(temporary: temporary, to: sub.appendingPathComponent("a.pdf"))
            #expect(LayoutFS.readBytes(sub.appendingPathComponent("a.pdf")) == [3])
            #expect(!FileManager.default.fileExists(atPath: temporary.path))

            // /dev/shm is a separate tmpfs on Linux: link/rename fail with EXDEV there.
            let shm = URL(fileURLWithPath: "/dev/shm/arkivator-test-\(UUID().uuidString).pdf")
            guard FileManager.default.createFile(atPath: shm.path, contents: Data([5, 5])) else { return }
            defer { try? FileManager.default.removeItem(at: shm) }
            try AtomicFile.publish(temporary: shm, to: sub.appendingPathComponent("b.pdf"))
            #expect(LayoutFS.readBytes(sub.appendingPathComponent("b.pdf")) == [5, 5])
            #expect(!FileManager.default.fileExists(atPath: shm.path))
            #expect(LayoutFS.filesBelow(sub) == ["a.pdf", "b.pdf"])
        }
    }

    @Test(arguments: [AtomicFile.NoReplaceStrategy.link, .renameNoReplace, .placeholder])
    func everyNoReplaceWayRefusesExistingFiles(strategy: AtomicFile.NoReplaceStrategy) throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("brev.docx").path
            let first = try AtomicFile.writeTemporary([1], beside: URL(fileURLWithPath: target))
            try AtomicFile.place(temporary: first.path, at: target, overwrite: false, strategies: [strategy])
            #expect(LayoutFS.readBytes(URL(fileURLWithPath: target)) == [1])

            let second = try AtomicFile.writeTemporary([2], beside: URL(fileURLWithPath: target))
            var caught: AtomicFileError?
            do throws(AtomicFileError) { try AtomicFile.place(temporary: second.path, at: target, overwrite: false, strategies: [strategy]) } catch { caught = error }
            #expect(caught?.kind == .exists)
            #expect(LayoutFS.readBytes(URL(fileURLWithPath: target)) == [1])
            unlink(second.path)
            #expect(LayoutFS.filesBelow(folder) == ["brev.docx"])
        }
    }

    @Test func concurrentWritersToOneNameOnlyOneWins() throws {
        try withTemporaryDirectory { folder in
            let target = folder.appendingPathComponent("brev.docx")
            let winners = AtomicFileTestCounter()
            DispatchQueue.concurrentPerform(iterations: 32) { index in
                do {
                    try AtomicFile.write([UInt8(index)], to: target)
                    winners.add()
                } catch {}
            }
            #expect(winners.value == 1)
            #expect(LayoutFS.readBytes(target)?.count == 1)
            #expect(LayoutFS.filesBelow(folder) == ["brev.docx"])
        }
    }

    @Test func createDirectoryMakesPrivateParents() throws {
        try withTemporaryDirectory { folder in
            let deep = folder.appendingPathComponent("a/b/c")
            try AtomicFile.createDirectory(deep)
            try AtomicFile.createDirectory(deep)  // again: fine
            #expect(LayoutFS.permissions(deep) == 0o700)
            #expect(LayoutFS.permissions(folder.appendingPathComponent("a")) == 0o700)
            let file = folder.appendingPathComponent("f")
            try AtomicFile.write([], to: file)
            var caught: AtomicFileError?
            do throws(AtomicFileError) { try AtomicFile.createDirectory(file.appendingPathComponent("x")) } catch { caught = error }
            #expect(caught?.kind == .notADirectory)
        }
    }
}

/// A thread-safe counter for the concurrency tests.
final class AtomicFileTestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
