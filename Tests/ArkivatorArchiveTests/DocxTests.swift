import ArkivatorCore
@testable import ArkivatorArchive
import Foundation
import PropertyBased
import TestSupport
import Testing

/// The text of a made-up letter: two pages, Norwegian letters, XML specials, a tab, a control
/// character (removed), an emoji (kept), CR LF, a whitespace-only line and a form feed.
private let letterText = """
    Innkalling til poliklinisk time\nNevrologisk avdeling, Haukeland\n\n\
    Kjære Kari Nordmann,\ndu har fått time 3. desember kl. 09:30.\n  \n\
    Pris: 375 kr & <mer> "info" 'her'\nKol1\tKol2\nKontroll\u{1}tegn fjernet 😀 emoji beholdt\r\nNeste linje\n\n\n\
    \u{0C}Side 2: Ærbødigst, Øystein Ås\n
    """

/// Its paragraphs, as a reader should see them.
private let letterParagraphs = [
    "Innkalling til poliklinisk time\nNevrologisk avdeling, Haukeland",
    "Kjære Kari Nordmann,\ndu har fått time 3. desember kl. 09:30.",
    "Pris: 375 kr & <mer> \"info\" 'her'\nKol1\tKol2\nKontrolltegn fjernet 😀 emoji beholdt\nNeste linje",
    "Side 2: Ærbødigst, Øystein Ås",
]

/// The low-confidence words, in order.
private let unsureWords = ["poliklinisk", "fått", "<mer>", "Kol1", "Kol2", "😀", "Øystein"]

/// Where `word` first occurs in `text`, in Unicode scalars (as `lowConfidenceWords` count).
private func scalarRange(of word: String, in text: String) -> (start: Int, length: Int)? {
    let haystack = Array(text.unicodeScalars), needle = Array(word.unicodeScalars)
    guard needle.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
        return (start, needle.count)
    }
    return nil
}

private let created = Date(timeIntervalSince1970: 1_763_633_700)  // 2025-11-20T10:15:00Z

private let properties: [(name: String, value: String)] = [
    ("person", "Kari Nordmann"),
    ("docType", "innkalling"),
    ("institution", "Haukeland universitetssjukehus"),
    ("specialty", "Nevrologi & nevrokirurgi <poliklinikk>"),
    ("documentDate", "2025-11-03"),
    ("scanDate", "2025-11-20"),
    ("keywords", "innkalling, nevrologi, MR, Haukeland"),
    ("ocrConfidence", "0.91"),
    ("sourceSHA256", "9f2c4e0b7d1a6f3e8c5b2a9d4e7f1c3b6a8d0e2f4c6b8a1d3e5f7a9c0b2d4e6f"),
]

private func letter() throws -> DocxContent {
    let ranges = try unsureWords.map { try #require(scalarRange(of: $0, in: letterText)) }
    return DocxContent(
        title: "2025-11-03 Innkalling nevrologisk poliklinikk",
        headerFields: [("Dato", "2025-11-03"), ("Avsender", "Haukeland universitetssjukehus"),
                       ("Person", "Kari Nordmann"), ("Merknad", ""), ("Type", "innkalling")],
        paragraphs: DocxContent.paragraphs(fromText: letterText, lowConfidence: ranges),
        footer: "Skannet 2025-11-20 · Arkivator 0.1 · brev_p1.jpg",
        created: created,
        customProperties: properties)
}

/// `scripts/test/read_docx.py` on `url`: fails (never skips) when python3 or python-docx is missing.
private func readDocx(_ url: URL) throws -> [String: Any] {
    try ExternalTool.requirePython(docx: true)
    let script = ExternalTool.root.appendingPathComponent("scripts/test/read_docx.py").path
    let result = try ExternalTool.run("python3", [script, url.path])
    guard result.status == 0 else {
        throw ExternalTool.Failure(description: "read_docx.py failed (\(result.status)): \(result.stderr)")
    }
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
}

@Suite struct DocxTests {
    // MARK: Read back by python-docx

    @Test func pythonDocxReadsParagraphsHighlightsPropertiesHeaderAndFooter() throws {
        try withTemporaryDirectory { dir in
            let content = try letter()
            let url = dir.appendingPathComponent("brev.docx")
            try DocxWriter(content: content).write(to: url)
            let read = try readDocx(url)

            #expect(read["paragraphs"] as? [String] == [content.title] + letterParagraphs)
            #expect(read["highlighted"] as? [String] == unsureWords)
            #expect(read["custom"] as? [String: String] == Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.value) }))
            let core = try #require(read["core"] as? [String: Any])
            #expect(core["title"] as? String == content.title)
            #expect(core["created"] as? String == "2025-11-20T10:15:00Z")
            #expect(read["header"] as? String ==
                "Dato: 2025-11-03 · Avsender: Haukeland universitetssjukehus · Person: Kari Nordmann · Type: innkalling")
            #expect(read["footer"] as? String == content.footer)
        }
    }

    @Test func anEmptyDocumentIsStillReadable() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("tom.docx")
            try Data(DocxWriter(content: DocxContent(title: "", created: created)).data()).write(to: url)
            let read = try readDocx(url)
            #expect(read["paragraphs"] as? [String] == [""])
            #expect(read["highlighted"] as? [String] == [])
            #expect(read["custom"] as? [String: String] == [:])
            #expect(read["header"] as? String == "" && read["footer"] as? String == "")
        }
    }

    @Test func everyPartIsThereContentTypesFirstAndAllXMLIsWellFormed() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("brev.docx")
            let writer = DocxWriter(content: try letter())
            try writer.write(to: url)
            #expect(try [UInt8](Data(contentsOf: url)) == writer.data(), "file and memory give the same bytes")
            #expect(try writer.data() == writer.data(), "the same content gives the same bytes")

            let checker = """
                import json, sys, zipfile, xml.etree.ElementTree as ET
                z = zipfile.ZipFile(sys.argv[1])
                for name in z.namelist(): ET.fromstring(z.read(name))
                custom = ET.fromstring(z.read("docProps/custom.xml"))
                app = ET.fromstring(z.read("docProps/app.xml"))
                print(json.dumps({"names": z.namelist(), "bad": z.testzip(),
                    "pids": [p.get("pid") for p in custom], "fmtids": sorted({p.get("fmtid") for p in custom}),
                    "types": [p[0].tag.split("}")[1] for p in custom],
                    "app": [e.text for e in app if e.tag.endswith("Application")]}))
                """
            let zip = try #require(try ExternalTool.python(checker, [url.path]) as? [String: Any])
            #expect(zip["names"] as? [String] == [
                "[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/_rels/document.xml.rels",
                "word/styles.xml", "word/header1.xml", "word/footer1.xml",
                "docProps/core.xml", "docProps/app.xml", "docProps/custom.xml",
            ])
            #expect(zip["bad"] is NSNull)
            #expect(zip["pids"] as? [String] == (2..<(2 + properties.count)).map(String.init))
            #expect(zip["fmtids"] as? [String] == ["{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"])
            #expect(zip["types"] as? [String] == Array(repeating: "lpwstr", count: properties.count))
            #expect(zip["app"] as? [String] == ["Arkivator"])
        }
    }

    // MARK: LibreOffice

    static let soffice = ExternalTool.which("soffice")

    @Test(.enabled(if: soffice != nil, "LibreOffice (soffice) is not installed"), .timeLimit(.minutes(3)))
    func libreOfficeConvertsTheDocumentToPDF() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("brev.docx")
            let content = try letter()
            try DocxWriter(content: content).write(to: url)
            // Its own profile, so a running LibreOffice (or another test) does not interfere.
            let profile = dir.appendingPathComponent("lo-profile").absoluteString
            let result = try ExternalTool.run("soffice", [
                "-env:UserInstallation=\(profile)", "--headless", "--convert-to", "pdf", "--outdir", dir.path, url.path,
            ], timeout: 150)
            print("LibreOffice converted the .docx to PDF in \(String(format: "%.1f", result.seconds)) s")
            #expect(result.status == 0, "\(result.stderr)")
            let pdf = dir.appendingPathComponent("brev.pdf")
            let size = (try? FileManager.default.attributesOfItem(atPath: pdf.path)[.size] as? Int) ?? 0
            #expect(size > 0, "no PDF: \(result.stdout) \(result.stderr)")
            if ExternalTool.which("pdftotext") != nil, size > 0 {
                let text = try ExternalTool.run("pdftotext", ["-enc", "UTF-8", pdf.path, "-"])
                #expect(text.stdout.contains(content.title), "\(text.stdout)")
                #expect(text.stdout.contains("Ærbødigst, Øystein Ås"))
            }
        }
    }

    // MARK: Paragraphs from text

    @Test func paragraphsSplitAtBlankLinesAndFormFeedsAndKeepLineBreaks() {
        let paragraphs = DocxContent.paragraphs(fromText: letterText)
        #expect(paragraphs.map { $0.map(\.text).joined() } == letterParagraphs)
        #expect(paragraphs.allSatisfy { $0.count == 1 && !$0[0].highlighted })

        #expect(DocxContent.paragraphs(fromText: "").isEmpty)
        #expect(DocxContent.paragraphs(fromText: "\n \n\u{0C}\t\n").isEmpty)
        #expect(DocxContent.paragraphs(fromText: "a\u{0C}b").map { $0.map(\.text) } == [["a"], ["b"]])
        #expect(DocxContent.paragraphs(fromText: "a\r\nb\rc\u{2028}d\u{2029}e").map { $0.map(\.text) } == [["a\nb\nc\nd"], ["e"]])
        #expect(DocxContent.paragraphs(fromText: "\u{1}\n\u{B}x\u{FFFE}y\u{FFFF}\n\u{7}").map { $0.map(\.text) } == [["xy"]])
        #expect(DocxContent.paragraphs(fromText: "  innrykk  \n\tog tab ").map { $0.map(\.text) } == [["  innrykk  \n\tog tab "]])
    }

    @Test func highlightsCoverExactlyTheGivenScalars() {
        // "å" is one scalar; the combining ring in "å" is a second one.
        let text = "Blå a\u{30A}l ord 👩‍👩‍👧 slutt"
        func runs(_ ranges: [(start: Int, length: Int)]) -> [String] {
            DocxContent.paragraphs(fromText: text, lowConfidence: ranges).flatMap { $0 }.map(\.description)
        }
        #expect(runs([(2, 1)]) == ["Bl", "[å]", " a\u{30A}l ord 👩‍👩‍👧 slutt"])
        #expect(runs([(4, 3)]) == ["Blå ", "[a\u{30A}l]", " ord 👩‍👩‍👧 slutt"])
        #expect(runs([(4, 2)]) == ["Blå ", "[a\u{30A}]", "l ord 👩‍👩‍👧 slutt"], "splits inside a grapheme when told to")
        #expect(runs([(12, 5)]) == ["Blå a\u{30A}l ord ", "[👩‍👩‍👧]", " slutt"])
        #expect(runs([(0, 3), (3, 1)]) == ["[Blå ]", "a\u{30A}l ord 👩‍👩‍👧 slutt"], "adjacent ranges merge")
        #expect(runs([(-5, 7)]) == ["[Bl]", "å a\u{30A}l ord 👩‍👩‍👧 slutt"], "the part before the text is ignored")
        #expect(runs([(18, 100)]) == ["Blå a\u{30A}l ord 👩‍👩‍👧 ", "[slutt]"], "the part after the text is ignored")
        #expect(runs([(40, 3), (3, 0), (5, -2), (Int.max, Int.max)]) == [text], "empty and outside ranges do nothing")
        #expect(runs([(0, Int.max)]) == ["[\(text)]"])
    }

    @Test func aHighlightedLineEndStaysInsideTheHighlightedRun() {
        let paragraphs = DocxContent.paragraphs(fromText: "en to\ntre fire", lowConfidence: [(3, 5)])
        #expect(paragraphs == [[DocxRun("en "), DocxRun("to\ntr", highlighted: true), DocxRun("e fire")]])
    }

    /// Words joined by random separators, some words marked: the highlighted runs are exactly the
    /// marked words and the words come back in order, whatever the separators.
    @Test func highlightedRunsAreExactlyTheMarkedWords() async {
        let words = ["Kari", "æøå", "&amp;", "<b>", "\"sitat\"", "l'eau", "😀", "09:30", "A\u{30A}se", "x"]
        let separators = [" ", "\t", "\n", "\n\n", "\n \n", "\u{0C}", "\r\n", " \u{1} ", "  ", "\u{2028}"]
        await propertyCheck(count: 300, input: Gen.int(in: 0...(words.count * separators.count * 2 - 1)).array(of: 1...15)) { picks in
            var text = ""
            var ranges: [(start: Int, length: Int)] = []
            var marked: [String] = []
            var expectedWords: [String] = []
            for (number, pick) in picks.enumerated() {
                let word = words[pick % words.count]
                let separator = separators[(pick / words.count) % separators.count]
                if number > 0 { text += separator }
                if pick / (words.count * separators.count) == 1 {
                    ranges.append((text.unicodeScalars.count, word.unicodeScalars.count))
                    marked.append(word)
                }
                text += word
                expectedWords.append(word)
            }
            let paragraphs = DocxContent.paragraphs(fromText: text, lowConfidence: ranges)
            let runs = paragraphs.flatMap { $0 }
            #expect(runs.filter(\.highlighted).map(\.text) == marked, "\(text.debugDescription)")
            let found = paragraphs.flatMap { $0.map(\.text).joined().split(whereSeparator: \.isWhitespace).map(String.init) }
            #expect(found == expectedWords, "\(text.debugDescription)")
            #expect(runs.allSatisfy { !$0.text.isEmpty && !$0.text.unicodeScalars.contains { !DocxXML.isAllowed($0) } })
            #expect(runs.allSatisfy { !$0.text.contains("\u{0C}") && !$0.text.contains("\r") })
            for paragraph in paragraphs {
                #expect(zip(paragraph, paragraph.dropFirst()).allSatisfy { $0.highlighted != $1.highlighted }, "runs alternate")
            }
        }
    }

    // MARK: XML

    @Test func textIsEscapedAndForbiddenCharactersRemoved() {
        #expect(DocxXML.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(DocxXML.escape("x\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}\u{FFFE}\u{FFFF}y") == "xy")
        #expect(DocxXML.escape("tab\tlf\ncr\r") == "tab&#9;lf&#10;cr&#13;")
        #expect(DocxXML.escape("æøå 😀 \u{7F} \u{E000} \u{10FFFF}") == "æøå 😀 \u{7F} \u{E000} \u{10FFFF}")
        #expect(DocxXML.run("a\tb\r\nc\u{0C}d", properties: "<w:b/>") ==
            #"<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">a</w:t><w:tab/><w:t xml:space="preserve">b</w:t><w:br/>"#
            + #"<w:t xml:space="preserve">c</w:t><w:br w:type="page"/><w:t xml:space="preserve">d</w:t></w:r>"#)
        #expect(DocxXML.run("\u{1}") == "", "a run with nothing to show is left out")
        #expect(DocxXML.run(DocxRun(" ord ", highlighted: true)) ==
            #"<w:r><w:rPr><w:highlight w:val="yellow"/></w:rPr><w:t xml:space="preserve"> ord </w:t></w:r>"#)
    }

    @Test func customPropertiesKeepFirstOrderAndLastValue() {
        let content = DocxContent(title: "t", customProperties: [("a", "1"), ("", "x"), ("b", "2"), ("a", "3")])
        let unique = DocxWriter(content: content).uniqueCustomProperties
        #expect(unique.map(\.name) == ["a", "b"] && unique.map(\.value) == ["3", "2"])
    }

    @Test func createdIsW3CDTFInUTC() {
        #expect(DocxWriter.w3cdtf(created) == "2025-11-20T10:15:00Z")
        #expect(DocxWriter.w3cdtf(Date(timeIntervalSince1970: 0.9)) == "1970-01-01T00:00:00Z")
    }
}
