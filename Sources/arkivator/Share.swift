import ArgumentParser

extension Arkivator {
    /// Chosen letters made ready to hand to a doctor or an assistant, the numbers hidden: a PDF,
    /// or a link that works for a while, the links made, revoking one.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Del utvalgte brev, med fødselsnummer skjult. (Share chosen letters, national ID numbers hidden.)",
            discussion: """
                Eksempler / examples:
                  arkivator share pack 3fa2b1 9c0d4e --out til-legen.pdf
                  arkivator share pack 3fa2b1 --out til-legen.pdf --text til-assistenten.txt
                  arkivator share link 3fa2b1 9c0d4e --days 7 --url https://arkivator.example.no
                  arkivator share list
                  arkivator share revoke 3
                """,
            subcommands: [Pack.self, ShareLinkCommand.self, ShareList.self, ShareRevoke.self])
    }
}
