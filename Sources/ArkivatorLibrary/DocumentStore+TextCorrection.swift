import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DocumentStore {
    /// Replaces a document's text with a person's correction, everywhere it is kept: the stored
    /// text (fødselsnumre masked and sealed, as for OCR text), the index, the `.docx` and the
    /// searchable PDF's invisible text (see ``SearchablePDF/replacingText(_:)``), and keeps it as
    /// a version (the OCR's own reading is kept first). A masked number (`DDMMYY •••••`) the
    /// text showed stands for the number it hid. `maskNumbers` (a redacted letter) masks every
    /// number in all copies. Low-confidence marks stay on the words left as they were, and a
    /// keyword that was a changed word follows it (see ``keywords(_:from:to:)``). A text
    /// without page breaks (form feeds) gets the letter's back where its lines go on to the next page.
    @discardableResult
    public func correctText(_ id: String, to text: String, maskNumbers: Bool = false,
                            programVersion: String) throws -> TextCorrection {
        try StoredField.text.check(text)
        let document = try self.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        // A text without page breaks (a file made from `show --text`) gets the letter's back.
        let paged = LineAlignment.withPageBreaks(Self.normalizedText(text), like: document.text)
        var corrected = Self.revealingNumbers(Self.normalizedText(paged), from: document.text)
        if maskNumbers { corrected = Redaction.redact(corrected) }
        guard corrected != document.text else {
            return TextCorrection(document: try self.document(document.sha256), changed: false, pdfRewritten: false)
        }
        let diff = TextDiff(from: document.text, to: corrected)
        return try replaceText(of: document, with: corrected, lowConfidence: diff.mapped(document.lowConfidence),
                               numberMarks: NumberMark.mapped(document.numberMarks, through: diff), kind: .corrected,
                               programVersion: programVersion)
    }

    /// Brings back the OCR's own reading (with its low-confidence marks) everywhere the text is
    /// kept, as a new version. Nothing changes when the text was never corrected or is the
    /// OCR's reading already.
    @discardableResult
    public func restoreOCRText(_ id: String, maskNumbers: Bool = false, programVersion: String) throws -> TextCorrection {
        let document = try self.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let reading = try library.withReader { database -> (String, [LibraryDocument.TextRange], [NumberMark]?)? in
            guard let row = try database.firstRow("""
                SELECT text, fnr_sealed, low_confidence, number_marks FROM text_versions WHERE document_id = ? AND kind = 'ocr'
                ORDER BY id LIMIT 1
                """, [document.number]) else { return nil }
            let text = try SealedText(masked: row[0].string ?? "", sealed: row[1].data, count: 0).open(document: document.sha256, key: library.key)
            return (text, Self.ranges(row[2].string), NumberMark.marks(row[3].string))
        }
        guard let (stored, low, marks) = reading else {
            return TextCorrection(document: try self.document(document.sha256), changed: false, pdfRewritten: false)
        }
        let text = maskNumbers ? Redaction.redact(stored) : stored
        guard text != document.text || low != document.lowConfidence else {
            return TextCorrection(document: try self.document(document.sha256), changed: false, pdfRewritten: false)
        }
        return try replaceText(of: document, with: text, lowConfidence: low, numberMarks: marks, kind: .restored,
                               programVersion: programVersion)
    }

    /// The readings of a document's text, oldest first; empty when it was never corrected.
    public func textVersions(_ id: String) throws -> [TextVersion] {
        try library.withReader { database in
            let row = try resolve(id, in: database)
            var versions: [TextVersion] = []
            var previous: String?
            for version in try database.rows(
                "SELECT kind, text, created_at FROM text_versions WHERE document_id = ? ORDER BY id", [row]) {
                // Masked as the document's own text is when read.
                let text = Redaction.redact(version[1].string ?? "")
                let changes = previous.map { TextDiff(from: $0, to: text).changes } ?? []
                versions.append(TextVersion(kind: TextVersion.Kind(rawValue: version[0].string ?? "") ?? .corrected,
                                            createdAt: version[2].string ?? "", changes: changes))
                previous = text
            }
            return versions
        }
    }

    /// Writes the new `.docx` and PDF under temporary names, then in one transaction records the
    /// text, its index and the version, and turns the intent into a `publish` of those files;
    /// then puts them in place. A crash before the commit leaves the old text and files (the
    /// temporaries are removed at the next start); after it, the next start puts the new files
    /// in place (see ``undo(intent:in:)``).
    private func replaceText(of document: LibraryDocument, with text: String, lowConfidence: [LibraryDocument.TextRange],
                             numberMarks: [NumberMark]?, kind: TextVersion.Kind, programVersion: String) throws -> TextCorrection {
        var updated = document
        updated.text = text
        updated.lowConfidence = lowConfidence
        updated.numberMarks = numberMarks
        updated.keywords = Self.keywords(document.keywords, from: document.text, to: text)
        var writes: [(bytes: [UInt8], target: URL)] = []
        if let docx = document.files.docx {
            writes.append((try DocumentFiling(programVersion: programVersion).docx(for: updated), docx.url))
        }
        if let pdf = document.files.pdf, let bytes = try? [UInt8](Data(contentsOf: pdf.url)),
           var searchable = SearchablePDF(reading: bytes) {
            searchable = searchable.replacingText(text)
            searchable.title = Redaction.redact(document.title)
            writes.append((searchable.data(), pdf.url))
        }
        let moves = writes.map { (from: AtomicFile.makeTemporaryURL(beside: $0.target), to: $0.target) }
        let intent = try library.beginIntent("file", paths: moves.map { library.paths.stored($0.from.path) })
        var published = false
        defer { if published { library.endIntent(intent) } }
        do {
            for (write, move) in zip(writes, moves) { try AtomicFile.write(write.bytes, to: move.from) }
            let sealed = try SealedText.seal(text, document: document.sha256, key: library.key)
            let ranges = Self.rangesJSON(lowConfidence)
            let marks = try NumberMark.json(numberMarks.map(NumberMark.redacted))
            let pairs = String(decoding: try JSONEncoder().encode(moves.map { [library.paths.stored($0.from.path), library.paths.stored($0.to.path)] }),
                               as: UTF8.self)
            try library.withDatabase { database in
                do {
                    try database.inTransaction {
                        let id = document.number
                        try database.execute("""
                            INSERT INTO text_versions (document_id, kind, text, fnr_sealed, low_confidence, number_marks, created_at)
                            SELECT id, 'ocr', text, fnr_sealed, low_confidence, number_marks, added_at FROM documents
                            WHERE id = ? AND NOT EXISTS (SELECT 1 FROM text_versions WHERE document_id = ?)
                            """, [id, id])
                        try unindex(row: id, in: database)
                        try database.execute("""
                            UPDATE documents SET text = ?, fnr_sealed = ?, fnr_count = ?, low_confidence = ?, keywords = ?,
                                updated_at = ?, number_marks = ? WHERE id = ?
                            """, [sealed.masked, sealed.sealed, sealed.count, ranges,
                                  Redaction.redact(updated.keywords.joined(separator: ", ")), Library.now(), marks, id])
                        let terms = try index(row: id, in: database)
                        database.knownTerms?.formUnion(terms)
                        try database.execute("""
                            INSERT INTO text_versions (document_id, kind, text, fnr_sealed, low_confidence, number_marks, created_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """, [id, kind.rawValue, sealed.masked, sealed.sealed, ranges, marks, Library.now()])
                        try database.execute("UPDATE filing_intents SET action = 'publish', paths = ? WHERE id = ?", [pairs, intent])
                    }
                } catch {
                    database.knownTerms = nil
                    throw error
                }
            }
        } catch {
            for move in moves { _ = unlink(move.from.path) }
            library.endIntent(intent)
            throw error
        }
        // Committed: the files follow. Should one fail, the intent stays and the next start
        // finishes the step.
        for move in moves { try AtomicFile.publish(temporary: move.from, to: move.to, overwrite: true) }
        published = true
        return TextCorrection(document: try self.document(document.sha256), changed: true,
                              pdfRewritten: writes.contains { $0.target.pathExtension.lowercased() == "pdf" })
    }

    /// The keywords after a correction: one taken from a word the correction changed, and no
    /// longer in the text, becomes the word put in its place (or goes, when the word was only
    /// taken out), so a misread keyword is not found any more than the misread word.
    static func keywords(_ keywords: [String], from old: String, to new: String) -> [String] {
        let strip = CharacterSet.punctuationCharacters.union(.symbols)
        let remaining = Set(TextDiff.words(new).map { $0.text.trimmingCharacters(in: strip).lowercased() })
        var replaced: [String: String] = [:]
        for change in TextDiff(from: old, to: new).changes where !change.removed.contains(" ") && !change.added.contains(" ") {
            replaced[change.removed.trimmingCharacters(in: strip).lowercased()] = change.added.trimmingCharacters(in: strip)
        }
        var result: [String] = []
        for keyword in keywords {
            let key = keyword.lowercased()
            guard let replacement = replaced[key], !remaining.contains(key) else {
                result.append(keyword)
                continue
            }
            if !replacement.isEmpty, !result.contains(where: { $0.lowercased() == replacement.lowercased() }) {
                result.append(replacement)
            }
        }
        return result
    }

    /// The text as a form or a file gives it: line ends as `\n`, no other control characters
    /// than tabs and page breaks, no blanks at the ends of lines, none at the end of a page.
    static func normalizedText(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars {
            if scalar == "\r" {
                kept.append("\n")
            } else if scalar.properties.generalCategory != .control || "\n\t\u{0C}".unicodeScalars.contains(scalar) {
                kept.append(scalar)
            }
        }
        let unified = String(kept)
        return unified.components(separatedBy: "\u{0C}").map { page in
            page.components(separatedBy: "\n").map { line in
                String(line.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }.joined(separator: "\u{0C}")
    }

    /// `text` with each masked fødselsnummer (`DDMMYY •••••`) that stood for one of the numbers
    /// in `original` given back its digits, in order: a person who corrects a word elsewhere keeps
    /// the number the letter holds.
    static func revealingNumbers(_ text: String, from original: String) -> String {
        var hidden = Fodselsnummer.matches(in: original).map { (masked: $0.number.masked, digits: original.scalarSlice($0.range)) }
        guard !hidden.isEmpty, text.contains(Redaction.hiddenDigits) else { return text }
        var result = ""
        var rest = Substring(text)
        while let found = rest.range(of: " " + Redaction.hiddenDigits) {
            let before = rest[..<found.lowerBound]
            let date = String(before.suffix(6))
            if date.count == 6, date.allSatisfy(\.isASCII), date.allSatisfy(\.isNumber),
               let index = hidden.firstIndex(where: { $0.masked == date + " " + Redaction.hiddenDigits }) {
                result += String(before.dropLast(6)) + hidden[index].digits
                hidden.remove(at: index)
            } else {
                result += String(rest[..<found.upperBound])
            }
            rest = rest[found.upperBound...]
        }
        return result + String(rest)
    }

    static func ranges(_ json: String?) -> [LibraryDocument.TextRange] {
        let pairs = (try? JSONDecoder().decode([[Int]].self, from: Data((json ?? "[]").utf8))) ?? []
        return pairs.compactMap { $0.count == 2 ? LibraryDocument.TextRange(start: $0[0], length: $0[1]) : nil }
    }

    static func rangesJSON(_ ranges: [LibraryDocument.TextRange]) -> String {
        "[" + ranges.map { "[\($0.start),\($0.length)]" }.joined(separator: ",") + "]"
    }
}

private extension String {
    /// The characters at `range`, counted in Unicode scalars.
    func scalarSlice(_ range: Range<Int>) -> String {
        let scalars = Array(unicodeScalars)
        guard range.lowerBound >= 0, range.upperBound <= scalars.count else { return "" }
        return String(String.UnicodeScalarView(scalars[range]))
    }
}
