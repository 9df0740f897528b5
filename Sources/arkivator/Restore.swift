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

                Hele biblioteket fra en mappe laget med «arkivator backup MAPPE», inn i en tom \
                bibliotekmappe (legg library.key der først) / the whole library from a backup folder:
                  arkivator restore ~/Sikkerhetskopi/arkivator-2024-03-14 [--without-key]
                Hver fil sjekkes mot sin SHA-256 før noe flyttes på plass, og ingenting skrives over: en \
                bibliotekmappe med dokumenter eller filer nektes.

                Bare databasen, fra «arkivator backup --database-only kopi.sqlite»:
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

                (A backup folder is restored whole into an empty library folder, every file checked against \
                its SHA-256 before any is moved into place; nothing is ever overwritten. \
                The backup is checked before anything changes. A library holding documents is replaced only \
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

        /// The backup to restore: `--backup`, or the argument when it names a file or folder that exists.
        var backupFile: String? {
            if let backup { return backup }
            var isFolder: ObjCBool = false
            guard let id, FileManager.default.fileExists(atPath: id, isDirectory: &isFolder) else { return nil }
            return id
        }

        func validate() throws {
            if (id == nil) == (backup == nil) {
                throw ValidationError(UserMessage(
                    nb: "Oppgi enten en dokument-id (fra papirkurven) eller en sikkerhetskopi, for eksempel: arkivator restore ~/Sikkerhetskopi/arkivator-2024-03-14",
                    en: "Give either a document id (from the trash) or a backup, for example: arkivator restore ~/Sikkerhetskopi/arkivator-2024-03-14").text())
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
            let document = try LibraryCommand.run(libraryOptions) { library in
                let document = try library.documents.restore(id)
                library.audit.recordAtMachine(.restored, document: document)
                return document
            }
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
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
                if options.replace {
                    throw LibraryError(message: UserMessage(
                        nb: "En hel sikkerhetskopi gjenopprettes bare i en tom bibliotekmappe, aldri over et bibliotek: velg en ny med --library, uten --replace. Ingenting ble endret.",
                        en: "A whole backup is restored only into an empty library folder, never over a library: choose a new one with --library, without --replace. Nothing was changed."))
                }
                report = try Library.restore(backupFolder: url, into: options.libraryOptions.location, withoutKey: options.withoutKey)
            } else {
                report = try Library.restore(backup: url, into: options.libraryOptions.location, replace: options.replace,
                                             withoutKey: options.withoutKey)
            }
        } catch {
            terminal.error(UserMessage(error: error))
            throw ExitCode(1)
        }
        let count = report.documents
        if report.files > 0 {
            terminal.line(UserMessage(
                nb: "Gjenopprettet hele biblioteket fra \(url.path): \(count) dokument\(count == 1 ? "" : "er") og \(report.files) fil\(report.files == 1 ? "" : "er"), hver sjekket mot sin SHA-256.",
                en: "Restored the whole library from \(url.path): \(count) document\(count == 1 ? "" : "s") and \(report.files) file\(report.files == 1 ? "" : "s"), each checked against its SHA-256.").text())
        } else {
            terminal.line(UserMessage(
                nb: "Gjenopprettet biblioteket fra \(url.path): \(count) dokument\(count == 1 ? "" : "er"), sjekket.",
                en: "Restored the library from \(url.path): \(count) document\(count == 1 ? "" : "s"), checked.").text())
        }
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
        ArchiveFilesReport.print(missing: report.missingFiles, originals: report.missingOriginals,
                                 thumbnails: report.missingThumbnails.map { ($0, nil) }, unknown: report.unknownFiles, adoptHint: true)
    }
}

/// The library's files after a restore or reindex: those missing (archive files, photos as
/// taken, thumbnails) and those unknown, with what to do.
enum ArchiveFilesReport {
    /// `thumbnails`: each missing thumbnail, with whether it was made again (nil: not tried).
    static func print(missing: [String], originals: [String] = [], thumbnails: [(String, Bool?)] = [],
                      unknown: [String], adoptHint: Bool) {
        let terminal = Terminal()
        LibraryCommand.reportMissing(missing)
        for path in originals {
            terminal.error(UserMessage(nb: "Mangler bildet slik det ble tatt (original): \(path)",
                                       en: "Missing the photo as taken (original): \(path)"))
        }
        for (path, remade) in thumbnails {
            switch remade {
            case true?:
                terminal.line(UserMessage(nb: "Miniatyrbildet manglet, laget på nytt fra sidebildet: \(path)",
                                          en: "The thumbnail was missing, made again from the page image: \(path)").text())
            case false?:
                terminal.error(UserMessage(nb: "Mangler miniatyrbilde, og det kunne ikke lages på nytt: \(path)",
                                           en: "Missing thumbnail, and it could not be made again: \(path)"))
            case nil:
                terminal.line(UserMessage(nb: "Mangler miniatyrbilde (arkivator reindex lager det på nytt): \(path)",
                                          en: "Missing thumbnail (arkivator reindex makes it again): \(path)").text())
            }
        }
        let lost = missing.count + originals.count
        if !missing.isEmpty && originals.isEmpty {
            terminal.error(UserMessage(
                nb: "\(missing.count) fil\(missing.count == 1 ? "" : "er") som databasen kjenner, mangler. Legg arkivmappen tilbake (fra samme tid som databasen) og kjør arkivator reindex igjen.",
                en: "\(missing.count) file\(missing.count == 1 ? "" : "s") the database knows are missing. Put the archive folder back (from the same time as the database) and run arkivator reindex again."))
        } else if lost > 0 {
            terminal.error(UserMessage(
                nb: "\(lost) fil\(lost == 1 ? "" : "er") som databasen kjenner, mangler. Legg dem tilbake fra en sikkerhetskopi fra samme tid som databasen (arkivator restore MAPPE i en tom bibliotekmappe), og kjør arkivator reindex igjen.",
                en: "\(lost) file\(lost == 1 ? "" : "s") the database knows are missing. Put them back from a backup from the same time as the database (arkivator restore FOLDER into an empty library folder), and run arkivator reindex again."))
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
