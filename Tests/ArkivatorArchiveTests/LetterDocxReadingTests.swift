import ArkivatorArchive
import ArkivatorCore
import Foundation
import TestSupport
import Testing

/// A `.docx` arkivator wrote, read back: what a restored library adopts from its archive.
@Suite struct LetterDocxReadingTests {
    @Test func readsBackWhatWasWritten() throws {
        let sha = String(repeating: "ab", count: 32)
        let letter = LetterDocx(
            title: "2024-03-14 Innkalling <hofte> & kne", date: "2024-03-14", institution: "Haukeland universitetssjukehus",
            specialty: "Ortopedi", person: "Kari Nordmann", docType: "innkalling", documentDate: "2024-03-14",
            scanDate: "2024-03-20", keywords: ["hofte", "kne"], ocrConfidence: 0.912, sha256: sha,
            text: "Innkalling til time\nOrtopedisk poliklinikk\n\nMøt opp kl. 09:30 «presis»\tVelkommen",
            lowConfidence: [(start: 0, length: 5)], sourceName: "brev · 1.jpg", programVersion: "0.9")
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("brev.docx")
            try Data(try DocxWriter(content: letter.content()).data()).write(to: url)
            let read = try #require(try LetterDocx.read(from: url))
            #expect(read.title == letter.title && read.sha256 == sha && read.text == letter.text)
            #expect(read.person == "Kari Nordmann" && read.docType == "innkalling" && read.institution == letter.institution)
            #expect(read.specialty == "Ortopedi" && read.documentDate == "2024-03-14" && read.scanDate == "2024-03-20")
            #expect(read.keywords == ["hofte", "kne"] && read.ocrConfidence == 0.912)
            #expect(read.sourceName == "brev · 1.jpg" && read.programVersion == "0.9")

            // Not one of arkivator's: nil; not a zip: an error.
            let other = dir.appendingPathComponent("annen.docx")
            try Data(try ZipWriter.archive([(path: "word/document.xml", data: Array("<w:document/>".utf8))])).write(to: other)
            #expect(try LetterDocx.read(from: other) == nil)
            let junk = dir.appendingPathComponent("tull.docx")
            try Data("ikke en zip".utf8).write(to: junk)
            #expect(throws: ZipError.self) { try LetterDocx.read(from: junk) }
        }
    }
}
