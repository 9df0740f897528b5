import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

extension Arkivator {
    /// Builds the search index again, checks the archive files, and takes in unknown ones.
    struct Reindex: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bygg søkeindeksen på nytt og sjekk arkivfilene. (Rebuild the search index, check the files.)",
            discussion: """
                Lister filer databasen kjenner som mangler: arkivfiler og bildene slik de ble tatt \
                (Originaler) gir exit 1; et miniatyrbilde som mangler, lages på nytt fra sidebildet. Lister \
                også filer i arkivet som databasen ikke kjenner. Med --adopt tas de ukjente inn: ett dokument per .docx arkivator skrev, med sidebildene \
                og PDF-en med samme navn; et dokument biblioteket alt har, legges aldri inn to ganger. \
                Lager også miniatyrbildene som mangler (for brev arkivert før det fantes slike).

                (Lists files the database knows that are missing: archive files and the photos as taken give \
                exit 1; a missing thumbnail is made again from the page image. Lists files in the archive it \
                does not know. With --adopt the unknown ones are taken in: one document per .docx arkivator wrote, with \
                the page images and PDF of the same name; a document the library has is never added twice. \
                Missing thumbnails (of letters filed before there were any) are made.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Ta inn arkivfiler databasen ikke kjenner (etter en gjenoppretting). (Take in archive files the database does not know.)")
        var adopt = false

        func run() throws {
            let (adoption, report, thumbnails, remade) = try LibraryCommand.run(libraryOptions) { library in
                let adoption = try adopt ? library.adoptUnknownFiles() : nil
                let report = try library.reindex()
                // The thumbnails of documents filed before there were any (the web app shows them in
                // lists), and those whose file has gone (reindex forgot them).
                let made = try ThumbnailMaker.makeMissing(in: library)
                let remade = try report.missingThumbnails.map { missing -> (String, Bool?) in
                    guard case .file(let url, _) = try library.documents.thumbnail(missing.id) else { return (missing.path, false) }
                    return (missing.path, FileManager.default.fileExists(atPath: url.path))
                }
                return (adoption, report, made, remade)
            }
            let terminal = Terminal()
            if let adoption {
                terminal.line(UserMessage(
                    nb: "Tok inn \(adoption.adopted.count) dokument\(adoption.adopted.count == 1 ? "" : "er") fra arkivfilene; \(adoption.relinked.count) kjente dokumenter fikk filene sine igjen.",
                    en: "Took in \(adoption.adopted.count) document\(adoption.adopted.count == 1 ? "" : "s") from the archive files; \(adoption.relinked.count) known documents got their files back.").text())
                for (path, reason) in adoption.left {
                    let shown = ShownName.of(path)
                    terminal.line(UserMessage(nb: "Ikke tatt inn: \(shown) (\(reason.norwegian))",
                                              en: "Not taken in: \(shown) (\(reason.english))").text())
                }
            }
            terminal.line(UserMessage(
                nb: "Indekserte \(report.documents) dokumenter (\(report.terms) ord i ordlisten for sammensatte ord).",
                en: "Indexed \(report.documents) documents (\(report.terms) words in the compound word list).").text())
            if thumbnails > 0 {
                terminal.line(UserMessage(nb: "Laget miniatyrbilder av \(thumbnails) dokument\(thumbnails == 1 ? "" : "er").",
                                          en: "Made thumbnails of \(thumbnails) document\(thumbnails == 1 ? "" : "s").").text())
            }
            ArchiveFilesReport.print(missing: report.missingFiles, originals: report.missingOriginals, thumbnails: remade,
                                     unknown: report.unknownFiles, adoptHint: !adopt)
            if !report.missingFiles.isEmpty || !report.missingOriginals.isEmpty || remade.contains(where: { $0.1 == false }) {
                throw ExitCode(1)
            }
        }
    }
}
