import ArkivatorCore
import Foundation
import TestSupport
import Testing

/// The destination as a mirror of the archive, through the command line, against a folder, a
/// real WebDAV server (`rclone serve webdav`) and an rclone `local` remote: 20 letters filed
/// before a destination is set are all copied once it is; then 5 are corrected (person, date,
/// title, text), 2 redacted, 3 deleted and 1 purged, and after `sync` the destination holds
/// exactly the archive's files with their content, `sync --check` finds nothing, and no
/// fødselsnummer of a redacted letter is left in any file there.
@Suite(.serialized) struct MirrorCLITests {
    enum Kind: String, CaseIterable {
        case folder, webdav, rclone
    }

    /// A valid fødselsnummer for `ddmmyy` (individual number 401 or more).
    static func number(_ ddmmyy: String) -> String { Fodselsnummer.first(bornOn: ddmmyy, from: 401) ?? "" }

    static let people = ["Kari Nordmann", "Ola Nordmann", "Eivind Bøe", "Åse Bjørkli"]
    static let senders = ["Helse Vestvik HF", "St. Olavs hospital", "Haukeland universitetssjukehus", "Legekontoret Sentrum"]

    /// Letter `i` as a computer-made PDF (read from its text layer: no OCR, so the test is quick).
    static func letter(_ i: Int, number: String?) -> [UInt8] {
        let day = String(format: "%02d", i + 1)
        var lines = [senders[i % 4], "", "Vestvik, \(day). mars 2024", "",
                     i % 2 == 0 ? "Innkalling til poliklinisk time" : "Svar på blodprøver", "",
                     "Gjelder: \(people[i % 4])"]
        if let number { lines.append("Fødselsnummer: \(number)") }
        lines += ["Du har fått time tirsdag \(day). april 2024 klokka 10:15 (brev \(i)).", "",
                  "Med vennlig hilsen", "Åse Bjørkli", "sekretær"]
        return PDFMaker.digital([lines])
    }

    /// Files 20 letters (the first two with a fødselsnummer each) with no destination set; their
    /// ids in the order filed, and the two numbers.
    static func fileTwentyLetters(_ sandbox: Sandbox) throws -> (ids: [String], numbers: [String]) {
        let inbox = try sandbox.folder("Innboks")
        let numbers = [number("140385"), number("020791")]
        for i in 0..<20 {
            try Data(letter(i, number: i < 2 ? numbers[i] : nil)).write(to: inbox.appendingPathComponent("brev\(i).pdf"))
        }
        let output = try CLI.run(["ingest", "--json", inbox.path], library: sandbox.library.location.directory)
        #expect(output.status == 0, "\(output.stderr)")
        let ids = try CLI.records(output).compactMap { $0["id"] as? String }
        #expect(ids.count == 20)
        return (ids, numbers)
    }

    @Test(arguments: Kind.allCases) func theDestinationHoldsExactlyTheArchive(_ kind: Kind) throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let library = sandbox.library.location.directory
        let (ids, numbers) = try Self.fileTwentyLetters(sandbox)
        var output: CLI.Output

        // The destination, set after the letters were filed.
        let copy = try sandbox.folder("Kopi")
        var server: Server?
        defer { server?.stop() }
        let setting: String
        switch kind {
        case .folder: setting = "folder:\(copy.path)"
        case .rclone: setting = "rclone::local:\(copy.path)"
        case .webdav:
            let started = try Server.webdav(serving: copy, log: sandbox.directory.appendingPathComponent("rclone.log"))
            server = started
            setting = "webdav:\(started.url)/"
        }
        output = try CLI.run(["config", "set", "destination", setting], library: library)
        #expect(output.status == 0, "\(output.stderr)")
        output = try CLI.run(["sync", "--check", "--json"], library: library)
        let before = try #require(try CLI.json(output) as? [String: Any])
        #expect(before["missing"] as? Int ?? 0 > 0, "nothing copied yet: \(before)")
        output = try CLI.run(["sync"], library: library)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(try Self.files(in: copy).count == (before["files"] as? Int ?? -1), "every letter's files copied")
        output = try CLI.run(["show", ids[5], "--json"], library: library)
        #expect((try CLI.json(output) as? [String: Any])?["uploadStatus"] as? String == "copied", "\(output.stdout)")

        // Corrections to 5 letters, 2 redactions, 3 deletions, 1 purge.
        for (arguments, id) in [(["--person", "Eivind Bøe"], ids[2]), (["--date", "2024-03-26"], ids[3]),
                                (["--title", "Kontrolltime hos hudlegen"], ids[4]), (["--institution", "Ny avsender"], ids[5])] {
            output = try CLI.run(["edit", id] + arguments, library: library)
            #expect(output.status == 0, "\(output.stderr)")
        }
        let corrected = sandbox.directory.appendingPathComponent("rettet.txt")
        try "Rettet tekst for brev seks: time 12. april 2024.".write(to: corrected, atomically: true, encoding: .utf8)
        output = try CLI.run(["edit", ids[6], "--text-file", corrected.path], library: library)
        #expect(output.status == 0, "\(output.stderr)")
        for id in ids[0..<2] {
            output = try CLI.run(["redact", id], library: library)
            #expect(output.status == 0, "\(output.stderr)")
        }
        for id in ids[10..<13] {
            output = try CLI.run(["delete", id], library: library)
            #expect(output.status == 0, "\(output.stderr)")
        }
        output = try CLI.run(["delete", ids[13], "--purge"], library: library)
        #expect(output.status == 0, "\(output.stderr)")

        output = try CLI.run(["sync"], library: library)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        output = try CLI.run(["sync", "--check", "--json"], library: library)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let after = try #require(try CLI.json(output) as? [String: Any])
        #expect(after["inLine"] as? Bool == true && after["missing"] as? Int == 0 && after["stale"] as? Int == 0
                && after["extra"] as? Int == 0 && after["unknown"] as? Int == 0, "\(after)")
        #expect(after["letters"] as? Int == 19, "the purged letter is gone, the deleted ones are in the trash folder")
        let there = try Self.files(in: copy)
        #expect(there.count == after["files"] as? Int, "\(there)")
        let perLetter = (after["files"] as? Int ?? 0) / 19
        #expect(perLetter >= 2 && there.filter { $0.hasPrefix("Papirkurv/") }.count == 3 * perLetter, "three letters in the trash folder: \(there)")
        #expect(there.contains { $0.hasPrefix("Eivind Bøe/") }, "the letter moved to its person: \(there)")
        #expect(there.contains { $0.contains("2024-03-26") }, "the new date in the name: \(there)")
        #expect(there.contains { $0.contains("Kontrolltime hos hudlegen") }, "the new title: \(there)")

        // No fødselsnummer of a redacted letter in any file at the destination, in any form.
        for path in there {
            let text = try Self.readable(copy.appendingPathComponent(path))
            for number in numbers { #expect(!Self.holds(text, number), "\(path) holds \(number)") }
        }
        // The corrected text is in the copy's .docx.
        let docx = try #require(there.first { $0.hasSuffix(".docx") && (try? Self.readable(copy.appendingPathComponent($0)))?.contains("brev seks") == true })
        #expect(!docx.isEmpty)
    }

    /// Every file below `root`, relative, sorted.
    static func files(in root: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [String] = []
        let base = root.standardizedFileURL.path + "/"
        for case let url as URL in walker where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            found.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
        }
        return found.sorted()
    }

    /// A file's text as a reader would find it: its bytes, a `.docx` unzipped, a PDF's text.
    static func readable(_ url: URL) throws -> String { try OutsideTool.readable(url) }

    /// Whether `text` holds `number` in any written form (spaces, dots, dashes or line breaks inside it).
    static func holds(_ text: String, _ number: String) -> Bool {
        text.filter { !" .-\n\r\u{0C}".contains($0) }.contains(number)
    }
}
