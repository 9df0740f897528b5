import ArkivatorCore
@testable import ArkivatorArchive
import Foundation
import TestSupport
import Testing

/// Reads a zip with Python's zipfile: names in order, the UTF-8 flag per entry, each entry's
/// bytes (hex), the stored DOS time, and `testzip()` (the first entry with a bad CRC, or None).
private let zipReader = """
    import json, sys, zipfile
    with zipfile.ZipFile(sys.argv[1]) as z:
        infos = z.infolist()
        print(json.dumps({
            "names": [i.filename for i in infos],
            "utf8": [bool(i.flag_bits & 0x800) for i in infos],
            "data": {i.filename: z.read(i).hex() for i in infos},
            "times": [list(i.date_time) for i in infos],
            "bad": z.testzip(),
        }))
    """

@Suite struct ZipTests {
    let modified = Date(timeIntervalSince1970: 1_763_633_700)  // 2025-11-20 10:15 UTC

    func read(_ url: URL) throws -> [String: Any] {
        try #require(try ExternalTool.python(zipReader, [url.path]) as? [String: Any])
    }

    @Test func roundTripThroughPythonZipfile() throws {
        try withTemporaryDirectory { dir in
            var random = SystemRandomNumberGenerator()
            let binary = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
            let url = dir.appendingPathComponent("test.zip.tmp")
            let writer = try ZipWriter(url: url, modified: modified)
            try writer.add(path: "[Content_Types].xml", data: Array("<Types/>".utf8))
            try writer.add(path: "brev/første.txt", data: Array("gammel".utf8))
            try writer.add(path: "brev/Ærlig ØÅ æøå.txt", data: Array("Blåbærsyltetøy".utf8))
            try writer.add(path: "emoji 📄.txt", data: Array("📄✉️".utf8))
            try writer.add(path: "tom.txt", data: [])
            try writer.add(path: "bilde.bin", data: binary)
            try writer.add(path: "brev/første.txt", data: Array("ny".utf8))  // added twice: replaced in place
            #expect(!FileManager.default.fileExists(atPath: url.path), "libzip writes only at close")
            try writer.close()
            try writer.close()  // closing twice does nothing

            let zip = try read(url)
            #expect(zip["names"] as? [String] == [
                "[Content_Types].xml", "brev/første.txt", "brev/Ærlig ØÅ æøå.txt", "emoji 📄.txt", "tom.txt", "bilde.bin",
            ])
            #expect(zip["utf8"] as? [Bool] == [false, true, true, true, false, false], "UTF-8 flag on non-ASCII names")
            #expect(zip["bad"] is NSNull, "every CRC checks out")
            let data = try #require(zip["data"] as? [String: String])
            #expect(data["brev/første.txt"] == hex(Array("ny".utf8)))
            #expect(data["brev/Ærlig ØÅ æøå.txt"] == hex(Array("Blåbærsyltetøy".utf8)))
            #expect(data["emoji 📄.txt"] == hex(Array("📄✉️".utf8)))
            #expect(data["tom.txt"] == "")
            #expect(data["bilde.bin"] == hex(binary))
            let times = try #require(zip["times"] as? [[Int]])
            #expect(Set(times).count == 1, "every entry has the same time")
            #expect(times.first?[0] == 2025)
        }
    }

    @Test func inMemoryBytesEqualTheFileAndRepeat() throws {
        try withTemporaryDirectory { dir in
            let entries: [(path: String, data: [UInt8])] = [
                ("[Content_Types].xml", Array("<Types/>".utf8)),
                ("word/document.xml", Array(String(repeating: "Hei på deg. ", count: 500).utf8)),
            ]
            let url = dir.appendingPathComponent("a.zip")
            let writer = try ZipWriter(url: url, modified: modified)
            for entry in entries { try writer.add(path: entry.path, data: entry.data) }
            try writer.close()
            let fromFile = try [UInt8](Data(contentsOf: url))
            #expect(try writer.bytes() == fromFile)

            let first = try ZipWriter.archive(entries, modified: modified)
            let second = try ZipWriter.archive(entries, modified: modified)
            #expect(first == fromFile, "memory and file give the same bytes")
            #expect(first == second, "the same entries give the same bytes")
            #expect(first.count < 2_000, "entries are deflated")

            let copy = dir.appendingPathComponent("b.zip")
            try Data(first).write(to: copy)
            #expect(try read(copy)["names"] as? [String] == entries.map(\.path))
        }
    }

    @Test func anArchiveWithoutEntriesIsStillAZip() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("empty.zip")
            try ZipWriter(url: url, modified: modified).close()
            #expect(try read(url)["names"] as? [String] == [])
            let bytes = try ZipWriter(modified: modified).bytes()
            #expect(bytes == ZipWriter.emptyArchive)
        }
    }

    @Test func releasingWithoutClosingWritesNothing() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("discarded.zip")
            do {
                let writer = try ZipWriter(url: url, modified: modified)
                try writer.add(path: "a.txt", data: [1, 2, 3])
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
        }
    }

    @Test func failuresCarryLibzipCodeMessageAndErrno() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("missing/folder/out.zip")
            let writer = try ZipWriter(url: url, modified: modified)
            try writer.add(path: "a.txt", data: [1])
            let error = try #require(throws: ZipError.self) { try writer.close() }
            #expect([11, 12].contains(error.code), "ZIP_ER_OPEN or ZIP_ER_TMPOPEN: \(error)")
            #expect(error.systemError == ENOENT)
            #expect(!error.message.isEmpty && error.operation == "close" && error.archive == url.path)
            #expect(error.userMessage.norwegian.contains("Arkivmappen finnes ikke"))
            #expect(error.description.contains("libzip error"))
            // The failed archive is discarded: adding more or closing again reports a closed archive.
            let closed = try #require(throws: ZipError.self) { try writer.add(path: "b.txt", data: [2]) }
            #expect(closed.code == 8, "ZIP_ER_ZIPCLOSED")
            try writer.close()
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test(arguments: ["", "/etc/passwd", "../up.txt", "a/../../b", "a\\b"])
    func unsafeEntryNamesAreRefused(_ name: String) throws {
        let writer = try ZipWriter(modified: modified)
        let error = try #require(throws: ZipError.self) { try writer.add(path: name, data: [1]) }
        #expect(error.code == 18, "ZIP_ER_INVAL")
        #expect(error.archive == nil)
        #expect(!ZipWriter.isAcceptable(name: "nul\0byte"), "C would cut the name at the NUL")
        #expect(ZipWriter.isAcceptable(name: "brev/æøå..txt") && ZipWriter.isAcceptable(name: "[Content_Types].xml"))
    }

    func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }
}
