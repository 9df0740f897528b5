import ArgumentParser

extension Arkivator {
    /// Chosen letters made ready to hand to a doctor or an assistant, the numbers hidden.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Del utvalgte brev, med fødselsnummer skjult. (Share chosen letters, national ID numbers hidden.)",
            discussion: """
                Eksempler / examples:
                  arkivator share pack 3fa2b1 9c0d4e --out til-legen.pdf
                  arkivator share pack 3fa2b1 --out til-legen.pdf --text til-assistenten.txt
                """,
            subcommands: [Pack.self])
    }
}
