import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary

extension Arkivator {
    /// `arkivator share revoke LINK`: the link stops working at once.
    struct ShareRevoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Trekk tilbake en delingslenke: den slutter å virke med en gang. (Revoke a share link.)",
            discussion: """
                LINK er lenkens nummer fra «arkivator share list», eller selve lenken.
                (LINK is the link's number from `arkivator share list`, or the link itself.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Lenkens nummer, eller lenken. (The link's number, or the link.)", valueName: "LINK"))
        var link: String

        func run() throws {
            let revoked = try LibraryCommand.run(libraryOptions) { library -> Int? in
                guard let id = try Int(link) ?? library.sharing.shareLinkID(token: link) else { return nil }
                guard try library.sharing.revokeShareLink(id) else { return nil }
                library.audit.recordAtMachine(.shareLinkRevoked, detail: "lenke \(id)")
                return id
            }
            guard let revoked else {
                Terminal().error(UserMessage(nb: "Fant ingen delingslenke «\(ShownName.of(link))». Se dem med: arkivator share list",
                                             en: "No share link “\(ShownName.of(link))”. See them with: arkivator share list"))
                throw ExitCode(1)
            }
            Terminal().line(UserMessage(nb: "Lenke \(revoked) er trukket tilbake. Den virker ikke lenger.",
                                        en: "Link \(revoked) is revoked. It no longer works.").text())
        }
    }
}
