import Foundation
import TestSupport
import Testing

/// `ingest` files every document: .docx, page JPEGs and a searchable PDF in the person's folder,
/// checked with readers that are not ours (python-docx, LibreOffice, pdftotext).
@Suite(.serialized) struct ArchiveTests {
    @Test func filesDocumentsPerPersonAndTheyReadBack() throws {
        let fnr = try #require(try Fixtures.json("clean.json")["fnr"] as? String)
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek").path
            let family = dir.appendingPathComponent("familie.json")
            try Data("""
                {"members": [{"name": "Ingrid Haugseth", "personnummer": "\(fnr)"}, {"name": "Bjørg Ødegård"}]}
                """.utf8).write(to: family)
            #expect(try CLI.run(["family", "import", family.path, "--library", library]).status == 0)
            let inputs = ["clean.png", "photo.jpg", "twopage.tif", "skew-neg.jpg"].map { Fixtures.url($0).path }
            let output = try CLI.run(["ingest", "--json", "--library", library] + inputs)
            #expect(output.status == 0, "\(output.stderr)")
            let records = try CLI.records(output)
            let pred = dir.appendingPathComponent("pred.jsonl")
            try Data(output.stdout.utf8).write(to: pred)

            // Layout: person folders, Dokumenter/ and Bilder/, " - side N" for more pages.
            let archive = URL(fileURLWithPath: library).appendingPathComponent("Arkiv")
            for record in records {
                let files = try #require(record["files"] as? [String: Any])
                let docx = try #require(files["docx"] as? String)
                let images = try #require(files["images"] as? [String])
                let pdf = try #require(files["pdf"] as? String)
                let person = (record["familyMember"] as? String) ?? "Ukjent person"
                #expect(docx.hasPrefix(archive.appendingPathComponent(person).appendingPathComponent("Dokumenter").path))
                #expect(pdf.hasPrefix(archive.appendingPathComponent(person).appendingPathComponent("Bilder").path))
                #expect(images.count == (record["pages"] as? Int))
                if images.count > 1 { #expect(images[1].hasSuffix(" - side 2.jpeg")) }
                let title = try #require(record["title"] as? String)
                #expect(URL(fileURLWithPath: docx).lastPathComponent == title + ".docx")
                for file in [docx, pdf] + images { #expect(FileManager.default.fileExists(atPath: file)) }
            }
            #expect(records.contains { $0["familyMember"] as? String == "Ingrid Haugseth" })
            #expect(records.contains { $0["familyMember"] as? String == "Bjørg Ødegård" })

            // The independent readers.
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            var arguments = ["python3", Fixtures.root.appendingPathComponent("scripts/test/check_archive.py").path, pred.path,
                             "--fnr-file", family.path]
            let hasLibreOffice = FileManager.default.isExecutableFile(atPath: "/usr/bin/soffice")
            if hasLibreOffice { arguments.append("--libreoffice") }
            check.arguments = arguments
            let out = Pipe()
            check.standardOutput = out
            check.standardError = out
            try check.run()
            let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            check.waitUntilExit()
            #expect(check.terminationStatus == 0, "\(report)")
            #expect(report.contains(" 0 failed"), "\(report)")
            #expect(hasLibreOffice, "LibreOffice is missing: make test installs it (libreoffice-writer-nogui)")

            // The same document again is not filed twice: the library already has it.
            let again = try CLI.run(["ingest", "--json", "--library", library, inputs[0]])
            let repeated = try #require(try CLI.records(again).first)
            #expect(repeated["libraryStatus"] as? String == "duplicate")
            #expect(repeated["files"] is NSNull)
        }
    }
}
