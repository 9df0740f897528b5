import Foundation
import TestSupport
import Testing

/// What the command line refuses before any work: dates that are not `YYYY-MM-DD`, numbers a
/// watch cannot use, files with more pages than a letter — each with one plain sentence.
@Suite struct InputLimitCLITests {
    @Test(arguments: [["list", "--from", "2024-3-5"], ["list", "--to", "+2024-03-05"], ["search", "brev", "--from", "2024-03-5"],
                      ["edit", "abc123", "--date", "2024-3-5"], ["list", "--from", "2024-02-30"]])
    func loosDatesAreRefusedNotComparedAsText(_ arguments: [String]) throws {
        try withTemporaryDirectory { dir in
            let output = try CLI.run(arguments, library: dir.appendingPathComponent("bibliotek"))
            #expect(output.status == 64, "\(arguments): \(output.stdout) \(output.stderr)")
            #expect(output.stderr.contains("ÅÅÅÅ-MM-DD") && output.stderr.contains("2024-03-05"), "\(output.stderr)")
        }
    }

    @Test func strictDatesFilterAsDates() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let ingest = try CLI.run(["ingest", Fixtures.url("clean.png").path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            let all = try CLI.list(library)
            let date = try #require(all.first?["documentDate"] as? String)
            let day = try #require(Int(date.suffix(2)))
            // The day before and after, written with two digits as they must be.
            let before = date.prefix(8) + String(format: "%02d", max(day - 1, 1))
            #expect(try CLI.list(library, ["--from", String(before)]).count == 1)
            #expect(try CLI.list(library, ["--from", date, "--to", date]).count == 1)
            let swapped = try CLI.run(["list", "--from", date, "--to", "1999-01-01"], library: library)
            #expect(swapped.status == 64 && swapped.stderr.contains("Bytt om"), "\(swapped.stderr)")
        }
    }

    @Test(arguments: ["inf", "1e13", "nan", "-1"])
    func watchRefusesARestartLimitItCannotUse(_ value: String) throws {
        try withTemporaryDirectory { dir in
            let output = try CLI.run(["watch", dir.appendingPathComponent("inn").path, "--restart-above-mb=\(value)"],
                                     library: dir.appendingPathComponent("bibliotek"))
            #expect(output.status == 64, "\(value): \(output.stderr)")
            #expect(output.stderr.contains("--restart-above-mb må være et tall mellom 0 og 1048576"), "\(output.stderr)")
        }
    }

    /// The page limit counts every file of a document: 101 one-page files named `brev_p1` … are
    /// refused like one 101-page TIFF, and a TIFF after 100 pages is refused with the same limit.
    @Test func thePageLimitCountsEveryFileOfADocument() throws {
        try withTemporaryDirectory { dir in
            let pages = dir.appendingPathComponent("sider")
            try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
            for page in 1...101 {
                try Data(TIFFMaker.pages(1, width: 64, height: 64)).write(to: pages.appendingPathComponent("brev_p\(page).tif"))
            }
            let output = try CLI.run(["ingest", "--json", "--no-archive", pages.path], library: dir.appendingPathComponent("bibliotek"))
            let records = try CLI.records(output)
            #expect(records.count == 1 && output.status == 1, "\(output.stderr)")
            #expect(records.first?["errorCode"] as? String == "tooManyPages")
            #expect((records.first?["error"] as? String)?.contains("flere enn 100 sider") == true)
        }
    }

    /// 1,000 pages in 1.2 MB: refused from the headers, in one sentence, in little memory.
    @Test func aThousandPageTIFFIsRefusedWithinTheMemoryBound() throws {
        try withTemporaryDirectory { dir in
            let tiff = dir.appendingPathComponent("tusen-sider.tif")
            try Data(TIFFMaker.pages(1000)).write(to: tiff)
            let good = Fixtures.url("clean.png").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["-f", "maxrss-kb=%M", CLI.executable.path, "ingest", "--json", "--jobs", "2",
                                 "--library", dir.appendingPathComponent("bibliotek").path, tiff.path, good]
            process.environment = CLI.environment()
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1, "one refused file: \(stderr)")
            let records = try CLI.records(CLI.Output(status: 0, stdout: String(decoding: stdout, as: UTF8.self), stderr: ""))
            #expect(records.count == 2)
            let refused = try #require(records.first)
            #expect(refused["errorCode"] as? String == "tooManyPages")
            #expect((refused["error"] as? String)?.contains("flere enn 100 sider") == true)
            let failure = try #require(refused["failure"] as? [String: Any])
            #expect(failure["stage"] as? String == "intake" && (failure["en"] as? String)?.contains("more than 100 pages") == true)
            #expect(records.last?["error"] is NSNull, "the rest of the batch goes on")
            let line = try #require(stderr.split(separator: "\n").last { $0.hasPrefix("maxrss-kb=") })
            let kilobytes = try #require(Int(line.dropFirst("maxrss-kb=".count)))
            #expect(kilobytes <= 400 * 1024, "peak RSS \(kilobytes / 1024) MB")
        }
    }
}

/// A page with no ink contrast through `ingest`: read as a page without text, with a plain
/// sentence for an all-black one, never a library's internal failure.
@Suite struct BlankPageCLITests {
    @Test func anAllBlackPageIsAPageWithoutTextAndSaysSo() throws {
        try withTemporaryDirectory { dir in
            let black = dir.appendingPathComponent("svart.tif")
            try Data(TIFFMaker.pages(1, width: 1240, height: 1754, black: true)).write(to: black)
            let output = try CLI.run(["ingest", black.path], library: dir.appendingPathComponent("bibliotek"))
            #expect(output.status == 0, "\(output.stderr)")
            let said = output.stdout + output.stderr
            #expect(said.contains("siden er helt svart, så det er ingen tekst å lese. Ta bildet på nytt"), "\(said)")
            #expect(!said.contains("Leptonica") && !said.contains("meld fra"), "\(said)")
            let json = try CLI.records(try CLI.run(["ingest", "--json", "--no-archive", black.path],
                                                   library: dir.appendingPathComponent("annet")))
            let pages = try #require(json.first?["pageReports"] as? [[String: Any]])
            #expect((pages.first?["cleanup"] as? [String: Any])?["blank"] as? String == "dark")
            #expect(json.first?["noText"] as? Bool == true)
        }
    }
}

/// A value longer than its field may hold, given to `edit`: exit 1 with the plain sentence, and
/// nothing changed (a text too long keeps the new title from being saved too).
@Suite struct FieldLengthCLITests {
    @Test func anOverlongTitleOrTextIsRefusedWithWords() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            #expect(try CLI.run(["ingest", Fixtures.url("clean.png").path], library: library).status == 0)
            let before = try #require(try CLI.list(library).first)
            let id = try #require(before["id"] as? String)
            let title = try CLI.run(["edit", id, "--title", String(repeating: "Epikrise ", count: 400)], library: library)
            #expect(title.status == 1, "\(title.stderr)")
            #expect(title.stderr.contains("Feltet «Tittel» har for mange tegn (3\u{00A0}600); høyst 300 tegn kan lagres."), "\(title.stderr)")
            let textFile = dir.appendingPathComponent("tekst.txt")
            try Data(String(repeating: "ord ", count: 300_000).utf8).write(to: textFile)
            let text = try CLI.run(["edit", id, "--title", "Ny tittel", "--text-file", textFile.path], library: library)
            #expect(text.status == 1 && text.stderr.contains("Feltet «Tekst» har for mange tegn"), "\(text.stderr)")
            #expect(try CLI.list(library).first?["title"] as? String == before["title"] as? String)
        }
    }
}
