import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import Dispatch
import Foundation

extension Arkivator {
    /// `arkivator upload`: one pass over the upload queue, now.
    struct Upload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "upload",
            abstract: "Last opp dokumentene som venter i køen, nå. (Upload the documents waiting in the queue, now.)",
            discussion: """
                Prøver hver jobb i køen én gang, også de som venter på et senere forsøk, og skriver hva som \
                skjedde. Avslutter med 1 når en jobb ikke kom fram eller står som feilet. Med --wait prøver \
                den igjen etter 1, 2, 4, 8, 16 sekunder og lenger til alt er lastet opp eller tiden er ute.

                (Tries every job in the queue once, also those waiting for a later try, and prints what \
                happened. Exits with 1 when a job did not get through or stays failed. With --wait it tries \
                again after 1, 2, 4, 8, 16 seconds and longer until everything is uploaded or the time is up.)

                Eksempler / examples:
                  arkivator upload
                  arkivator upload --wait 60 --notify "notify-send Arkivator"
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Option(name: .long, help: ArgumentHelp(
            "Kommando som får meldingen når en opplasting gir opp (i stedet for innstillingen notify). (Notify command.)",
            valueName: "CMD"))
        var notify: String?

        @Option(name: .long, help: ArgumentHelp("Fortsett med nye forsøk i høyst så mange sekunder. (Keep retrying for at most this long.)",
                                                valueName: "SECONDS"))
        var wait: Int?

        func validate() throws {
            if let wait, !(0...86_400).contains(wait) {
                throw ValidationError(UserMessage(nb: "--wait må være mellom 0 og 86400.", en: "--wait must be between 0 and 86400.").text())
            }
        }

        func run() throws {
            let library = try LibraryCommand.run(libraryOptions) { $0 }
            let worker = UploadWorker(store: AsyncLibrary(library), notify: notify)
            let wait = wait
            let report = UploadCommand.waitFor {
                var report = await worker.runPass(includeWaiting: true)
                if let wait, wait > 0 {
                    let more = await worker.run(until: Date().addingTimeInterval(TimeInterval(wait)))
                    report = UploadCommand.latest(report, more)
                }
                return report
            }
            let terminal = Terminal()
            if report.busy && report.entries.isEmpty {
                terminal.error(UserMessage(nb: "En annen arkivator (watch eller upload) laster opp nå. Se arkivator queue.",
                                           en: "Another arkivator (watch or upload) is uploading now. See arkivator queue."))
            }
            for entry in report.entries { terminal.line(UploadCommand.line(entry)) }
            for problem in report.problems { terminal.error(problem) }
            let jobs = try UploadCommand.checked { try library.uploads.uploadJobs() }
            if report.entries.isEmpty && !report.busy {
                if jobs.isEmpty, try UploadCommand.checked({ try library.setting(.destination) }) == nil {
                    terminal.line(UserMessage(
                        nb: "Ingen opplastingsmål er satt. Velg ett med: arkivator config set destination folder:/sti/til/mappe",
                        en: "No upload destination is set. Choose one with: arkivator config set destination folder:/path/to/folder").text())
                } else {
                    terminal.line(UserMessage(nb: "Ingenting å laste opp.", en: "Nothing to upload.").text())
                }
            }
            let failed = jobs.filter { $0.state == .error }
            if !failed.isEmpty {
                terminal.error(UserMessage(
                    nb: "\(failed.count) jobber står som feilet. Se arkivator queue; prøv igjen med arkivator queue retry --all.",
                    en: "\(failed.count) jobs have failed. See arkivator queue; try again with arkivator queue retry --all."))
            }
            let stillWaiting = Set(jobs.filter { $0.state != .done }.map(\.id))
            if !failed.isEmpty || report.entries.contains(where: { $0.outcome != .done && stillWaiting.contains($0.job.id) }) {
                throw ExitCode(1)
            }
        }
    }
}

enum UploadCommand {
    /// Runs the worker from a synchronous command: the main thread waits for it.
    static func waitFor(_ body: @escaping @Sendable () async -> UploadReport) -> UploadReport {
        BlockingWait.run(body)
    }

    /// Runs `body`; an error becomes one plain line on standard error and exit code 1.
    static func checked<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            Terminal().error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }

    /// The last entry per job of two reports, in order.
    static func latest(_ first: UploadReport, _ second: UploadReport) -> UploadReport {
        var merged = UploadReport()
        var last: [Int: UploadReport.Entry] = [:]
        var order: [Int] = []
        for entry in first.entries + second.entries {
            if last[entry.job.id] == nil { order.append(entry.job.id) }
            last[entry.job.id] = entry
        }
        merged.entries = order.compactMap { last[$0] }
        merged.busy = first.busy && second.busy
        merged.problems = first.problems + second.problems
        return merged
    }

    /// `✓ 2024-03-15 Innkalling … → /media/kopi (3 lastet opp, 0 uendret)`.
    static func line(_ entry: UploadReport.Entry) -> String {
        let job = entry.job
        let destination = (try? Destination.parse(job.destination).displayName) ?? job.destination
        let counts = UserMessage(nb: "\(entry.uploaded) lastet opp, \(entry.unchanged) uendret",
                                 en: "\(entry.uploaded) uploaded, \(entry.unchanged) unchanged").text()
        let reason = entry.message?.text() ?? ""
        switch entry.outcome {
        case .done:
            return "✓ \(job.title) → \(destination) (\(counts))"
        case .retrying:
            let when = job.nextAttemptAt.flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) }
                .map { date in
                    let time = date.formatted(date: .omitted, time: .standard)
                    return UserMessage(nb: " Nytt forsøk kl. \(time).", en: " Next try at \(time).").text()
                } ?? ""
            return "… \(job.title) → \(destination): \(reason)\(when)"
        case .waitingForLogin:
            return "! \(job.title) → \(destination): \(reason)"
        case .failed:
            return "✗ \(job.title) → \(destination): \(reason) " + UserMessage(
                nb: "(jobb \(job.id), arkivator queue retry \(job.id))", en: "(job \(job.id), arkivator queue retry \(job.id))").text()
        }
    }
}
