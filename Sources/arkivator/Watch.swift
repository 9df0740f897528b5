import ArgumentParser
import ArkivatorCore
import ArkivatorApp
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Arkivator {
    /// Watches a folder and files every letter put into it, as `ingest` would, one at a time.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Følg med på en mappe og arkiver nye brev etter hvert. (Watch a folder and file new letters as they arrive.)",
            discussion: """
                Tar de samme filene som ingest: JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP og PDF (skannet eller laget på datamaskin). \
                Et dokument leses når filene har ligget i ro i --settle sekunder (og er lukket av den som skrev dem). \
                Navn_p1, Navn_p2 … er sidene i ett dokument; en undermappe med bilder er ett dokument. Skjulte filer \
                og *.part, *.tmp, *.crdownload, *~ hoppes over. Når dokumentet er arkivert, flyttes originalen til \
                MAPPE/processed/; det som ikke kan leses, flyttes til MAPPE/failed/ med en NAVN.feil.txt som forklarer \
                hvorfor. Stopp med Ctrl-C eller SIGTERM: dokumentet som leses, blir ferdig først.

                Takes the same files as ingest: JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP and PDF (scanned or made on a computer). \
                A document is read once its files have been quiet for --settle seconds (and closed by their writer). \
                NAME_p1, NAME_p2 … are the pages of one document; a subfolder of images is one document. Hidden files \
                and *.part, *.tmp, *.crdownload, *~ are skipped. Once filed, the original moves to DIR/processed/; \
                what cannot be read moves to DIR/failed/ with a NAME.feil.txt saying why. Stop with Ctrl-C or \
                SIGTERM: the document being read is finished first.
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Option(name: .long, help: ArgumentHelp(
            "Kommando som får meldingen når en opplasting gir opp (i stedet for innstillingen notify). (Run when an upload gives up.)",
            valueName: "CMD"))
        var notify: String?

        @Argument(help: ArgumentHelp("Mappen det skal følges med på (lages om den mangler). (The folder to watch.)",
                                     valueName: "DIR"))
        var folder: String

        @Option(name: .long, help: ArgumentHelp(
            "Sekunder filene må ligge i ro før de leses (standard 3). (Seconds files must be quiet before they are read.)",
            valueName: "SECONDS"))
        var settle: Double = 3

        @Option(name: .long, help: ArgumentHelp(
            "Se gjennom hele mappen så ofte, for nettverksdisker (standard 30). (Look through the whole folder this often.)",
            valueName: "SECONDS"))
        var rescan: Double = 30

        @Option(name: .long, help: ArgumentHelp(
            "Originalen etter arkivering: move (til processed/, standard), delete eller keep. (The original once filed.)",
            valueName: "move|delete|keep"))
        var onSuccess: String = "move"

        @OptionGroup var reading: ReadingOptions

        /// Seconds between tries of a passing failure, comma-separated (for tests).
        @Option(name: .long, help: .hidden)
        var retryDelays: String?

        /// Idle seconds before the OCR engines are unloaded.
        @Option(name: .long, help: .hidden)
        var unloadAfter: Double = 120

        /// Quiet seconds for a file that was created but never closed.
        @Option(name: .long, help: .hidden)
        var unclosedSettle: Double = 60

        /// Resident MB above which an idle watch, its engines unloaded, starts itself afresh (0: never).
        @Option(name: .long, help: .hidden)
        var restartAboveMb: Double = 48

        /// Set in the environment of the program that an idle watch starts in its own place.
        static let restartedVariable = "ARKIVATOR_WATCH_RESTARTED"

        func validate() throws {
            guard Watcher.OnSuccess(rawValue: onSuccess) != nil else {
                throw ValidationError(UserMessage(nb: "--on-success må være move, delete eller keep.",
                                                  en: "--on-success must be move, delete or keep.").text())
            }
            guard settle >= 0, settle <= 3600, rescan >= 1, rescan <= 86_400 else {
                throw ValidationError(UserMessage(
                    nb: "--settle må være mellom 0 og 3600 sekunder og --rescan mellom 1 og 86400.",
                    en: "--settle must be between 0 and 3600 seconds and --rescan between 1 and 86400.").text())
            }
            if let retryDelays, parsedDelays(retryDelays) == nil {
                throw ValidationError("--retry-delays: seconds separated by commas, e.g. 60,300,1800")
            }
            // Finite and within reach, so nothing below turns them into an Int that overflows.
            for (name, value, limit) in [("--unload-after", unloadAfter, 86_400.0), ("--unclosed-settle", unclosedSettle, 86_400),
                                         ("--restart-above-mb", restartAboveMb, Self.restartLimitMb)]
            where !(value.isFinite && value >= 0 && value <= limit) {
                let shown = limit.rounded() == limit ? String(Int(limit)) : String(limit)
                throw ValidationError(UserMessage(nb: "\(name) må være et tall mellom 0 og \(shown) (fikk \(value)).",
                                                  en: "\(name) must be a number from 0 to \(shown) (got \(value)).").text())
            }
        }

        /// The largest `--restart-above-mb`: 1 TiB.
        static let restartLimitMb = 1_048_576.0

        private func parsedDelays(_ text: String) -> [TimeInterval]? {
            var delays: [TimeInterval] = []
            for part in text.split(separator: ",") {
                guard let value = Double(part.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0,
                      value <= 7 * 86_400 else { return nil }
                delays.append(value)
            }
            return delays
        }

        func run() throws {
            // First of all, so that a SIGTERM that comes while the library opens is not lost.
            SignalStop.block()
            let terminal = Terminal()
            let household = try LibraryCommand.household(libraryOptions, notify: notify)
            let choice = try reading.choice(household, terminal: terminal)
            let options = Watcher.Options(
                folder: URL(fileURLWithPath: folder), settle: settle, rescan: rescan,
                onSuccess: Watcher.OnSuccess(rawValue: onSuccess) ?? .move,
                retryDelays: retryDelays.flatMap(parsedDelays) ?? Watcher.defaultRetryDelays,
                unloadAfter: unloadAfter, unclosedSettle: unclosedSettle,
                restartAboveBytes: restartAboveMb > 0 ? Int(exactly: (restartAboveMb * 1_048_576).rounded()) : nil,
                betweenDocuments: household.uploadsBetweenDocuments())
            let restarted = getenv(Self.restartedVariable) != nil
            unsetenv(Self.restartedVariable)
            let report = WatchReport(terminal: terminal, settle: settle, restarted: restarted)
            let watcher = try household.watcher(options, pipeline: choice, report: { report.show($0) })
            SignalStop.start(watcher: watcher, terminal: terminal)
            do {
                while try watcher.run() == .restartToFreeMemory {
                    Self.startAfresh()
                    // Could not start again: go on in this process.
                }
            } catch {
                terminal.error(UserMessage(error: error))
                throw ExitCode(1)
            }
        }

        /// Replaces this process (same id, same arguments) with a fresh start of the program, to
        /// give back what the OCR work left resident. Everything is journalled, so the new program
        /// picks up where this one is; SIGTERM and SIGINT stay blocked across the exec, so a
        /// signal that comes meanwhile waits for it. Returns only if the exec failed.
        static func startAfresh() {
            setenv(restartedVariable, "1", 1)
            var arguments: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
            arguments.append(nil)
            execv("/proc/self/exe", &arguments)
            for pointer in arguments { free(pointer) }
            unsetenv(restartedVariable)
        }
    }
}

/// SIGTERM and SIGINT stop the watch after the current document. The signals are blocked in every
/// thread (before any is made) and taken by `sigwait` on a thread of their own, so no work runs in
/// a signal handler and a signal that comes early waits instead of being lost. A second signal
/// ends the program at once (filing is crash-safe, so that loses nothing).
enum SignalStop {
    private static var stopSignals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }

    /// Blocks SIGTERM and SIGINT in this thread and in every thread made after it.
    static func block() {
        var set = stopSignals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that waits for the signals and stops `watcher`.
    static func start(watcher: Watcher, terminal: Terminal) {
        let thread = Thread {
            var set = stopSignals
            var received = 0
            while true {
                var number: Int32 = 0
                guard sigwait(&set, &number) == 0 else { continue }
                received += 1
                if received > 1 {
                    terminal.error(UserMessage(nb: "Avbryter nå.", en: "Stopping now."))
                    _exit(1)
                }
                terminal.error(UserMessage(nb: "Stopper når dokumentet som leses nå, er ferdig …",
                                           en: "Stopping once the document being read is finished …"))
                watcher.stop()
            }
        }
        thread.name = "arkivator-signals"
        thread.start()
    }
}

/// What `watch` prints: one line per document like `ingest` (✔ filed, = already there, ✘ failed),
/// and notes about itself on standard error.
struct WatchReport: Sendable {
    let terminal: Terminal
    let settle: Double
    /// Started afresh by an idle watch in its own place: it has said what it watches already.
    let restarted: Bool

    func show(_ event: Watcher.Event) {
        switch event {
        case .watching(let folder):
            guard !restarted else { return }
            let seconds = settle == settle.rounded() ? String(Int(settle)) : String(settle)
            terminal.error(UserMessage(
                nb: "Følger med på \(ShownName.of(folder.path)). Nye dokumenter leses når de har ligget i ro i \(seconds) s. Stopp med Ctrl-C.",
                en: "Watching \(ShownName.of(folder.path)). New documents are read once they have been quiet for \(seconds) s. Stop with Ctrl-C."))
        case .resuming(let count):
            terminal.error(UserMessage(
                nb: "Tar opp igjen \(count) dokument\(count == 1 ? "" : "er") som ikke ble ferdig\(count == 1 ? "" : "e") sist.",
                en: "Taking up \(count) document\(count == 1 ? "" : "s") left unfinished last time."))
        case .filed(let record, _, let moved):
            terminal.line(IngestReport.describe(record) + Self.movedLine(moved))
        case .finishedEarlier(let source, let title, let id, let moved):
            terminal.line("✔ \(Redaction.redact(source)): " + UserMessage(nb: "arkivert før omstarten som «\(title)» · id \(id)",
                                                       en: "filed before the restart as “\(title)” · id \(id)").text()
                          + Self.movedLine(moved))
        case .duplicate(let source, let message, let moved):
            terminal.line("= \(Redaction.redact(source)): \(message.text())" + Self.movedLine(moved))
        case .failed(let source, let failure, let retryAt, let moved, let note):
            var line = "✘ \(Redaction.redact(source)): \(failure.userMessage.text())"
            if let retryAt {
                let formatter = DateFormatter()
                formatter.dateFormat = "HH:mm"
                let time = formatter.string(from: retryAt)
                line += " " + UserMessage(nb: "Prøver igjen kl. \(time).", en: "Trying again at \(time).").text()
            } else if let first = moved.first {
                line += "\n    → \(ShownName.of(first))"
                if let note {
                    let shown = ShownName.of(note)
                    line += " " + UserMessage(nb: "(se \(shown))", en: "(see \(shown))").text()
                }
            }
            terminal.line(line)
        case .problem(let message):
            terminal.error(UserMessage(nb: Redaction.redact(message.norwegian), en: Redaction.redact(message.english)))
        case .stopping:
            terminal.error(UserMessage(nb: "Stoppet.", en: "Stopped."))
        }
    }

    private static func movedLine(_ moved: [String]) -> String {
        guard let first = moved.first else { return "" }
        return "\n    → \(ShownName.of(first))" + (moved.count > 1 ? " (+\(moved.count - 1))" : "")
    }
}
