import ArgumentParser

extension Arkivator {
    /// `arkivator share`: letters for a doctor: a link that works for a while, the links made, revoking one.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Del brev med legen. (Share letters with a doctor.)",
            subcommands: [ShareLinkCommand.self, ShareList.self, ShareRevoke.self])
    }
}
