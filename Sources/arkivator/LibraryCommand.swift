import ArgumentParser
import ArkivatorClassify
import ArkivatorCore
import ArkivatorApp
import ArkivatorLibrary
import Foundation

/// Runs a library command: opens the library, runs `body`, and turns any error into one plain
/// line on standard error and exit code 1.
enum LibraryCommand {
    static func run<T>(_ options: LibraryOptions, _ body: (Library) throws -> T) throws -> T {
        try reporting { try body(try Library.open(options.location)) }
    }

    /// Runs `body`, turning any error into one plain line on standard error and exit code 1.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal().error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }

    /// The household's assembly over the library (opened once): what `ingest`, `watch` and
    /// `serve` run with. A library that cannot be opened is one plain line and exit code 1.
    static func household(_ options: LibraryOptions, notify: String? = nil) throws -> Household {
        do {
            return try Household.open(options.location, notify: notify)
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
        FamilyCommand.table(documents.map { document in
            [document.documentDate, document.docType, document.shownPerson.text(), DocumentTitle.description(of: document.title),
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

    @Option(name: .long, help: ArgumentHelp("Brevdato fra og med, som 2024-03-05. (Letter date from.)", valueName: "YYYY-MM-DD"),
            transform: DateArgument.parse("--from"))
    var from: CalendarDate?

    @Option(name: .long, help: ArgumentHelp("Brevdato til og med, som 2024-12-31. (Letter date to.)", valueName: "YYYY-MM-DD"),
            transform: DateArgument.parse("--to"))
    var to: CalendarDate?

    @Option(name: .long, help: ArgumentHelp("Bare fra denne avsenderen (del av navnet holder). (Only this sender.)", valueName: "NAME"))
    var institution: String?

    func validate() throws {
        if let type { _ = try TypeArgument.parse(type) }
        if let from, let to, to < from {
            throw ValidationError(UserMessage(
                nb: "--to (\(to)) er før --from (\(from)). Bytt om datoene.",
                en: "--to (\(to)) is before --from (\(from)). Swap the dates.").text())
        }
    }

    /// `--person ukjent` (or «Ukjent person»): the letters filed to no household member.
    var filter: DocumentFilter {
        let unknown = person.map(ShownPerson.isUnknown) ?? false
        return DocumentFilter(person: unknown ? nil : person, type: type.flatMap(DocumentType.init(name:)), from: from, to: to,
                              institution: institution, withoutPerson: unknown)
    }
}

/// A date given on the command line: exactly `YYYY-MM-DD` and a real day, or a plain refusal.
enum DateArgument {
    static func parse(_ name: String) -> @Sendable (String) throws -> CalendarDate {
        { text in
            guard let date = CalendarDate(iso: text.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError(UserMessage(
                    nb: "\(name) må være en dato som ÅÅÅÅ-MM-DD med to sifre for måned og dag, for eksempel 2024-03-05 (fikk «\(text)»).",
                    en: "\(name) must be a date as YYYY-MM-DD with two digits for month and day, for example 2024-03-05 (got “\(text)”).").text())
            }
            return date
        }
    }
}

/// A document type given on the command line (`epikrise`, `Lab-svar`), or a plain refusal.
enum TypeArgument {
    static func parse(_ text: String) throws -> DocumentType {
        guard let type = DocumentType(name: text) else {
            let names = DocumentType.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError(UserMessage(
                nb: "«\(text)» er ikke en dokumenttype. Velg en av: \(names).",
                en: "“\(text)” is not a document type. Choose one of: \(names).").text())
        }
        return type
    }
}
