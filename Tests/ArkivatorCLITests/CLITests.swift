import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct CLITests {
    private let inputs = ["clean.png", "skew-neg.jpg", "twopage.tif", "bad"].map { Fixtures.url($0).path }

    @Test func ingestJSONFollowsTheSchema() throws {
        try withTemporaryDirectory { dir in
            let output = try CLI.run(["ingest", "--json", "--jobs", "2", "--library", dir.path] + inputs)
            #expect(output.status == 1, "some bad files must fail: \(output.stderr)")
            let records = try CLI.records(output)
            #expect(records.count == 9)
            for record in records {
                for key in ["source", "pages", "text", "ocrConfidence", "lowConfidenceWords", "noText", "error", "timings"] {
                    #expect(record.keys.contains(key), "\(key) missing")
                }
                #expect(record["text"] is String)
                #expect(record["noText"] is Bool)
                let timings = try #require(record["timings"] as? [String: Double])
                #expect(Set(timings.keys).isSuperset(of: ["read", "decode", "cleanup", "ocr"]))
            }
            func record(_ suffix: String) throws -> [String: Any] {
                try #require(records.first { ($0["source"] as? String)?.hasSuffix(suffix) == true })
            }
            let clean = try record("clean.png")
            #expect(clean["error"] is NSNull)
            #expect((clean["pages"] as? Int) == 1)
            #expect(((clean["ocrConfidence"] as? Double) ?? 0) > 0.8)
            let low = try #require(clean["lowConfidenceWords"] as? [[String: Any]])
            for word in low {
                #expect(word["word"] is String && word["start"] is Int && word["length"] is Int && word["page"] is Int)
                #expect(((word["confidence"] as? Double) ?? 1) < 0.7)
            }
            let tiff = try record("twopage.tif")
            #expect((tiff["pages"] as? Int) == 2)
            #expect((tiff["text"] as? String)?.contains("\u{0C}") == true)
        }
    }

    @Test func everyBadInputIsHandledAsExpected() throws {
        let expected = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Fixtures.url("bad/expected.json"))) as? [String: [String]])
        try withTemporaryDirectory { dir in
            let output = try CLI.run(["ingest", "--json", "--library", dir.path, Fixtures.url("bad").path])
            #expect(output.status == 1)
            let records = try CLI.records(output)
            #expect(records.count == expected.count)
            for record in records {
                let name = try #require((record["source"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent })
                let accepted = try #require(expected[name], "\(name) not in expected.json")
                let outcome = record["error"] is String ? "reject" : ((record["noText"] as? Bool) == true ? "no_text" : "text")
                #expect(accepted.contains(outcome), "\(name): \(outcome)")
                if let message = record["error"] as? String {
                    #expect(message.count > 20 && !message.contains("Optional"), "\(name): \(message)")
                }
            }
            // A person sees one plain line per refused file, and the summary.
            let human = try CLI.run(["ingest", "--library", dir.path, Fixtures.url("bad").path])
            #expect(human.lines.filter { $0.hasPrefix("✘") }.count == 4)
            #expect(human.stderr.contains("4 kunne ikke leses"))
            #expect(!human.stderr.contains("\r"), "no progress bar when not on a terminal")
        }
    }

    @Test func twoJobsGiveTheSameOutputAsOne() throws {
        try withTemporaryDirectory { dir in
            let files = ["clean.png", "photo.jpg", "skew.jpg", "twopage.tif", "bad/empty.jpg"].map { Fixtures.url($0).path }
            func run(_ jobs: Int) throws -> [String] {
                let library = dir.appendingPathComponent("bibliotek-\(jobs)").path
                let output = try CLI.run(["ingest", "--json", "--jobs", "\(jobs)", "--library", library] + files)
                return try CLI.records(output).map { record in
                    var record = record
                    record["timings"] = nil
                    let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
                    return String(decoding: data, as: UTF8.self)
                        .replacingOccurrences(of: library.replacingOccurrences(of: "/", with: "\\/"), with: "LIB")
                }
            }
            let one = try run(1)
            let two = try run(2)
            #expect(one.count == 5)
            #expect(one == two)
        }
    }

    @Test func writesCleanedPageImages() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("sider")
            let output = try CLI.run(["ingest", "--json", "--library", dir.path, "--out", out.path,
                                      Fixtures.url("photo2.jpg").path, Fixtures.url("twopage.tif").path])
            #expect(output.status == 0, "\(output.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(names == ["photo2.jpg", "twopage - side 1.jpg", "twopage - side 2.jpg"])
            for name in names {
                let size = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.size] as? Int
                #expect((size ?? 0) > 10_000 && (size ?? 0) < 2_000_000)
            }
        }
    }

    @Test func startsTesseractWithOneOpenMPThread() throws {
        // Started without OMP_THREAD_LIMIT, the program must still run Tesseract under a limit of 1.
        let output = try CLI.run(["doctor", "--json"], environment: ["OMP_THREAD_LIMIT": nil])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(report["openMPThreadLimit"] as? Int == 1)
        #expect(report["ok"] as? Bool == true, "\(output.stdout)")
    }

    @Test func helpTeaches() throws {
        let root = try CLI.run(["--help"])
        #expect(root.stdout.contains("ingest"))
        let ingest = try CLI.run(["ingest", "--help"])
        for option in ["--jobs", "--json", "--out", "--library"] { #expect(ingest.stdout.contains(option)) }
    }

    @Test func missingPathsAndEmptyFoldersAreExplained() throws {
        try withTemporaryDirectory { dir in
            let output = try CLI.run(["ingest", "--library", dir.path, dir.appendingPathComponent("finnes-ikke").path])
            #expect(output.status == 1)
            #expect(output.stderr.contains("Finner ikke"))
            let english = try CLI.run(["ingest", "--library", dir.path, dir.path], environment: ["LANG": "en_GB.UTF-8"])
            #expect(english.status == 1)
            #expect(english.stderr.contains("Found no images"))
        }
    }
}
