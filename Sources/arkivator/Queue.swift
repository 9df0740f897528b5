import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import Foundation

extension Arkivator {
    /// `arkivator queue [list]` and `arkivator queue retry`: the upload queue.
    struct Queue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "queue",
            abstract: "Vis opplastingskøen. (Show the upload queue.)",
            discussion: """
                Hvert brev har en jobb når et mål er satt (arkivator config set destination …): den holder \
                kopien lik arkivet. Et mål som er nede, tregt eller fullt prøves igjen med stadig lengre \
                pauser (opptil 15 minutter) så lenge det trengs; bare et mål som avviser filene for godt \
                gjør at jobben står som feilet til du kjører arkivator queue retry. En avvist innlogging \
                bruker ikke opp forsøk. Se også arkivator sync.

                (Every letter has a job when a destination is set: it keeps the copy equal to the archive. \
                A destination that is down, slow or full is tried again with ever longer waits (up to 15 \
                minutes) for as long as it takes; only one that refuses the files for good leaves the job \
                failed until you run arkivator queue retry. A refused login uses up no tries. See also \
                arkivator sync.)

                Eksempler / examples:
                  arkivator queue                 jobbene som ikke er ferdige
                  arkivator queue --all --json
                  arkivator queue retry 12
                  arkivator queue retry --all
                """,
            subcommands: [ListJobs.self, Retry.self],
            defaultSubcommand: ListJobs.self)
    }
}

extension Arkivator.Queue {
    struct ListJobs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Vis jobbene i køen (standard). (List the jobs; the default.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Ta med jobbene som er ferdige. (Include the jobs that are done.)")
        var all = false

        @Flag(name: .long, help: "Skriv jobbene som JSON. (Print the jobs as JSON.)")
        var json = false

        func run() throws {
            let jobs = try LibraryCommand.run(libraryOptions) { try $0.uploads.uploadJobs() }
            let shown = all ? jobs : jobs.filter { $0.state != .done }
            let terminal = Terminal()
            if json {
                terminal.line(LibraryCommand.json(shown.map(QueueJobOutput.init)))
                return
            }
            let done = jobs.count - jobs.filter { $0.state != .done }.count
            guard !shown.isEmpty else {
                terminal.line(jobs.isEmpty
                    ? UserMessage(nb: "Køen er tom.", en: "The queue is empty.").text()
                    : UserMessage(nb: "Ingenting venter: \(done) dokumenter er lastet opp.",
                                  en: "Nothing is waiting: \(done) documents are uploaded.").text())
                return
            }
            let header = [UserMessage(nb: "JOBB", en: "JOB"), UserMessage(nb: "TILSTAND", en: "STATE"),
                          UserMessage(nb: "FORSØK", en: "TRIES"), UserMessage(nb: "DOKUMENT", en: "DOCUMENT"),
                          UserMessage(nb: "MÅL", en: "DESTINATION")].map { $0.text() }
            for line in FamilyCommand.table([header] + shown.map(QueueCommand.row)) { terminal.line(line) }
            for job in shown where job.state != .done {
                if let error = job.lastError { terminal.line("  \(job.id): \(error)") }
            }
            if !all, done > 0 {
                terminal.line(UserMessage(nb: "(\(done) ferdige vises med --all)", en: "(\(done) done ones shown with --all)").text())
            }
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Legg feilede jobber tilbake i køen. (Put failed jobs back in the queue.)",
            discussion: """
                Jobben får nye forsøk og prøves ved neste opplasting (arkivator upload, eller watch). \
                (The job gets new tries and is tried at the next upload.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Jobbens nummer (se arkivator queue). (The job's number.)", valueName: "ID"))
        var id: Int?

        @Flag(name: .long, help: "Alle feilede og ventende jobber. (Every failed and waiting job.)")
        var all = false

        func validate() throws {
            guard (id == nil) != !all else {
                throw ValidationError(UserMessage(nb: "Oppgi enten et jobbnummer eller --all.",
                                                  en: "Give either a job number or --all.").text())
            }
        }

        func run() throws {
            let terminal = Terminal()
            if let id {
                try LibraryCommand.run(libraryOptions) { try $0.uploads.retryUpload(id) }
                terminal.line(UserMessage(nb: "Jobb \(id) står i køen igjen. Last opp nå med: arkivator upload",
                                          en: "Job \(id) is queued again. Upload now with: arkivator upload").text())
            } else {
                let count = try LibraryCommand.run(libraryOptions) { try $0.uploads.retryAllUploads() }
                terminal.line(UserMessage(nb: "\(count) jobber står i køen igjen.", en: "\(count) jobs are queued again.").text())
            }
        }
    }
}

enum QueueCommand {
    static func state(_ state: UploadJob.State) -> String {
        switch state {
        case .queued: UserMessage(nb: "i kø", en: "queued").text()
        case .uploading: UserMessage(nb: "laster opp", en: "uploading").text()
        case .done: UserMessage(nb: "ferdig", en: "done").text()
        case .error: UserMessage(nb: "feilet", en: "failed").text()
        }
    }

    static func row(_ job: UploadJob) -> [String] {
        let destination = (try? Destination.parse(job.destination).displayName) ?? job.destination
        return [String(job.id), state(job.state), String(job.attempts), "\(job.title) [\(job.documentID)]", destination]
    }
}

/// `queue --json`: one object per job.
struct QueueJobOutput: Encodable {
    var id: Int
    var document: String
    var title: String
    var destination: String
    var state: String
    var attempts: Int
    var lastError: String?
    var nextAttemptAt: String?
    var createdAt: String
    var updatedAt: String

    init(_ job: UploadJob) {
        id = job.id
        document = job.documentID
        title = job.title
        destination = job.destination
        state = job.state.rawValue
        attempts = job.attempts
        lastError = job.lastError
        nextAttemptAt = job.nextAttemptAt
        createdAt = job.createdAt
        updatedAt = job.updatedAt
    }
}
