import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import Foundation

extension Arkivator {
    /// `arkivator sync [--check]`: the destination as a mirror of the archive.
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Sjekk og rett opp kopien av arkivet. (Check and repair the copy of the archive.)",
            discussion: """
                Kopien (målet satt med arkivator config set destination) skal ha nøyaktig det arkivet har: \
                hvert brev med rettelser, skjulte fødselsnumre og nye navn; brev i papirkurven i mappen \
                Papirkurv der; slettede brev borte. sync --check lister det som avviker: filer som mangler, \
                er utdatert, eller ikke skal være der, og filer som ikke er Arkivators (de røres aldri). \
                sync retter opp avvikene og kopierer det som venter, med fremdrift.

                (The copy must hold exactly what the archive holds: every letter with its corrections, \
                hidden fødselsnumre and new names; letters in the trash in its Papirkurv folder; purged \
                letters gone. sync --check lists what differs: files missing, out of date or not wanted, \
                and files that are not Arkivator's (never touched). sync repairs it and copies what waits, \
                with progress.)

                Eksempler / examples:
                  arkivator sync --check
                  arkivator sync
                  arkivator sync --check --json
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Bare sjekk og list avvikene; endre ingenting. (Only check and list; change nothing.)")
        var check = false

        @Flag(name: .long, help: "Skriv resultatet som JSON. (Print the result as JSON.)")
        var json = false

        @Option(name: .long, help: ArgumentHelp("Gi opp etter så mange sekunder uten fremgang. (Give up after this long without progress.)",
                                                valueName: "SECONDS"))
        var wait: Int = 120

        func run() throws {
            let library = try LibraryCommand.run(libraryOptions) { $0 }
            let store = AsyncLibrary(library)
            let environment = ProcessInfo.processInfo.environment
            let terminal = Terminal()
            let before = try UploadCommand.checked { try SyncCommand.waiting { try await MirrorCheck.run(store: store, environment: environment) } }
            if check {
                SyncCommand.print(before, json: json, terminal: terminal)
                if !before.isInLine { throw ExitCode(1) }
                return
            }
            if !json { terminal.line(before.summary.text()) }
            _ = try UploadCommand.checked { try SyncCommand.waiting { try await before.queueRepairs(store: store) } }
            let worker = UploadWorker(store: store)
            let (total, patience) = (max(1, try UploadCommand.checked { try library.uploads.uploadQueueStatus().pending }), TimeInterval(wait))
            var lastProgress = Date()
            var copied = 0
            var lastReason: UserMessage?
            while true {
                let report = BlockingWait.run { await worker.runPass(includeWaiting: true, maxJobs: 20) }
                let done = report.done.count + report.removedOrphans
                copied += done
                if done > 0 { lastProgress = Date() }
                lastReason = report.entries.last(where: { $0.outcome != .done })?.message ?? lastReason
                let status = try UploadCommand.checked { try library.uploads.uploadQueueStatus() }
                if terminal.stderrIsTerminal && !json {
                    terminal.status(UserMessage(nb: "Kopierer: \(min(copied, total)) av \(total) brev …",
                                                en: "Copying: \(min(copied, total)) of \(total) letters …").text())
                }
                if status.pending == 0 || Date().timeIntervalSince(lastProgress) > patience { break }
                if report.entries.isEmpty && report.removedOrphans == 0 {
                    if report.busy { Thread.sleep(forTimeInterval: 1) } else if let next = status.nextDue {
                        Thread.sleep(forTimeInterval: min(max(0.05, next.timeIntervalSinceNow), 5))
                    } else { break }
                } else if done == 0 {
                    Thread.sleep(forTimeInterval: 1)
                }
            }
            if terminal.stderrIsTerminal && !json { terminal.clearStatus() }
            let after = try UploadCommand.checked { try SyncCommand.waiting { try await MirrorCheck.run(store: store, environment: environment) } }
            SyncCommand.print(after, json: json, terminal: terminal)
            if !after.isInLine {
                if let lastReason { terminal.error(lastReason) }
                terminal.error(UserMessage(
                    nb: "Noe er ikke kopiert ennå. Arkivator prøver igjen av seg selv (arkivator watch eller serve), eller kjør arkivator sync igjen senere.",
                    en: "Something is not copied yet. Arkivator tries again by itself (arkivator watch or serve), or run arkivator sync again later."))
                throw ExitCode(1)
            }
        }
    }
}

enum SyncCommand {
    /// Runs async work that may throw from this synchronous command, waiting for it.
    static func waiting<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result: Result<T, any Error> = BlockingWait.run {
            do { return .success(try await body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    struct Output: Encodable {
        struct Item: Encodable {
            var kind: String
            var path: String
        }

        var destination: String
        var letters: Int
        var files: Int
        var inLine: Bool
        var missing: Int
        var stale: Int
        var extra: Int
        var unknown: Int
        var differences: [Item]
    }

    static func print(_ check: MirrorCheck, json: Bool, terminal: Terminal) {
        if json {
            terminal.line(LibraryCommand.json(Output(
                destination: check.destinationName, letters: check.letters, files: check.expected, inLine: check.isInLine,
                missing: check.count(.missing), stale: check.count(.stale), extra: check.count(.extra), unknown: check.count(.unknown),
                differences: check.differences.map { Output.Item(kind: $0.kind.rawValue, path: Redaction.redact($0.path)) })))
            return
        }
        terminal.line(check.summary.text())
        let words: [MirrorCheck.Difference.Kind: UserMessage] = [
            .missing: UserMessage(nb: "mangler", en: "missing"), .stale: UserMessage(nb: "utdatert", en: "out of date"),
            .extra: UserMessage(nb: "skal ikke være der", en: "not wanted"), .unknown: UserMessage(nb: "ikke Arkivators", en: "not Arkivator's"),
        ]
        for difference in check.differences.prefix(200) {
            terminal.line("  \(words[difference.kind]?.text() ?? difference.kind.rawValue): \(Redaction.redact(difference.path))")
        }
        if check.differences.count > 200 {
            terminal.line(UserMessage(nb: "  … og \(check.differences.count - 200) til", en: "  … and \(check.differences.count - 200) more").text())
        }
    }
}
