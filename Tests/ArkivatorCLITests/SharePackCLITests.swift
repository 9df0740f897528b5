import Foundation
import TestSupport
import Testing

/// `share pack` on a real letter (the fixture `clean.png`, whose patient's synthetic number is
/// also the household member's), filed through real OCR: the PDF's text holds no number, the
/// pixels where an independent reading (the `tesseract` program) finds the number's words are
/// one solid dark value on the pack's page, the text for an assistant holds neither the name nor
/// the number, and the archived letter is not changed.
@Suite(.serialized) struct SharePackCLITests {
    static let number = "17097243859"
    static let name = "Ingrid Marie Haugseth"

    static func expectNone(in text: String, _ label: String) {
        #expect(!text.contains(number) && !text.contains(number.prefix(6) + " " + number.suffix(5)), "\(label) holds the number")
    }

    /// Every file under `folder`, with its bytes.
    static func files(_ folder: URL) -> [String: Data] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var found: [String: Data] = [:]
        for case let url as URL in walker?.allObjects ?? [] where ["jpg", "jpeg", "pdf", "docx"].contains(url.pathExtension) {
            found[url.path] = try? Data(contentsOf: url)
        }
        return found
    }

    /// The boxes (x, y, width, height) of the words `tesseract` reads on `image` whose digits are
    /// four or more of the number's, in a row.
    static func numberWords(on image: URL) throws -> [[Int]] {
        let tsv = try OutsideTool.run("tesseract", [image.path, "-", "-l", "nor", "tsv"])
        #expect(tsv.status == 0)
        return tsv.stdout.split(separator: "\n").compactMap { row in
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 12, cells[0] == "5", let box = Optional(cells[6...9].compactMap { Int($0) }), box.count == 4 else { return nil }
            let digits = cells[11].filter { $0.isASCII && $0.isNumber }
            return digits.count >= 4 && number.contains(digits) ? box : nil
        }
    }

    /// A binary PGM (`pdftoppm -gray`): width, height and one byte a pixel.
    static func pgm(_ url: URL) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let bytes = [UInt8](try Data(contentsOf: url))
        var fields: [Int] = []
        var at = 2
        while fields.count < 3, at < bytes.count {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
            var value = 0
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { value = value * 10 + Int(bytes[at] - 0x30); at += 1 }
            fields.append(value)
        }
        at += 1
        #expect(bytes.starts(with: Array("P5".utf8)) && fields.count == 3 && fields[2] == 255)
        return (fields[0], fields[1], Array(bytes[min(at, bytes.count)...]))
    }

    @Test func thePackHidesTheNumberOnThePageAndInTheTextAndLeavesTheArchiveAsItWas() throws {
        guard OutsideTool.which("pdftotext") != nil, OutsideTool.which("pdftoppm") != nil, OutsideTool.which("tesseract") != nil else {
            Issue.record("poppler-utils and tesseract are needed")
            return
        }
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let added = try CLI.run(["family", "add", Self.name, "--fnr", Self.number], library: library)
            #expect(added.status == 0, "\(added.stderr)")
            let scan = dir.appendingPathComponent("henvisning.png")
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: scan)
            let ingest = try CLI.run(["ingest", scan.path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            let id = try #require(try CLI.list(library).first?["id"] as? String)
            let archived = Self.files(library)
            let page = try #require(archived.keys.first { $0.contains("/Arkiv/") && ($0.hasSuffix(".jpg") || $0.hasSuffix(".jpeg")) })

            let pdf = dir.appendingPathComponent("til legen.pdf"), text = dir.appendingPathComponent("til assistenten.txt")
            let share = try CLI.run(["share", "pack", id, "--out", pdf.path, "--text", text.path], library: library)
            #expect(share.status == 0, "\(share.stderr)")
            #expect(share.stdout.contains("1 brev, 2 sider"), "\(share.stdout)")
            #expect(share.stderr.contains("Leser sidene på nytt: 1 av 1"), "\(share.stderr)")
            Self.expectNone(in: share.stdout + share.stderr, "the lines printed")
            #expect(Self.files(library) == archived, "the archived letter is not changed")

            // The PDF's text: the cover names the person by name and birth date, the letter's
            // text is there, the number is not.
            let shown = try OutsideTool.run("pdftotext", ["-enc", "UTF-8", pdf.path, "-"]).stdout
            Self.expectNone(in: shown, "pdftotext")
            #expect(shown.contains("\(Self.name), født 17.09.1972"), "\(shown)")
            #expect(shown.contains("Innhold") && shown.contains("Henvisning") && shown.contains("føflekk"), "\(shown)")

            // The page image: where tesseract reads the number's words on the archived page, the
            // pack's page is one solid dark value.
            let boxes = try Self.numberWords(on: URL(fileURLWithPath: page))
            #expect(boxes.reduce(0) { $0 + $1[2] } > 0, "tesseract finds the number on the archived page")
            let render = try OutsideTool.run("pdftoppm", ["-f", "2", "-l", "2", "-r", "300", "-gray", pdf.path,
                                                          dir.appendingPathComponent("side").path])
            #expect(render.status == 0)
            let rendered = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("side") })
            let image = try Self.pgm(dir.appendingPathComponent(rendered))
            for box in boxes {
                var values = Set<UInt8>()
                for y in box[1]..<min(image.height, box[1] + box[3]) {
                    for x in box[0]..<min(image.width, box[0] + box[2]) { values.insert(image.pixels[y * image.width + x]) }
                }
                #expect(values.count == 1 && (values.first ?? 255) < 40, "the box \(box) is solid: \(values.sorted())")
            }

            // The text for an assistant: names and numbers replaced, the letter kept.
            let bundle = try String(contentsOf: text, encoding: .utf8)
            Self.expectNone(in: bundle, "the text bundle")
            #expect(!bundle.contains("Haugseth") && !bundle.contains("Ingrid") && !bundle.contains("170972"), "\(bundle)")
            #expect(bundle.contains("[NAVN-") && bundle.contains("[FNR") && bundle.contains("Type: Henvisning")
                    && bundle.contains("føflekk"), "\(bundle)")

            let unknown = try CLI.run(["share", "pack", "ffffffffff", "--out", dir.appendingPathComponent("x.pdf").path], library: library)
            #expect(unknown.status == 1 && unknown.stderr.contains("Fant ikke"), "\(unknown.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.pdf").path))
        }
    }
}
