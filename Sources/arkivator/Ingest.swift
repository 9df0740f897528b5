import ArgumentParser
import ArkivatorCore
import ArkivatorIntake
import ArkivatorPipeline
import Foundation

extension Arkivator {
    /// Reads scanned or photographed letters: cleanup and OCR, one result per document.
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Les inn skannede eller fotograferte brev. (Read scanned or photographed letters.)",
            discussion: """
                Tar filer og mapper (mapper leses med undermapper). JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP og PDF;
                innholdet sjekkes, ikke filnavnet (av en GIF leses første bilde). Et bilde fra mobilen snus etter EXIF-retningen. Hver side rettes opp, beskjæres, får jevnt lys og leses med Tesseract (norsk).
                En PDF laget på datamaskin (lastet ned fra Helsenorge, Digipost o.l.) leses fra sin egen tekst uten OCR
                og arkiveres som den er; en skannet PDF leses som bilder.
                Filer som ikke kan leses blir hoppet over med en forklaring; resten leses likevel.
                Grenser: 512 MB per fil, 60 megapiksler per side, 100 sider og 1,5 gigapiksler per dokument.
                Hvert dokument arkiveres (.docx, sidebilder, søkbar PDF) og legges i biblioteket, så det
                kan søkes i. Et dokument som allerede er i biblioteket, leses ikke på nytt.
                Avslutningskode 0: alt lest. 1: noen filer feilet.

                Takes files and folders (searched recursively): JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP and PDF, known by
                their content (of a GIF, the first frame); a phone photo is turned by its EXIF orientation. Each page is flattened, cropped,
                straightened, evened out and read with Tesseract (Norwegian). A PDF made on a computer is
                read from its own text, without OCR, and archived as it is; a scanned PDF is read as images. Files that cannot be read
                are skipped with a reason; exit code 1 then says that some failed (limits: 512 MB a
                file, 60 megapixels a page, 100 pages and 1.5 gigapixels a document). Each document is
                filed and added to the library; one the library already has is not read again.
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Bildefiler eller mapper. (Image files or folders.)", valueName: "PATH"))
        var paths: [String]

        @Option(name: .long, help: ArgumentHelp("Sider som leses samtidig (standard: antall kjerner). (Pages read at once.)", valueName: "N"))
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        @Flag(name: .long, help: "Skriv ett JSON-objekt per dokument. (One JSON object per document.)")
        var json = false

        @Option(name: .long, help: ArgumentHelp("Lagre de rensede sidebildene (JPEG) i denne mappen. (Write cleaned page images here.)", valueName: "DIR"))
        var out: String?

        @Flag(name: .long, help: "Hver undermappe med bilder er ett flersidig dokument. (Each subfolder of images is one document.)")
        var foldersAreDocuments = false

        @Option(name: .long, help: ArgumentHelp(
            "Arkivmappen: én mappe per person med Dokumenter/ (.docx) og Bilder/ (JPEG, søkbar PDF). Standard: BIBLIOTEK/Arkiv. (The archive folder.)",
            valueName: "DIR"))
        var archive: String?

        @Flag(name: .long, help: "Bare les og klassifiser; skriv ingenting til arkivet eller biblioteket. (Read and classify only; file nothing.)")
        var noArchive = false

        @Flag(name: .long, help: "Bytt ut fødselsnumre med DDMMÅÅ ••••• i teksten, .docx og PDF-teksten, med svart boks over dem på sidebildene. (Hide national ID numbers in text, .docx and PDF text, boxed on the page images.)")
        var redact = false

        @Flag(inversion: .prefixedNo, help: ArgumentHelp(
            "Spør språkmodellen (llm.url) etter reglene; standard: innstillingen llm.enabled. Se arkivator config --help. (Ask the language model after the rules.)"))
        var llm: Bool?

        func validate() throws {
            guard (1...64).contains(jobs) else {
                throw ValidationError(UserMessage(nb: "--jobs må være mellom 1 og 64.", en: "--jobs must be between 1 and 64.").text())
            }
        }

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
            let pipeline = try household.makePipeline(.init(
                jobs: jobs, pageImageDirectory: outDirectory, filing: !noArchive, archiveRoot: archive.map { URL(fileURLWithPath: $0) },
                redact: redact, languageModel: try LLMCommand.languageModel(household, flag: llm, terminal: terminal)))
            let report = IngestReport(terminal: terminal, json: json)
            let start = Date()
            pipeline.run(found.documents, progress: { report.progress($0) }, record: { report.record($0) })
            report.finish(seconds: Date().timeIntervalSince(start))
            if report.failures > 0 || found.problems.contains(where: { $0.reason == "missing" }) { throw ExitCode(1) }
        }
    }
}
