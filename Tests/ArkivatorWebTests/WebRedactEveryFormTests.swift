import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// A letter holding a fødselsnummer in every way one is written (11 digits, date and personal
/// number apart by a space, a dash or a dot, the date in groups of spaces or dots, broken across
/// a line break; a D-, an H- and a synthetic number), drawn at 300 DPI and filed through real
/// OCR: `redact` reports each, and after it no form of any of them (its digits with any
/// separators between them) is left in the library's files (the `.docx` unzipped, every PDF's
/// text), the database file and its `-wal`, the search index, search, both exports, the document
/// page, the doctor's share page, its PDF (the share pack) and the text for an assistant, the
/// language model's request, the explanation, or the calendar feed; and the page image read again
/// shows none.
@Suite(.serialized) struct WebRedactEveryFormTests {
    /// The first number for `ddmmyy` from individual 40 whose control digits follow the rule before 2032.
    static func number(_ ddmmyy: String) -> String { Fodselsnummer.first(bornOn: ddmmyy, from: 40) ?? "" }

    /// One number for each written form, then a D-, an H- and a synthetic number.
    static let numbers = ["140385", "230774", "051162", "300499", "110870", "020391", "190688", "521178", "034590", "128263"]
        .map(number)
    static var n: [String] { numbers }
    static func part(_ number: String, _ range: Range<Int>) -> String {
        String(Array(number)[range])
    }
    static var dashed: String { part(n[2], 0..<6) + "-" + part(n[2], 6..<11) }
    static let year = (CalendarDate.today()?.year ?? 2030) + 1

    /// The letter's lines; the number of `Sønn` goes on across the line break.
    static var lines: [String] {
        [
            "Helse Vestvik HF, Medisinsk poliklinikk", "",
            "Innkalling til kontroll", "Vestvik, 2. september \(year)", "",
            "Pasient: Kari Nordmann, fødselsnummer \(n[0])",
            "Mor: \(part(n[1], 0..<6)) \(part(n[1], 6..<11))",
            "Far: \(dashed)",
            "Bror: \(part(n[3], 0..<6)).\(part(n[3], 6..<11))",
            "Søster: \(part(n[4], 0..<2)) \(part(n[4], 2..<4)) \(part(n[4], 4..<6)) \(part(n[4], 6..<11))",
            "Datter: \(part(n[5], 0..<2)).\(part(n[5], 2..<4)).\(part(n[5], 4..<6)) \(part(n[5], 6..<11))",
            "Sønn: \(part(n[6], 0..<7))",
            "\(part(n[6], 7..<11)) er sønnens nummer.",
            "D-nummer: \(n[7])",
            "Hjelpenummer: \(n[8])",
            "Testperson: \(n[9])", "",
            "Du har fått time tirsdag 14. oktober \(year) kl. 10.00 ved Medisinsk poliklinikk.",
            "Ta med legitimasjon og timekortet merket \(dashed).",
            "Med vennlig hilsen",
        ]
    }

    /// The numbers `text` holds in any form: runs of digits with up to three separators (spaces,
    /// line breaks, dots, dashes, slashes, colons, commas) between any two.
    static func forms(in text: String) -> [String] {
        var runs: [String] = [], run = "", gap = 0
        for scalar in text.unicodeScalars {
            if ("0"..."9").contains(scalar) {
                run.unicodeScalars.append(scalar)
                gap = 0
            } else if !run.isEmpty, gap < 3,
                      scalar.properties.isWhitespace || ".-–—‐‑/:,_\u{0}".unicodeScalars.contains(scalar) {
                gap += 1
            } else {
                if !run.isEmpty { runs.append(run) }
                run = ""
                gap = 0
            }
        }
        if !run.isEmpty { runs.append(run) }
        return numbers.filter { number in runs.contains { $0.contains(number) } }
    }

    static func expectNone(in text: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = forms(in: text)
        #expect(found.isEmpty, "\(label) holds \(found)", sourceLocation: sourceLocation)
    }

    /// Every string in a JSON value, however deep (a request's body is JSON in JSON).
    static func strings(_ value: Any) -> [String] {
        switch value {
        case let text as String:
            if let nested = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]), !(nested is String) {
                return [text] + strings(nested)
            }
            return [text]
        case let list as [Any]: return list.flatMap(strings)
        case let object as [String: Any]: return object.values.flatMap(strings)
        default: return []
        }
    }

    static func readable(_ url: URL) throws -> String { try OutsideTool.readable(url) }

    /// Every plain file under `folder`.
    static func files(_ folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }

    /// The letter as a scanner gives it: a gray PNG at 300 DPI, drawn from a PDF.
    static func letterImage() throws -> [UInt8] {
        let page = try EncodedPages.inspect(PDFMaker.digital([lines])).decode(page: 0)
        return try page.grayscale().pngData()
    }

    /// An iCalendar text unfolded and unescaped, as a calendar shows it.
    static func unfolded(_ ics: String) -> String {
        ics.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\\n", with: "\n")
            .replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "\\;", with: ";")
    }

    @Test func redactHidesEveryFormEverywhere() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else {
            Issue.record("poppler-utils is needed")
            return
        }
        #expect(Set(Self.numbers.map(\.count)) == [11])
        let letterText = Self.lines.joined(separator: "\n")
        #expect(Fodselsnummer.numbers(in: letterText).map(\.digits) == Self.numbers, "the detector reads every form")
        #expect(Self.forms(in: letterText) == Self.numbers, "the test's own search finds every form")
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let library = fixture.library.location.directory

            // Filed through real OCR, the file's name holding the number with a dash.
            let scan = dir.appendingPathComponent("brev \(Self.dashed).png")
            try Data(try Self.letterImage()).write(to: scan)
            let ingest = try CLI.run(["ingest", "--json", scan.path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            var record = try #require(try CLI.records(ingest).first)
            let read = record["text"] as? String ?? ""
            #expect(record["containsFodselsnummer"] as? Bool == true)
            record["text"] = nil
            Self.expectNone(in: String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self) + ingest.stderr,
                            "ingest --json besides the text")
            #expect((record["source"] as? String)?.contains(String(Self.dashed.prefix(6)) + " •••••") == true, "\(record["source"] ?? "")")
            let id = try #require(record["libraryId"] as? String)
            let shown = try #require(try CLI.json(try CLI.run(["show", id, "--json"], library: library)) as? [String: Any])
            let expected = Fodselsnummer.matches(in: letterText).count
            #expect(shown["fodselsnummerCount"] as? Int == expected, "every form is found in what OCR read: \(read)")
            #expect(shown["familyMember"] as? String == "Kari Nordmann")
            #expect(try fixture.library.calendar.appointments(ofDocument: id).count == 1, "the letter's appointment, for the calendar feed")

            // The model explains the letter before the redaction, writing two numbers out.
            let answer = dir.appendingPathComponent("answer.json"), log = dir.appendingPathComponent("requests.jsonl")
            try Data(#"{"hva": "Innkalling til kontroll. Tall sett: \#(Self.dashed) og \#(Self.n[0]).", "gjøre": ["Møt opp 14. oktober \#(Self.year) kl. 10.00."], "frist": "\#(Self.year)-10-14"}"#.utf8)
                .write(to: answer)
            let model = try ChildServer.script("llm_test_server.py", ["--answer", answer.path, "--log", log.path],
                                               log: dir.appendingPathComponent("llm.log"))
            defer { model.stop() }
            #expect(try CLI.run(["config", "set", "llm.url", model.url], library: library).status == 0)
            #expect(try CLI.run(["config", "set", "llm.enabled", "true"], library: library).status == 0)
            let explained = try CLI.run(["explain", id, "--json"], library: library)
            #expect(explained.status == 0, "\(explained.stderr)")
            Self.expectNone(in: explained.stdout, "the explanation")

            // A share link made before, its PDF made and kept.
            let early = try fixture.library.sharing.createShareLink([id])
            try await fixture.signedIn { client, _ in
                let response = try await client.execute(uri: "/delt/\(early.token)/pdf", method: .get)
                #expect(response.status == .ok)
            }

            let redact = try CLI.run(["redact", id], library: library)
            #expect(redact.status == 0 && redact.stdout.contains("Skjulte \(expected) fødselsnummer"), "\(redact.stdout) \(redact.stderr)")
            #expect(redact.stdout.contains("søket") && redact.stdout.contains("forklaringen"), "where it is hidden: \(redact.stdout)")
            Self.expectNone(in: redact.stdout + redact.stderr, "redact's lines")

            // The database: the index's terms read through SQL (its file and -wal are read with
            // every other file below; the -wal was emptied into the file, what was written after
            // the redaction is all it may hold).
            let database = try Database(url: library.appendingPathComponent(Database.fileName))
            let terms = try database.rows("SELECT term FROM term_documents").compactMap { $0[0].string }
            for number in Self.numbers {
                #expect(!terms.contains(number) && !terms.contains(Self.part(number, 6..<11)), "the index holds \(number)")
            }
            #expect(!terms.contains(Self.part(Self.n[6], 0..<7)) && !terms.contains(Self.part(Self.n[6], 7..<11)))

            // Search, show, the explanation, both exports, the page read again.
            for number in Self.numbers {
                for query in [number, Self.part(number, 6..<11)] {
                    let search = try CLI.run(["search", query, "--json"], library: library)
                    let hits = (try CLI.json(search) as? [String: Any])?["hits"] as? [[String: Any]] ?? []
                    #expect(!hits.contains { ($0["id"] as? String) == id }, "search \(query) finds the letter")
                }
            }
            let after = try CLI.run(["show", id, "--json"], library: library)
            Self.expectNone(in: after.stdout, "show --json")
            let cached = try CLI.run(["explain", id, "--json"], library: library)
            Self.expectNone(in: cached.stdout + cached.stderr, "the explanation kept")
            let again = try CLI.run(["explain", id, "--again", "--json"], library: library)
            #expect(again.status == 0, "\(again.stderr)")
            Self.expectNone(in: again.stdout, "the explanation made again")
            let sent = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            #expect(sent.count == 2)
            for line in sent {
                let request = try JSONSerialization.jsonObject(with: Data(line.utf8))
                Self.expectNone(in: Self.strings(request).joined(separator: "\n"), "the model's request")
            }
            for (folder, extra) in [("eksport", [String]()), ("eksport-med", ["--with-numbers"])] {
                let out = dir.appendingPathComponent(folder)
                let export = try CLI.run(["export", out.path] + extra, library: library)
                #expect(export.status == 0, "\(export.stderr)")
                for file in Self.files(out) { Self.expectNone(in: try Self.readable(file), "\(folder)/\(file.lastPathComponent)") }
            }
            // The web app: the document page, the share pages, the calendar feed.
            let kari = try #require(try fixture.library.familyMembers().first { $0.name == "Kari Nordmann" })
            let feed = CalendarStore.calendarFeedPath(try fixture.library.calendar.createCalendarFeed(member: kari.id))
            try await fixture.signedIn { client, browser in
                let page = try await client.execute(uri: "/documents/\(id)", method: .get, headers: browser.headers)
                #expect(page.status == .ok && page.text.contains("Nordmann"))
                Self.expectNone(in: page.text, "the document page")
                let calendar = try await client.execute(uri: feed, method: .get)
                #expect(calendar.status == .ok && calendar.text.contains("BEGIN:VEVENT"), "\(calendar.text)")
                Self.expectNone(in: Self.unfolded(calendar.text), "the calendar feed")
                // The link made before: its pack was shredded, and is made again from the boxed pages.
                let shared = try await client.execute(uri: "/delt/\(early.token)", method: .get)
                #expect(shared.status == .ok && shared.text.contains("Nordmann"))
                Self.expectNone(in: shared.text, "the share page")
                let pdf = try await client.execute(uri: "/delt/\(early.token)/pdf", method: .get)
                #expect(pdf.status == .ok)
                let file = dir.appendingPathComponent("delt.pdf")
                try Data(buffer: pdf.body).write(to: file)
                Self.expectNone(in: try Self.readable(file), "the share page's PDF")
                let text = try await client.execute(uri: "/delinger/\(early.link.id)/tekst", method: .get, headers: browser.headers)
                #expect(text.status == .ok && text.text.contains("poliklinikk"))
                Self.expectNone(in: text.text, "the share pack's text for an assistant")
            }

            // Every file the library folder holds, the database and its -wal among them.
            let held = Self.files(library)
            #expect(held.contains { $0.pathExtension == "docx" } && held.contains { $0.pathExtension == "pdf" })
            for file in held {
                Self.expectNone(in: try Self.readable(file), file.path.replacingOccurrences(of: library.path, with: ""))
            }

            // The page image read again: the letter is there, no number.
            let image = try #require(held.first { ["jpg", "jpeg"].contains($0.pathExtension) && $0.path.contains("/Arkiv/") })
            let copy = dir.appendingPathComponent("side.jpg")
            try FileManager.default.copyItem(at: image, to: copy)
            let reread = try CLI.run(["ingest", "--json", "--no-archive", copy.path], library: dir.appendingPathComponent("andre"))
            let text = try #require(try CLI.records(reread).first)["text"] as? String ?? ""
            #expect(text.contains("Nordmann") && text.contains("poliklinikk."), "\(text)")
            Self.expectNone(in: text, "the page image read again")
        }
    }
}
