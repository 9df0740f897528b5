import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Full-text search in the library.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Søk i biblioteket. (Search the library.)",
            discussion: """
                Ord finner også andre bøyningsformer og sammensatte ord: «epikrisen» finner «epikrise», \
                «ortopedi» finner «ortopedisk», «blodprøve» finner «blodprøvesvar». Beste treff først \
                (treff i tittelen teller mest).
                  "time hos fastlegen"     nøyaktig frase
                  orto*                    ord som begynner på orto
                  kne OR hofte             ett av ordene
                  MR NOT kne, MR -kne      uten ordet kne

                (Words also find other inflections and compounds. Best matches first, title matches count \
                most. Quotes for a phrase, * for a prefix, OR, NOT or -word.)

                Eksempler / examples:
                  arkivator search epikrise ortopedi
                  arkivator search blodprøve --person Kari --from 2024-01-01
                  arkivator search "innkalling MR" --json
                """)

        @OptionGroup var libraryOptions: LibraryOptions
        @OptionGroup var filterOptions: FilterOptions

        @Argument(help: ArgumentHelp("Det du leter etter. (What to look for.)", valueName: "QUERY"))
        var query: [String]

        @Option(name: .long, help: ArgumentHelp("Høyst så mange treff (standard 20). (At most this many hits.)", valueName: "N"))
        var limit: Int = 20

        @Flag(name: .long, help: "Skriv resultatet som JSON. (Print the result as JSON.)")
        var json = false

        func validate() throws {
            guard (1...10_000).contains(limit) else {
                throw ValidationError(UserMessage(nb: "--limit må være mellom 1 og 10000.", en: "--limit must be between 1 and 10000.").text())
            }
        }

        func run() throws {
            let text = query.joined(separator: " ")
            let result = try LibraryCommand.run(libraryOptions) { library in
                try library.index.search(text, filter: filterOptions.filter, limit: limit)
            }
            let terminal = Terminal()
            if json {
                terminal.line(LibraryCommand.json(SearchOutput(result, query: text)))
                return
            }
            for note in result.notes { terminal.error(note) }
            guard !result.hits.isEmpty else {
                terminal.line(UserMessage(
                    nb: "Ingen treff for «\(text)». Prøv færre ord, et kortere ord med * (orto*) eller uten filtre.",
                    en: "No matches for “\(text)”. Try fewer words, a shorter word with * (orto*) or no filters.").text())
                return
            }
            let total = result.capped ? "\(SearchIndex.rankingLimit)+" : "\(result.total)"
            terminal.line(UserMessage(nb: "\(total) treff for «\(text)»:", en: "\(total) matches for “\(text)”:").text())
            let colour = terminal.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            for (index, hit) in result.hits.enumerated() {
                terminal.line("")
                let title = ShownName.escaped(hit.title)
                terminal.styledLine(String(format: "%2d. ", index + 1) + (colour ? "\u{1B}[1m\(title)\u{1B}[0m" : title))
                var details: [String?] = [hit.shownPerson.text(), hit.docType, hit.institution, "id \(hit.id)"]
                if hit.partial == true {
                    details.append(UserMessage(nb: "har bare noen av ordene", en: "holds only some of the words").text())
                }
                terminal.line("    " + details.compactMap { $0 }.joined(separator: " · "))
                if let snippet = hit.snippet { terminal.styledLine("    " + Self.marked(snippet, colour: colour)) }
                if let file = hit.file { terminal.line("    " + file) }
            }
        }

        /// Hits in a snippet: yellow and bold on a terminal, else between [ and ]; any other
        /// control character in it shown escaped.
        static func marked(_ snippet: String, colour: Bool) -> String {
            let parts = snippet.components(separatedBy: SearchIndex.markStart).map {
                $0.components(separatedBy: SearchIndex.markEnd).map(ShownName.escaped).joined(separator: SearchIndex.markEnd)
            }
            return parts.joined(separator: SearchIndex.markStart).replacingOccurrences(of: SearchIndex.markStart, with: colour ? "\u{1B}[1;33m" : "[")
                .replacingOccurrences(of: SearchIndex.markEnd, with: colour ? "\u{1B}[0m" : "]")
        }
    }
}

/// `search --json`.
struct SearchOutput: Encodable {
    var query: String
    var total: Int
    var capped: Bool
    var notes: [String]
    var hits: [DocumentSummary]

    init(_ result: SearchResult, query: String) {
        self.query = query
        total = result.total
        capped = result.capped
        notes = result.notes.map { $0.text() }
        hits = result.hits.map { hit in
            var hit = hit
            hit.snippet = hit.snippet.map { Arkivator.Search.marked($0, colour: false) }
            return hit
        }
    }
}
