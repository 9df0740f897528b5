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

                Eksempler / examples:
                  arkivator appointments --upcoming
                  arkivator appointments --person Kari --ics kari.ics
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

        func run() throws {
            let from = upcoming ? CalendarDate.today() ?? .fallback : nil
            let found = try LibraryCommand.run(libraryOptions) { try $0.appointments(from: from, person: person) }
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

        /// `2025-06-03  09:45  Kari Nordmann  Ullevål, bygg 25  [3fa2b1c9d0]`
        static func lines(_ found: [StoredAppointment]) -> [String] {
            FamilyCommand.table(found.map { stored in
                let a = stored.appointment
                return [a.date, a.time ?? "–", stored.person ?? UserMessage(nb: "Ukjent person", en: "Unknown person").text(),
                        (a.cancelled ? UserMessage(nb: "avlyst", en: "cancelled").text() + " " : "")
                            + (a.place ?? stored.sender ?? ""), stored.documentID]
            })
        }
    }
}
