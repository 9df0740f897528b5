import ArgumentParser
import ArkivatorCore

/// `arkivator`: paper letters in, a searchable archive out.
struct Arkivator: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arkivator",
        abstract: "Gjør skannede og fotograferte brev om til et søkbart arkiv. (Turns scanned and photographed letters into a searchable archive.)",
        discussion: """
            Eksempler / examples:
              arkivator ingest ~/Skannet              les alle bilder i en mappe
              arkivator ingest brev_p1.jpg brev_p2.jpg --json
              arkivator watch ~/Skannet               arkiver nye brev etter hvert som de kommer
              arkivator serve                         nettappen: last opp fra mobilen, se over, søk
              arkivator search epikrise ortopedi      søk i biblioteket
              arkivator list --person Kari            Karis dokumenter, nyeste først
              arkivator show 3fa2b1 --text            teksten, klar til å kopiere
              arkivator doctor                        sjekk at Tesseract og språkdata er på plass

            Sider av samme brev heter NAVN_p1, NAVN_p2 … (også -side1, _page1) eller ligger i én
            flersiders TIFF. Pages of one letter are named NAME_p1, NAME_p2 … or are one multi-page TIFF.
            """,
        version: ArkivatorVersion.current,
        subcommands: [Ingest.self, Watch.self, Search.self, List.self, Show.self, Edit.self, Delete.self, Restore.self, Redact.self, Recrop.self,
                      Family.self, Backup.self, Export.self, Reindex.self, Erase.self, Classify.self, Doctor.self,
                      Queue.self, Upload.self, Sync.self, Config.self, Serve.self, Appointments.self, Share.self, Explain.self,
                      AccountCommand.self, Audit.self, Labs.self])
}

/// Options every command shares.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Bibliotekmappen (innstillinger, database, arkiv). Standard: $ARKIVATOR_LIBRARY, ellers ~/.local/share/arkivator.",
        valueName: "DIR"))
    var library: String?

    var location: LibraryLocation {
        LibraryLocation.resolve(explicit: library, environment: ProcessInfo.processInfo.environment)
    }
}

import Foundation
