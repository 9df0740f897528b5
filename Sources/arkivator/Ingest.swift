import ArgumentParser
import ArkivatorCore
import ArkivatorIntake
import ArkivatorApp
import Foundation

extension Arkivator {
    /// Reads scanned or photographed letters: cleanup and OCR, one result per document.
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Les inn skannede eller fotograferte brev. (Read scanned or photographed letters.)",
            discussion: """
                Tar filer og mapper (mapper leses med undermapper): JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP og PDF. \
                Innholdet sjekkes, ikke filnavnet (av en GIF leses første bilde). Et bilde fra mobilen snus etter \
                EXIF-retningen. Hver side rettes opp, beskjæres, får jevnt lys og leses med Tesseract (norsk).

                En PDF laget på datamaskin (lastet ned fra Helsenorge, Digipost o.l.) leses fra sin egen tekst uten \
                OCR og arkiveres som den er; en skannet PDF leses som bilder.

                Filer som ikke kan leses, blir hoppet over med en forklaring; resten leses likevel. Grenser: 512 MB \
                per fil, 60 megapiksler per side, 100 sider og 1,5 gigapiksler per dokument.

                Hvert dokument arkiveres (.docx, sidebilder, søkbar PDF) og legges i biblioteket, så det kan søkes i. \
                Et dokument som allerede er i biblioteket, leses ikke på nytt. Avslutningskode 0: alt lest. 1: noen \
                filer feilet.

                Takes files and folders (searched recursively): JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP and PDF, known \
                by their content (of a GIF, the first frame). A phone photo is turned by its EXIF orientation. Each \
                page is flattened, cropped, straightened, evened out and read with Tesseract (Norwegian). A PDF made \
                on a computer is read from its own text, without OCR, and archived as it is; a scanned PDF is read as \
                images. Files that cannot be read are skipped with a reason; exit code 1 then says that some failed \
                (limits: 512 MB a file, 60 megapixels a page, 100 pages and 1.5 gigapixels a document). Each \
                document is filed and added to the library; one the library already has is not read again.
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Bildefiler eller mapper. (Image files or folders.)", valueName: "PATH"))
        var paths: [String]

        @OptionGroup var reading: ReadingOptions

        @Flag(name: .long, help: "Skriv ett JSON-objekt per dokument. (One JSON object per document.)")
        var json = false

        @Option(name: .long, help: ArgumentHelp("Lagre de rensede sidebildene (JPEG) i denne mappen. (Write cleaned page images here.)", valueName: "DIR"))
        var out: String?

        @Flag(name: .long, help: "Hver undermappe med bilder er ett flersidig dokument. (Each subfolder of images is one document.)")
        var foldersAreDocuments = false

        @Flag(name: .long, help: "Bare les og klassifiser; skriv ingenting til arkivet eller biblioteket. (Read and classify only; file nothing.)")
        var noArchive = false

        func run() throws {
            let terminal = Terminal()
            let outDirectory = out.map { URL(fileURLWithPath: $0) }
            if let outDirectory { try FileManager.default.createDirectory(at: outDirectory, withIntermediateDirectories: true) }
            let found = DocumentFinder(foldersAreDocuments: foldersAreDocuments).find(paths)
            for problem in found.problems { terminal.error(problem.message) }
            guard !found.documents.isEmpty else {
                terminal.error(UserMessage(nb: "Fant ingen bilder (\(InputError.supportedFormats.norwegian)) å lese.",
                                           en: "Found no images (\(InputError.supportedFormats.english)) to read."))
                throw ExitCode(1)
            }
            let household = try LibraryCommand.household(libraryOptions)
            let pipeline = try household.makePipeline(
                try reading.choice(household, terminal: terminal, pageImageDirectory: outDirectory, filing: !noArchive))
            let report = IngestReport(terminal: terminal, json: json)
            let start = Date()
            pipeline.run(found.documents, progress: { report.progress($0) }, record: { report.record($0) })
            report.finish(seconds: Date().timeIntervalSince(start))
            if report.failures > 0 || found.problems.contains(where: { $0.reason == "missing" }) { throw ExitCode(1) }
        }
    }
}
