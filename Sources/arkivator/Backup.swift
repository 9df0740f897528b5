import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// A backup of the whole library (or of its database alone).
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ta sikkerhetskopi av hele biblioteket. (Back up the whole library.)",
            discussion: """
                Skriver en ny mappe med alt biblioteket har: databasen (riktig også mens «ingest» kjører), \
                arkivfilene, papirkurven, bildene slik de ble tatt (Originaler), miniatyrbildene, \
                delingslenkenes PDF-er og innboksen, hver fil med sin SHA-256. Mappen får navnet sitt først \
                når alt er skrevet og sjekket (til da heter den …\(Library.unfinishedBackupSuffix)…). \
                Hemmelighetene (library.key, llm.key, webdav.secret) er ikke med: ta vare på library.key \
                et annet sted, uten den kan fødselsnumrene i kopien ikke leses.
                  arkivator backup ~/Sikkerhetskopi/arkivator-2024-03-14
                  arkivator backup --database-only kopi.sqlite   (bare databasen, som før)

                Gjenopprette i en tom bibliotekmappe (legg library.key der først):
                  arkivator restore ~/Sikkerhetskopi/arkivator-2024-03-14

                (Writes a new folder with everything the library keeps: the database (consistent even while \
                'ingest' runs), the archive files, the trash, the photos as taken (Originaler), the \
                thumbnails, the share links' PDFs and the inbox, each file with its SHA-256. The folder gets \
                its name only once everything is written and checked. The secrets (library.key, llm.key, \
                webdav.secret) are left out: keep library.key apart. Restore into an empty library folder, \
                library.key put there first: arkivator restore FOLDER. A target ending in .sqlite, or \
                --database-only, writes the database alone.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Ny mappe for kopien. (A new folder for the backup.)", valueName: "FOLDER"))
        var target: String

        @Flag(name: .long, help: "Bare databasen, i én fil (som før). (The database alone, in one file.)")
        var databaseOnly = false

        func run() throws {
            let url = URL(fileURLWithPath: target)
            let terminal = Terminal()
            if databaseOnly || url.pathExtension == "sqlite" {
                let count = try LibraryCommand.run(libraryOptions) { library in try library.backup(to: url) }
                terminal.line(UserMessage(
                    nb: "Sikkerhetskopi av databasen med \(count) dokument\(count == 1 ? "" : "er") skrevet til \(url.path) og sjekket. Filene er ikke med; hele biblioteket: arkivator backup MAPPE",
                    en: "Backup of the database with \(count) document\(count == 1 ? "" : "s") written to \(url.path) and checked. The files are not in it; the whole library: arkivator backup FOLDER").text())
                return
            }
            let report = try LibraryCommand.run(libraryOptions) { library in try library.backup(toFolder: url) }
            let count = report.documents
            let files = report.files.values.reduce(0, +)
            terminal.line(UserMessage(
                nb: "Sikkerhetskopi av hele biblioteket skrevet til \(report.folder.path) og sjekket: \(count) dokument\(count == 1 ? "" : "er") og \(files) fil\(files == 1 ? "" : "er") (\(Self.megabytes(report.bytes)) MB).",
                en: "Backup of the whole library written to \(report.folder.path) and checked: \(count) document\(count == 1 ? "" : "s") and \(files) file\(files == 1 ? "" : "s") (\(Self.megabytes(report.bytes)) MB).").text())
            for (folder, number) in report.files.sorted(by: { $0.key < $1.key }) {
                let (nb, en) = Self.describe(folder)
                terminal.line(UserMessage(nb: "  \(folder)/: \(number) \(nb)", en: "  \(folder)/: \(number) \(en)").text())
            }
            terminal.line(UserMessage(
                nb: "Ikke med: \(Library.secretFileNames.joined(separator: ", ")). Ta vare på library.key et annet sted; uten den kan fødselsnumrene i kopien ikke leses.",
                en: "Not included: \(Library.secretFileNames.joined(separator: ", ")). Keep library.key somewhere else; without it the backup's national ID numbers cannot be read.").text())
            if !report.outside.isEmpty {
                terminal.line(UserMessage(
                    nb: "Ikke med: \(report.outside.count) fil\(report.outside.count == 1 ? "" : "er") i et arkiv utenfor bibliotekmappen (valgt med --archive); ta kopi av den mappen selv.",
                    en: "Not included: \(report.outside.count) file\(report.outside.count == 1 ? "" : "s") in an archive outside the library folder (chosen with --archive); copy that folder yourself.").text())
            }
            guard !report.missing.isEmpty else { return }
            for path in report.missing {
                terminal.error(UserMessage(nb: "Manglet i biblioteket, ikke med i kopien: \(path)", en: "Missing from the library, not in the backup: \(path)"))
            }
            terminal.error(UserMessage(
                nb: "\(report.missing.count) fil\(report.missing.count == 1 ? "" : "er") som databasen kjenner, manglet. Kjør arkivator reindex for å se hva som mangler, og ta kopien igjen.",
                en: "\(report.missing.count) file\(report.missing.count == 1 ? "" : "s") the database knows were missing. Run arkivator reindex to see what is missing, and make the backup again."))
            throw ExitCode(1)
        }

        static func megabytes(_ bytes: Int64) -> String {
            String(format: "%.1f", Double(bytes) / 1_000_000)
        }

        /// What the files of a library folder are, in words.
        static func describe(_ folder: String) -> (String, String) {
            switch folder {
            case Library.trashFolder: ("filer i papirkurven", "files in the trash")
            case Library.originalsFolder: ("bilder og filer slik de ble tatt", "photos and files as taken")
            case DocumentStore.thumbnailFolder: ("miniatyrbilder", "thumbnails")
            case ShareStore.shareFolder: ("filer til delingslenker (PDF-er og sider)", "share link files (PDFs and pages)")
            case Library.inboxFolder: ("filer i innboksen", "files in the inbox")
            default: ("arkivfiler (.docx, PDF, sidebilder)", "archive files (.docx, PDF, page images)")
            }
        }
    }
}
