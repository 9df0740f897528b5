import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Accounts for the people who help the family: each sees only the letters of the members given.
    struct AccountCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account",
            abstract: "Kontoer for dem som hjelper familien. (Accounts for the people who help the family.)",
            discussion: """
                Hver konto logger inn i nettappen med sitt eget navn og passord, og ser bare brevene til \
                familiemedlemmene den har fått: ikke andres brev, søketreff, antall eller filer. Eieren \
                (nettappens eget passord) ser alt. Alt en konto åpner står i loggen («arkivator audit»).

                (Each account signs in to the web app with its own name and password and sees only the \
                letters of the members it was given. The owner sees everything. Everything an account \
                opens is in the log.)

                Eksempler / examples:
                  arkivator account invite Mormor --members "Kari Nordmann"
                  arkivator account invite Ola --members "Kari,Per" --role family --address https://arkiv.hjemme.no
                  arkivator account list
                  arkivator account token Mormor
                  arkivator account remove Mormor
                """,
            subcommands: [Invite.self, List.self, Remove.self, Token.self])
    }
}

extension Arkivator.AccountCommand {
    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lag en konto og en invitasjonslenke. (Make an account and an invite link.)",
            discussion: """
                Lenken skrives én gang. Den virker én gang, i 7 dager: personen velger passordet sitt der. \
                (The link is printed once. It works once, for 7 days: the person chooses a password there.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Navnet personen logger inn med. (The name the person signs in with.)", valueName: "NAME"))
        var name: String

        @Option(name: .long, help: ArgumentHelp("Familiemedlemmene kontoen ser, skilt med komma. (The members it sees, comma-separated.)",
                                                valueName: "NAMES"))
        var members: String

        @Option(name: .long, help: ArgumentHelp("family (lese og rette teksten) eller reader (bare lese). (family: read and correct the text; reader: read.)", valueName: "ROLE"))
        var role: String = "reader"

        @Option(name: .long, help: ArgumentHelp("Adressen familien når nettappen på. (The address the web app is reached at.)",
                                                valueName: "URL"))
        var address: String = "http://127.0.0.1:8080"

        func run() throws {
            guard let role = Access.Role(rawValue: role.lowercased()), role != .owner else {
                throw ValidationError(UserMessage(nb: "--role må være family eller reader.", en: "--role must be family or reader.").text())
            }
            let wanted = members.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let made = try LibraryCommand.run(libraryOptions) { library in
                let made = try library.accounts.invite(name: name, role: role, members: wanted)
                try library.audit.record(.accountInvited, by: .owner, detail: "\(made.account.name) (\(role.rawValue))", device: AuditStore.machine)
                return made
            }
            let base = address.hasSuffix("/") ? String(address.dropLast()) : address
            let terminal = Terminal()
            terminal.line(UserMessage(
                nb: "Laget kontoen \(made.account.name), som ser brevene til \(made.account.members.joined(separator: ", ")). Send denne lenken til \(made.account.name); den virker én gang, i 7 dager:",
                en: "Made the account \(made.account.name), who sees the letters of \(made.account.members.joined(separator: ", ")). Send this link to \(made.account.name); it works once, for 7 days:").text())
            terminal.line("\(base)/invitasjon/\(made.token)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Vis kontoene. (List the accounts.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Skriv listen som JSON. (Print JSON.)")
        var json = false

        func run() throws {
            let accounts = try LibraryCommand.run(libraryOptions) { try $0.accounts.accounts() }
            let terminal = Terminal()
            if json { terminal.line(LibraryCommand.json(accounts)); return }
            guard !accounts.isEmpty else {
                terminal.line(UserMessage(nb: "Ingen kontoer ennå. Lag en med: arkivator account invite NAVN --members \"Kari\"",
                                          en: "No accounts yet. Make one with: arkivator account invite NAME --members \"Kari\"").text())
                return
            }
            for account in accounts {
                let state = account.joined ? UserMessage(nb: "har valgt passord", en: "has chosen a password")
                    : UserMessage(nb: "invitert, ikke svart ennå", en: "invited, not answered yet")
                terminal.line("\(account.name)  \(account.role.label.text())  \(account.members.joined(separator: ", "))  (\(state.text()))")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fjern en konto; den logges ut overalt. (Remove an account; it is signed out everywhere.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Kontoens navn. (The account's name.)", valueName: "NAME"))
        var name: String

        func run() throws {
            let removed = try LibraryCommand.run(libraryOptions) { library in
                let removed = try library.accounts.removeAccount(named: name)
                try library.audit.record(.accountRemoved, by: .owner, detail: removed.name, device: AuditStore.machine)
                return removed
            }
            Terminal().line(UserMessage(nb: "Fjernet kontoen \(removed.name). Den er logget ut overalt, og nøklene dens virker ikke lenger.",
                                        en: "Removed the account \(removed.name). It is signed out everywhere, and its tokens no longer work.").text())
        }
    }

    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lag en enhetsnøkkel for API-et som handler som kontoen. (Make an API token that acts as the account.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Kontoens navn. (The account's name.)", valueName: "NAME"))
        var name: String

        func run() throws {
            let made = try LibraryCommand.run(libraryOptions) { library in
                guard let (account, _) = try library.accounts.account(named: name) else { throw AccountFailure.notFound(name) }
                let made = try library.accounts.createAPIToken(name: "\(account.name) (kommandolinjen)", account: account.id)
                try library.audit.record(.tokenMade, by: .owner, detail: account.name, device: AuditStore.machine)
                return made
            }
            Terminal().line(UserMessage(nb: "Nøkkelen vises bare nå. Send den som «Authorization: Bearer NØKKEL»:",
                                        en: "The token is shown only now. Send it as “Authorization: Bearer TOKEN”:").text())
            Terminal().line(made.token)
        }
    }
}

extension Arkivator {
    /// `arkivator audit`: who opened, changed and shared what.
    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audit",
            abstract: "Vis loggen over hvem som åpnet, endret og delte hva. (Show who opened, changed and shared what.)",
            discussion: """
                Loggen kan ikke endres, og hver linje beholdes i 2 år. Den holder aldri en adresse eller \
                brevets tekst. (The log cannot be changed, and each line is kept for 2 years. It never \
                holds an address or a letter's text.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Option(name: .long, help: ArgumentHelp("Bare denne kontoen («eier» for eieren). (Only this account.)", valueName: "NAME"))
        var account: String?

        @Option(name: .long, help: ArgumentHelp("Bare brev om dette familiemedlemmet. (Only letters about this member.)", valueName: "NAME"))
        var person: String?

        @Option(name: .long, help: ArgumentHelp("Høyst så mange linjer, nyeste først. (At most this many lines.)", valueName: "N"))
        var limit = 200

        @Flag(name: .long, help: "Skriv loggen som JSON. (Print JSON.)")
        var json = false

        func run() throws {
            let entries = try LibraryCommand.run(libraryOptions) { try $0.audit.entries(account: account, member: person, limit: limit) }
            let terminal = Terminal()
            if json { terminal.line(LibraryCommand.json(entries)); return }
            guard !entries.isEmpty else {
                terminal.line(UserMessage(nb: "Loggen er tom.", en: "The log is empty.").text())
                return
            }
            for entry in entries {
                let letter = entry.document.map { "  [\($0)]" + (entry.member.map { " \($0)" } ?? "") } ?? ""
                let detail = entry.detail.isEmpty ? "" : " · \(entry.detail)"
                terminal.line("\(entry.at)  \(entry.account)  \(entry.action.label.text())\(detail)\(letter)  \(entry.device)")
            }
        }
    }
}
