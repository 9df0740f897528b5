import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// `arkivator share list`: every share link, its letters, status and openings.
    struct ShareList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Vis delingslenkene og hvem som har åpnet dem. (List the share links and their openings.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Skriv listen som JSON. (Print the list as JSON.)")
        var json = false

        func run() throws {
            let links = try LibraryCommand.run(libraryOptions) { try $0.sharing.shareLinks() }
            let terminal = Terminal()
            if json { terminal.line(LibraryCommand.json(links)); return }
            guard !links.isEmpty else {
                terminal.line(UserMessage(nb: "Ingen delingslenker ennå. Lag en med: arkivator share link ID",
                                          en: "No share links yet. Make one with: arkivator share link ID").text())
                return
            }
            for link in links {
                let status = switch link.status() {
                case .active: UserMessage(nb: "virker til \(ShareLink.shown(link.expiresAt))", en: "works until \(ShareLink.shown(link.expiresAt))")
                case .expired: UserMessage(nb: "utløpt \(ShareLink.shown(link.expiresAt))", en: "expired \(ShareLink.shown(link.expiresAt))")
                case .revoked: UserMessage(nb: "trukket tilbake \(ShareLink.shown(link.revokedAt ?? link.expiresAt))",
                                           en: "revoked \(ShareLink.shown(link.revokedAt ?? link.expiresAt))")
                }
                let opened = UserMessage(nb: "åpnet \(link.openings.count) ganger", en: "opened \(link.openings.count) times")
                terminal.line("\(link.id)  \(status.text())  \(opened.text())")
                for letter in link.letters { terminal.line("    \(letter.id)  \(letter.title)") }
                for opening in link.openings.prefix(5) {
                    terminal.line("    · \(ShareLink.shown(opening.openedAt))  \(opening.what.rawValue)  \(opening.client)")
                }
            }
        }
    }
}
