import ArgumentParser
import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// Runs a library command: opens the library, runs `body`, and turns any error into one plain
/// line on standard error and exit code 1.
enum LibraryCommand {
    static func run<T>(_ options: LibraryOptions, _ body: (Library) throws -> T) throws -> T {
        do {
            return try body(try Library.open(options.location))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal().error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }

    /// One line on standard error per archive file that has gone missing.
    static func reportMissing(_ paths: [String]) {
        for path in paths {
            Terminal().error(UserMessage(nb: "Mangler i arkivet: \(path)", en: "Missing from the archive: \(path)"))
        }
    }

    /// Pretty-printed JSON with sorted keys.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `2024-03-14  epikrise    Kari Nordmann   2024-03-14 Epikrise …   [3fa2b1c9d0]`
    static func lines(_ documents: [DocumentSummary]) -> [String] {
        let unknown = UserMessage(nb: "Ukjent person", en: "Unknown person").text()
        return FamilyCommand.table(documents.map { document in
            [document.documentDate, document.docType, document.familyMember ?? document.person ?? unknown,
             document.title.hasPrefix(document.documentDate + " ") ? String(document.title.dropFirst(11)) : document.title,
             document.id]
        })
    }
}

/// Filters shared by `search` and `list`.
struct FilterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Bare dokumenter om denne personen (del av navnet holder). (Only this person.)", valueName: "NAME"))
    var person: String?

    @Option(name: .long, help: ArgumentHelp(
        "Bare denne typen: innkalling, epikrise, lab-svar, resept, henvisning, vedtak, annet. (Only this type.)",
        valueName: "TYPE"))
    var type: String?

    @Option(name: .long, help: ArgumentHelp("Brevdato fra og med. (Letter date from.)", valueName: "YYYY-MM-DD"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Brevdato til og med. (Letter date to.)", valueName: "YYYY-MM-DD"))
    var to: String?

    @Option(name: .long, help: ArgumentHelp("Bare fra denne avsenderen (del av navnet holder). (Only this sender.)", valueName: "NAME"))
    var institution: String?

    func validate() throws {
        if let type, DocumentType(rawValue: type.lowercased()) == nil {
            throw ValidationError(UserMessage(
                nb: "«\(type)» er ikke en dokumenttype. Velg en av: \(DocumentType.allCases.map(\.rawValue).joined(separator: ", ")).",
                en: "“\(type)” is not a document type. Choose one of: \(DocumentType.allCases.map(\.rawValue).joined(separator: ", ")).").text())
        }
        for (name, value) in [("--from", from), ("--to", to)] {
            guard let value else { continue }
            guard CalendarDate(iso: value) != nil else {
                throw ValidationError(UserMessage(
                    nb: "\(name) må være en dato som ÅÅÅÅ-MM-DD, for eksempel 2024-03-15.",
                    en: "\(name) must be a date as YYYY-MM-DD, for example 2024-03-15.").text())
            }
        }
    }

    var filter: DocumentFilter {
        DocumentFilter(person: person, type: type.flatMap { DocumentType(rawValue: $0.lowercased()) }, from: from, to: to,
                       institution: institution)
    }
}
