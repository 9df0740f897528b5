import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

extension Arkivator {
    /// One document: metadata and full text.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Vis ett dokument med all tekst. (Show one document with its full text.)",
            discussion: """
                ID er de første tegnene av id-en fra list eller search (minst 4).
                Med --text skrives bare teksten, klar til å lime inn i en KI-assistent:
                  arkivator show 3fa2b1 --text | xclip -selection clipboard

                (ID is the first characters of the id from list or search. --text prints the text only.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        @Flag(name: .long, help: "Bare teksten. (The text only.)")
        var text = false

        @Flag(name: .long, help: "Skriv dokumentet som JSON. (Print the document as JSON.)")
        var json = false

        func run() throws {
            let (document, versions) = try LibraryCommand.run(libraryOptions) { library in
                let document = try library.documents.document(id, revealNumbers: true)
                if document.fodselsnummerCount > 0 { library.audit.recordAtMachine(.numberRevealed, document: document) }
                return (document, try library.documents.textVersions(id))
            }
            let terminal = Terminal()
            if text {
                terminal.line(document.text.replacingOccurrences(of: "\u{0C}", with: "\n\n"))
                return
            }
            if json {
                terminal.line(LibraryCommand.json(document))
                return
            }
            let label = { (nb: String, en: String) in UserMessage(nb: nb, en: en).text() }
            var rows: [[String]] = [
                [label("Tittel", "Title"), document.title],
                [label("Type", "Type"), document.docType.rawValue],
                [label("Person", "Person"), document.shownPerson.text()],
                [label("Avsender", "Sender"), [document.institution, document.specialty].compactMap { $0 }.joined(separator: ", ")],
                [label("Brevdato", "Letter date"), document.documentDate],
                [label("Skannet", "Scanned"), document.scanDate ?? ""],
                [label("Sider", "Pages"), "\(document.pageCount)"],
                [label("Stikkord", "Keywords"), document.keywords.joined(separator: ", ")],
                [label("OCR-sikkerhet", "OCR confidence"), document.ocrConfidence.map { "\(Int(($0 * 100).rounded())) %" } ?? ""],
                ["id", document.sha256],
            ]
            if !document.needsReview.isEmpty {
                rows.append([label("Sjekk", "Check"), document.needsReview.map { ReviewReason.fieldName($0).text() }.joined(separator: ", ")])
            }
            rows.append([label("Kopi", "Copy"), CopyStatus(stored: document.uploadStatus).label.text()])
            if let trashed = document.trashedAt {
                rows.append([label("Papirkurv", "Trash"), label("siden \(trashed)", "since \(trashed)")])
            }
            for file in document.files { rows.append([label("Fil", "File"), file.path]) }
            for line in FamilyCommand.table(rows) { terminal.line(line) }
            let places = NumberPlace.places(of: document)
            if !places.isEmpty {
                terminal.line("")
                let nb = places.map { $0.userMessage.norwegian }.joined(separator: ", ")
                let en = places.map { $0.userMessage.english }.joined(separator: ", ")
                terminal.line(UserMessage(
                    nb: "⚠ Fødselsnummer står fortsatt \(nb) (i bibliotekets søkeindeks er det skjult). Skjul det overalt med: arkivator redact \(document.shortID)",
                    en: "⚠ A national ID number is still \(en) (hidden in the library's index). Hide it everywhere with: arkivator redact \(document.shortID)").text())
            }
            if !versions.isEmpty {
                terminal.line("")
                terminal.line(label("Tekstversjoner (tilbake til OCR-lesningen: arkivator edit \(document.shortID) --ocr-text):",
                                    "Text versions (back to the OCR reading: arkivator edit \(document.shortID) --ocr-text):"))
                for version in versions { terminal.line("  " + TextVersionLine.describe(version).text()) }
            }
            terminal.line("")
            terminal.line(document.text.replacingOccurrences(of: "\u{0C}", with: "\n\n"))
        }
    }

    /// One text version as a line: when, and what changed.
    enum TextVersionLine {
        static func describe(_ version: TextVersion) -> UserMessage {
            let when = version.shownTime
            let changes = version.changes.prefix(5).map { "«\($0.removed)» → «\($0.added)»" }.joined(separator: ", ")
                + (version.changes.count > 5 ? " …" : "")
            switch version.kind {
            case .ocr: return UserMessage(nb: "\(when)  OCR-lesningen", en: "\(when)  the OCR reading")
            case .restored: return UserMessage(nb: "\(when)  OCR-lesningen hentet tilbake", en: "\(when)  the OCR reading brought back")
            case .corrected: return UserMessage(nb: "\(when)  rettet: \(changes)", en: "\(when)  corrected: \(changes)")
            }
        }
    }
}
