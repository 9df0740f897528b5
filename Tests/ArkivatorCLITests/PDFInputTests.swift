import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// PDFs as a scanner's "scan to folder" makes them: pages rendered at 300 DPI in process and
/// read like images; locked, broken and absurd PDFs refused in one sentence each.
@Suite(.serialized) struct PDFInputTests {
    @Test func aThreePageScannedPDFIsOneDocumentReadLikeItsImages() throws {
        try withTemporaryDirectory { dir in
            let page = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first).grayscale()
            let jpeg = try page.jpegData(quality: 85)
            let pdf = dir.appendingPathComponent("skann.pdf")
            try Data(PDFMaker.scanned(Array(repeating: (jpeg, page.width, page.height), count: 3))).write(to: pdf)
            let output = try CLI.run(["ingest", "--json", "--library", dir.appendingPathComponent("bibliotek").path, pdf.path])
            #expect(output.status == 0, "\(output.stderr)")
            let records = try CLI.records(output)
            #expect(records.count == 1)
            let record = try #require(records.first)
            #expect(record["pages"] as? Int == 3)
            let pages = (record["text"] as? String ?? "").components(separatedBy: "\u{0C}")
            #expect(pages.count == 3)
            let truth = try Fixtures.text("clean.txt")
            for text in pages {
                let cer = characterErrorRate(truth: truth, predicted: text)
                #expect(cer < 0.06, "CER \(cer)")
            }
            #expect((record["files"] as? [String: Any])?["images"] as? [String] != nil)
        }
    }

    @Test func lockedBrokenAndAbsurdPDFsAreRefusedInLittleMemory() throws {
        try withTemporaryDirectory { dir in
            let good = Fixtures.url("clean.png").path
            let whole = PDFMaker.blank(pages: 2)
            let plain = dir.appendingPathComponent("åpen.pdf"), locked = dir.appendingPathComponent("låst.pdf")
            try Data(whole).write(to: plain)
            // Encrypted by qpdf, as a bank or a health portal would send it.
            let qpdf = Process()
            qpdf.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
            qpdf.arguments = ["--encrypt", "bruker", "eier", "256", "--", plain.path, locked.path]
            try qpdf.run()
            qpdf.waitUntilExit()
            #expect(qpdf.terminationStatus == 0)
            let cut = dir.appendingPathComponent("avkuttet.pdf")
            try Data(whole.prefix(whole.count - 40)).write(to: cut)
            // A PDF's start and end around bytes poppler cannot make sense of.
            let broken = dir.appendingPathComponent("skadet.pdf")
            try Data("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\nsøppel\n%%EOF\n".utf8).write(to: broken)
            let many = dir.appendingPathComponent("ti-tusen.pdf")
            try Data(PDFMaker.blank(pages: 10_000)).write(to: many)
            let huge = dir.appendingPathComponent("enorm.pdf")
            try Data(PDFMaker.blank(pages: 1, width: 100_000, height: 100_000)).write(to: huge)
            // 30 pages each just under the page budget at 300 DPI (59 megapixels): 1.8 gigapixels in all.
            let heavy = dir.appendingPathComponent("tunge-sider.pdf")
            try Data(PDFMaker.blank(pages: 30, width: 1700, height: 2000)).write(to: heavy)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["-f", "maxrss-kb=%M", CLI.executable.path, "ingest", "--json", "--no-archive",
                                 "--library", dir.appendingPathComponent("bibliotek").path,
                                 locked.path, cut.path, broken.path, many.path, huge.path, heavy.path, good]
            process.environment = CLI.environment()
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1, "\(stderr)")
            let records = try CLI.records(CLI.Output(status: 0, stdout: stdout, stderr: ""))
            #expect(records.map { $0["errorCode"] as? String }
                == ["encrypted", "truncated", "undecodable", "tooManyPages", "pageSize", "tooLarge", nil])
            #expect((records.first?["error"] as? String)?.contains("låst med passord") == true)
            #expect((records[2]["error"] as? String)?.hasPrefix("PDF-en er skadet") == true, "\(records[2])")
            #expect((records[4]["error"] as? String)?.contains("ikke en ekte sidestørrelse") == true, "\(records[4])")
            #expect((records[4]["error"] as? String)?.contains("oppløsning") == false, "\(records[4])")
            #expect((records[5]["error"] as? String)?.contains("til sammen for mange piksler") == true, "\(records[5])")
            let line = try #require(stderr.split(separator: "\n").last { $0.hasPrefix("maxrss-kb=") })
            let kilobytes = try #require(Int(line.dropFirst("maxrss-kb=".count)))
            #expect(kilobytes <= 400 * 1024, "peak RSS \(kilobytes / 1024) MB")
        }
    }
}
