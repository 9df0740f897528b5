import ArkivatorCore
@testable import ArkivatorIntake
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The one folder walk: each folder once, never out of its tree or into a skipped folder,
/// documents by content, special files refused without being opened.
@Suite struct FolderWalkTests {
    private func link(_ folder: URL, _ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path, withDestinationPath: target)
    }

    @Test func loopsAreWalkedOnce() throws {
        try withTemporaryDirectory { dir in
            let sub = dir.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try link(dir, "a", to: ".")
            try link(dir, "b", to: ".")
            try link(sub, "c", to: "..")
            try link(sub, "d", to: "../sub")
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: sub.appendingPathComponent("brev.png"))
            var walk = FolderWalk()
            let (listings, problems) = walk.walk(dir.path)
            #expect(listings.map(\.path) == [dir.path, sub.path])
            #expect(listings.flatMap(\.documents) == [sub.appendingPathComponent("brev.png").path])
            #expect(problems.isEmpty, "\(problems)")
            // The same tree again in the same walk (named twice): nothing more.
            #expect(walk.walk(sub.path).listings.isEmpty)
        }
    }

    @Test func skippedFoldersAreNeverEnteredAndLinksOutAreRefused() throws {
        try withTemporaryDirectory { dir in
            let root = dir.appendingPathComponent("Skannet"), outside = dir.appendingPathComponent("annet")
            let processed = root.appendingPathComponent("processed/dypere")
            try FileManager.default.createDirectory(at: processed, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: processed.appendingPathComponent("ferdig.png"))
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: outside.appendingPathComponent("utenfor.png"))
            try link(root, "p", to: "processed")
            try link(root, "q", to: "processed/dypere")
            try link(root, "r.png", to: "processed/dypere/ferdig.png")
            try link(root, "ut", to: outside.path)
            try link(root, "opp", to: "..")
            var walk = FolderWalk(skipping: ["processed", "failed"])
            let (listings, problems) = walk.walk(root.path)
            #expect(listings.map(\.path) == [root.path])
            #expect(listings.flatMap(\.documents).isEmpty, "\(listings)")
            let realOutside = try #require(RealPath.of(outside.path)), realDir = try #require(RealPath.of(dir.path))
            #expect(problems == [
                FolderWalk.Problem(path: root.appendingPathComponent("opp").path, reason: .leavesTree(target: realDir)),
                FolderWalk.Problem(path: root.appendingPathComponent("ut").path, reason: .leavesTree(target: realOutside)),
            ])
            #expect(problems[1].userMessage.norwegian.contains("er en snarvei (symlenke) til \(realOutside)"))
        }
    }

    @Test func filesAreDocumentsByTheirContent() throws {
        try withTemporaryDirectory { dir in
            let png = try Data(contentsOf: Fixtures.url("clean.png"))
            let pdf = Data("%PDF-1.4\n".utf8)
            for (name, bytes) in [("SCAN0001", png), ("skann.bin", png), ("dokument", pdf), ("LESMEG", Data("tekst".utf8)),
                                  ("tom", Data()), ("notat.txt", png), (".skjult", png), ("brev.png.part", png),
                                  ("kopi.tmp", png), ("feil.jpg", Data("ikke et bilde".utf8))] {
                try bytes.write(to: dir.appendingPathComponent(name))
            }
            #expect(mkfifo(dir.appendingPathComponent("rør").path, 0o600) == 0)
            var walk = FolderWalk()
            let (listings, problems) = walk.walk(dir.path)
            let listing = try #require(listings.first)
            let names = { (paths: [String]) in paths.map { URL(fileURLWithPath: $0).lastPathComponent } }
            // An image ending is always taken (a wrong content then gets a clear refusal).
            #expect(names(listing.documents) == ["SCAN0001", "dokument", "feil.jpg", "skann.bin"])
            #expect(names(listing.others) == [".skjult", "LESMEG", "brev.png.part", "kopi.tmp", "notat.txt", "tom"])
            #expect(problems == [FolderWalk.Problem(path: dir.appendingPathComponent("rør").path, reason: .notRegularFile(kind: "fifo"))])
            #expect(problems.first?.userMessage.english.contains("is not a regular file (a named pipe, FIFO) and is skipped") == true)
        }
    }

    /// Named directly, a FIFO is refused as what it is, at once (it is never waited on).
    @Test func aNamedFIFOIsRefusedWithoutWaiting() throws {
        try withTemporaryDirectory { dir in
            let fifo = dir.appendingPathComponent("skanner.png")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            #expect(throws: InputError.notRegularFile(kind: "fifo")) { try ReceivedFile.read(fifo) }
            #expect(throws: InputError.notRegularFile(kind: "fifo")) { try FileDigest.sha256(of: fifo) }
        }
    }
}
