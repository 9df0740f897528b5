import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Brings a document back from the trash, or the whole library back from a backup.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hent et dokument tilbake fra papirkurven, eller biblioteket fra en sikkerhetskopi. (Bring a document back from the trash, or the library from a backup.)",
            discussion: """
                Fra papirkurven (se den med: arkivator list --trash) / from the trash:
                  arkivator restore 3fa2b1c9d0

                Fra en sikkerhetskopi laget med «arkivator backup» / from a backup:
                  arkivator restore --backup kopi.sqlite [--replace] [--without-key]
                  arkivator restore kopi.sqlite     (det samme når argumentet er en fil)

                Kopien sjekkes (SQLite integrity_check, at den er et arkivator-bibliotek) før noe endres. \
                Et bibliotek med dokumenter erstattes bare med --replace; databasen som erstattes, legges \
                til side i bibliotekmappen (arkivator.sqlite.før-gjenoppretting-…), aldri slettet. Krypterte \
                fødselsnumre i kopien kan bare leses med den library.key kopien ble laget med: legg den i \
                bibliotekmappen (eller sett ARKIVATOR_KEY) før du gjenoppretter. Uten nøkkelen nektes \
                gjenopprettingen, med mindre du legger til --without-key (numrene blir da stående skjult for \
                godt). Etterpå listes arkivfiler databasen ikke kjenner (arkivert etter kopien); ta dem inn med \
                «arkivator reindex --adopt».

                (The backup is checked before anything changes. A library holding documents is replaced only \
                with --replace; the database replaced is kept aside in the library folder, never deleted. \
                Encrypted fødselsnumre open only with the library.key the backup was made with: put it in the \
                library folder (or set ARKIVATOR_KEY) first; without it the restore is refused unless \
                --without-key, which leaves the numbers hidden for good. Archive files the restored database \
                does not know are listed; take them in with 'arkivator reindex --adopt'.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id (fra papirkurven). (The document's id, from the trash.)", valueName: "ID"))
        var id: String?

        @Option(name: .long, help: ArgumentHelp(
            "Gjenopprett biblioteket fra denne sikkerhetskopien. (Restore the library from this backup.)", valueName: "FILE"))
        var backup: String?

        @Flag(name: .long, help: "Erstatt et bibliotek som har dokumenter (det gamle legges til side). (Replace a library that holds documents; the old one is kept aside.)")
        var replace = false

        @Flag(name: .long, help: "Gjenopprett uten nøkkelen: krypterte fødselsnumre blir skjult for godt. (Restore without the key: encrypted numbers stay hidden for good.)")
        var withoutKey = false

        /// The backup to restore: `--backup`, or the argument when it names a file that exists.
        var backupFile: String? {
            if let backup { return backup }
            var isFolder: ObjCBool = false
            guard let id, FileManager.default.fileExists(atPath: id, isDirectory: &isFolder), !isFolder.boolValue else {
                return nil
            }
            return id
        }

        func validate() throws {
            if (id == nil) == (backup == nil) {
                throw ValidationError(UserMessage(
                    nb: "Oppgi enten en dokument-id (fra papirkurven) eller --backup FIL, for eksempel: arkivator restore --backup kopi.sqlite",
                    en: "Give either a document id (from the trash) or --backup FILE, for example: arkivator restore --backup kopi.sqlite").text())
            }
            if backupFile == nil, replace || withoutKey {
                throw ValidationError(UserMessage(
                    nb: "--replace og --without-key gjelder bare gjenoppretting fra en sikkerhetskopi (--backup FIL).",
                    en: "--replace and --without-key only apply to restoring from a backup (--backup FILE).").text())
            }
        }

        func run() throws {
            if let backupFile { return try BackupRestoreCommand.run(backup: backupFile, options: self) }
            guard let id else { return }
            let document = try LibraryCommand.run(libraryOptions) { library in try library.restore(id) }
            let terminal = Terminal()
            terminal.line(UserMessage(nb: "Hentet tilbake: \(document.title)", en: "Restored: \(document.title)").text())
            for file in document.files { terminal.line("  " + file.path) }
        }
    }
}

/// `arkivator restore --backup FILE`: the restore and what it found, in plain lines.
enum BackupRestoreCommand {
    static func run(backup path: String, options: Arkivator.Restore) throws {
        let terminal = Terminal()
        let url = URL(fileURLWithPath: path)
        let report: Library.BackupRestoreReport
        do {
            report = try Library.restore(backup: url, into: options.libraryOptions.location, replace: options.replace,
                                         withoutKey: options.withoutKey)
        } catch {
            terminal.error(UserMessage(error: error))
            throw ExitCode(1)
        }
        let count = report.documents
        terminal.line(UserMessage(
            nb: "Gjenopprettet biblioteket fra \(url.path): \(count) dokument\(count == 1 ? "" : "er"), sjekket.",
            en: "Restored the library from \(url.path): \(count) document\(count == 1 ? "" : "s"), checked.").text())
        if let aside = report.keptAside {
            terminal.line(UserMessage(nb: "Databasen som ble erstattet, ligger i \(aside.path).",
                                      en: "The database replaced is kept in \(aside.path).").text())
        }
        if report.numbersDropped {
            terminal.line(UserMessage(
                nb: "Fødselsnumrene i kopien ble ikke gjenopprettet (--without-key): de står skjult som DDMMYY ••••• og kan ikke leses igjen.",
                en: "The backup's national ID numbers were not restored (--without-key): they stay hidden as DDMMYY ••••• and cannot be read again.").text())
        } else if !report.sealed.isEmpty {
            terminal.line(UserMessage(nb: "Nøkkelen her åpner de krypterte fødselsnumrene i kopien.",
                                      en: "The key here opens the backup's encrypted national ID numbers.").text())
        }
        ArchiveFilesReport.print(missing: report.missingFiles, unknown: report.unknownFiles, adoptHint: true)
    }
}

/// The archive's state after a restore or reindex: files missing and files unknown, with what to do.
enum ArchiveFilesReport {
    static func print(missing: [String], unknown: [String], adoptHint: Bool) {
        let terminal = Terminal()
        LibraryCommand.reportMissing(missing)
        if !missing.isEmpty {
            terminal.error(UserMessage(
                nb: "\(missing.count) fil\(missing.count == 1 ? "" : "er") som databasen kjenner, mangler. Legg arkivmappen tilbake (fra samme tid som databasen) og kjør arkivator reindex igjen.",
                en: "\(missing.count) file\(missing.count == 1 ? "" : "s") the database knows are missing. Put the archive folder back (from the same time as the database) and run arkivator reindex again."))
        }
        for path in unknown {
            let shown = ShownName.of(path)
            terminal.line(UserMessage(nb: "Ukjent for databasen: \(shown)", en: "Unknown to the database: \(shown)").text())
        }
        if !unknown.isEmpty && adoptHint {
            terminal.line(UserMessage(
                nb: "\(unknown.count) fil\(unknown.count == 1 ? "" : "er") i arkivet er ukjente for databasen (arkivert etter sikkerhetskopien?). Ta dem inn med «arkivator reindex --adopt» før watch eller serve starter.",
                en: "\(unknown.count) file\(unknown.count == 1 ? " is" : "s are") in the archive but unknown to the database (filed after the backup?). Take them in with 'arkivator reindex --adopt' before watch or serve starts.").text())
        }
    }
}
