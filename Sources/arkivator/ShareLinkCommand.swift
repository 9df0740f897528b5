import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// `arkivator share link ID...`: a read-only link to the letters that works without signing in.
    struct ShareLinkCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link",
            abstract: "Lag en lenke til brevene som virker uten innlogging. (Make a link to the letters.)",
            discussion: """
                Lenken viser bare disse brevene (dato, type, avsender, tittel og teksten med fødselsnummer \
                skjult) og en PDF av dem, og virker i 14 dager om ikke annet er valgt. Den åpnes av \
                «arkivator serve», så adressen må være den legen når nettappen på: oppgi den med --url. \
                Se hvem som har åpnet den med «arkivator share list», og stopp den med «arkivator share revoke».

                (The link shows only these letters (date, type, sender, title and the text with national \
                ID numbers hidden) and a PDF of them, and works for 14 days unless chosen otherwise. \
                `arkivator serve` opens it, so the address must be where the doctor reaches the web app: \
                give it with --url.)

                Eksempler / examples:
                  arkivator share link 3fa2b1 9c0d7e
                  arkivator share link 3fa2b1 --days 30 --url https://arkivator.example.no
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Brevenes id-er (de første tegnene holder). (The letters' ids.)", valueName: "ID"))
        var ids: [String]

        @Option(name: .long, help: ArgumentHelp("Hvor mange dager lenken virker: 1, 7, 14 eller 30. (Days the link works.)",
                                                valueName: "N"))
        var days = ShareStore.defaultShareLinkDays

        @Option(name: .long, help: ArgumentHelp(
            "Adressen nettappen nås på, for eksempel https://arkivator.example.no. Standard: http://127.0.0.1:8080. (The web app's address.)",
            valueName: "URL"))
        var url = "http://127.0.0.1:8080"

        func validate() throws {
            guard ShareStore.shareLinkDays.contains(days) else {
                throw ValidationError(UserMessage(nb: "--days må være 1, 7, 14 eller 30 (fikk \(days)).",
                                                  en: "--days must be 1, 7, 14 or 30 (got \(days)).").text())
            }
            guard let base = URL(string: url), ["http", "https"].contains(base.scheme?.lowercased() ?? ""), base.host != nil else {
                throw ValidationError(UserMessage(nb: "--url må være en adresse som http://127.0.0.1:8080 (fikk «\(url)»).",
                                                  en: "--url must be an address such as http://127.0.0.1:8080 (got “\(url)”).").text())
            }
        }

        func run() throws {
            let made = try LibraryCommand.run(libraryOptions) { library in
                let made = try library.sharing.createShareLink(ids, days: days)
                library.audit.recordAtMachine(.shareLinkMade, detail: "lenke \(made.link.id)")
                return made
            }
            let base = url.hasSuffix("/") ? String(url.dropLast()) : url
            let terminal = Terminal()
            terminal.error(UserMessage(
                nb: "Lenke \(made.link.id) til \(made.link.letters.count) brev virker til \(ShareLink.shown(made.link.expiresAt)). Den vises bare nå:",
                en: "Link \(made.link.id) to \(made.link.letters.count) letters works until \(ShareLink.shown(made.link.expiresAt)). It is shown only now:"))
            terminal.line(base + ShareStore.shareLinkPath(made.token))
        }
    }
}
