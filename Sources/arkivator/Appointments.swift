import ArgumentParser
import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// The appointments the letters call to, by day, and as an iCalendar file.
    struct Appointments: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "appointments",
            abstract: "Vis timene brevene kaller inn til. (List the appointments the letters call to.)",
            discussion: """
                Kolonner: dato, klokkeslett, person, sted, brevets id. En time som et senere brev har
                flyttet, står med den nye datoen; en avlyst time er merket «avlyst».
                Med --ics skrives timene til en kalenderfil (iCalendar, Europe/Oslo, påminnelse en dag og
                to timer før) som telefonens kalender kan åpne.
                (Columns: date, time, person, place, the letter's id. A moved appointment shows its new
                date; a cancelled one is marked. --ics writes an iCalendar file with reminders.)

                Med --feed får en person i husstanden en hemmelig kalenderadresse som telefonens
                kalender (iPhone, Google Kalender) abonnerer på, servert av «arkivator serve»; den vises
                bare når den lages. --revoke-feed slår den av.
                (--feed gives a household member a secret calendar address a phone subscribes to,
                served by `arkivator serve`; shown only when made. --revoke-feed turns it off.)

                Eksempler / examples:
                  arkivator appointments --upcoming
                  arkivator appointments --person Kari --ics kari.ics
                  arkivator appointments --feed Kari --address https://arkiv.hjemme.no
                  arkivator appointments --revoke-feed Kari
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Bare kommende timer (fra i dag, ikke avlyste). (Only upcoming ones.)")
        var upcoming = false

        @Option(name: .long, help: ArgumentHelp("Bare timene til denne personen (del av navnet holder). (Only this person.)", valueName: "NAME"))
        var person: String?

        @Option(name: .long, help: ArgumentHelp("Skriv timene til denne kalenderfila (.ics), eller - for standard ut. (Write an .ics file.)", valueName: "FILE"))
        var ics: String?

        @Flag(name: .long, help: "Skriv listen som JSON. (Print the list as JSON.)")
        var json = false

        @Option(name: .long, help: ArgumentHelp(
            "Lag personens hemmelige kalenderadresse (eller vis at den finnes). (Make or show a member's calendar feed.)", valueName: "NAME"))
        var feed: String?

        @Flag(name: .customLong("new-address"), help: "Med --feed: lag en ny adresse; den gamle slutter å virke. (Replace the feed's address.)")
        var newAddress = false

        @Option(name: .long, help: ArgumentHelp(
            "Med --feed: adressen telefonen når «arkivator serve» på, som https://arkiv.hjemme.no. (The web app's address.)", valueName: "URL"))
        var address: String?

        @Option(name: .customLong("revoke-feed"), help: ArgumentHelp(
            "Slå av personens kalenderadresse. (Turn off a member's calendar feed.)", valueName: "NAME"))
        var revokeFeed: String?

        func validate() throws {
            if feed != nil && revokeFeed != nil {
                throw ValidationError(UserMessage(nb: "Velg enten --feed eller --revoke-feed, ikke begge.",
                                                  en: "Choose either --feed or --revoke-feed, not both.").text())
            }
            if feed == nil && (newAddress || address != nil) {
                throw ValidationError(UserMessage(nb: "--new-address og --address hører til --feed NAVN.",
                                                  en: "--new-address and --address go with --feed NAME.").text())
            }
        }

        func run() throws {
            if feed != nil || revokeFeed != nil { return try runFeed() }
            let from = upcoming ? CalendarDate.today() ?? .fallback : nil
            let found = try LibraryCommand.run(libraryOptions) { try $0.calendar.appointments(from: from, person: person) }
            let terminal = Terminal()
            if let ics {
                let text = AppointmentCalendar.ics(found)
                if ics == "-" { print(text, terminator: ""); return }
                try AtomicFile.write(Array(text.utf8), to: URL(fileURLWithPath: ics), overwrite: true)
                terminal.error(UserMessage(nb: "Skrev \(found.count) timer til \(ShownName.of(ics)).",
                                           en: "Wrote \(found.count) appointments to \(ShownName.of(ics))."))
                return
            }
            if json { terminal.line(LibraryCommand.json(found)); return }
            guard !found.isEmpty else {
                terminal.line(UserMessage(nb: "Ingen timer funnet i brevene\(upcoming ? " fra i dag" : "").",
                                          en: "No appointments found in the letters\(upcoming ? " from today" : "").").text())
                return
            }
            for line in Self.lines(found) { terminal.line(line) }
        }

        /// `--feed` and `--revoke-feed`.
        func runFeed() throws {
            let (feed, revoke, replace, address) = (feed, revokeFeed, newAddress, address)
            let lines = try LibraryCommand.run(libraryOptions) { library -> [UserMessage] in
                if let feed { return try Feed.show(feed, replace: replace, address: address, in: library) }
                return [try Feed.revoke(revoke ?? "", in: library)]
            }
            for line in lines { Terminal().line(line.text()) }
        }

        /// `2025-06-03  09:45  Kari Nordmann  Ullevål, bygg 25  [3fa2b1c9d0]`
        static func lines(_ found: [StoredAppointment]) -> [String] {
            FamilyCommand.table(found.map { stored in
                let a = stored.appointment
                return [a.date, a.time ?? "–", stored.person ?? ShownPerson.unknown.text(),
                        (a.cancelled ? UserMessage(nb: "avlyst", en: "cancelled").text() + " " : "")
                            + (a.place ?? stored.sender ?? ""), stored.documentID]
            })
        }
    }
}
