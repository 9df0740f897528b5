import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension UploadWorker {
    /// Runs the notify command for the jobs that gave up (one message per destination) and
    /// for a refused login (the first time a job meets it); returns what went wrong running it.
    func notify(_ report: UploadReport) async -> [UserMessage] {
        var messages: [String] = []
        var byDestination: [String: [UploadReport.Entry]] = [:]
        for entry in report.entries where entry.outcome == .failed { byDestination[entry.job.destination, default: []].append(entry) }
        for (setting, entries) in byDestination.sorted(by: { $0.key < $1.key }) {
            let name = (try? Destination.parse(setting).displayName) ?? setting
            let reason = entries[0].message?.text() ?? ""
            if entries.count == 1 {
                let job = entries[0].job
                messages.append(UserMessage(
                    nb: "Arkivator: «\(job.title)» ble ikke lastet opp til \(name) etter \(job.attempts) forsøk. \(reason) Prøv igjen med: arkivator queue retry \(job.id)",
                    en: "Arkivator: “\(job.title)” was not uploaded to \(name) after \(job.attempts) tries. \(reason) Try again with: arkivator queue retry \(job.id)").text())
            } else {
                messages.append(UserMessage(
                    nb: "Arkivator: \(entries.count) dokumenter ble ikke lastet opp til \(name). \(reason) Prøv igjen med: arkivator queue retry --all",
                    en: "Arkivator: \(entries.count) documents were not uploaded to \(name). \(reason) Try again with: arkivator queue retry --all").text())
            }
        }
        let now = Date()
        for entry in report.entries where entry.outcome == .retrying || entry.outcome == .waitingForLogin {
            let job = entry.job
            guard let since = job.failingSinceDate, now.timeIntervalSince(since) >= policy.tellAfter,
                  told.withLockedValue({ $0.insert(job.destination).inserted }) else { continue }
            let name = (try? Destination.parse(job.destination).displayName) ?? job.destination
            let hours = max(1, Int(now.timeIntervalSince(since) / 3600))
            let reason = entry.message?.text() ?? ""
            messages.append(UserMessage(
                nb: "Arkivator: kopiene til \(name) har ikke kommet fram på \(hours == 1 ? "over en time" : "over \(hours) timer"). \(reason) Arkivator fortsetter å prøve av seg selv.",
                en: "Arkivator: copies to \(name) have not got through for \(hours == 1 ? "over an hour" : "over \(hours) hours"). \(reason) Arkivator keeps trying by itself.").text())
        }
        var loginNoted: Set<String> = []
        for entry in report.entries where entry.outcome == .waitingForLogin {
            // Only news: the job did not already carry this message before the pass.
            guard entry.isNews, let message = entry.message?.text(), !loginNoted.contains(entry.job.destination) else { continue }
            loginNoted.insert(entry.job.destination)
            messages.append("Arkivator: " + message)
        }
        guard !messages.isEmpty else { return [] }
        let command: String?
        if let notifyCommand { command = notifyCommand } else { command = try? await store.read { try $0.setting(.notify) } }
        guard let command, !command.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var problems: [UserMessage] = []
        for message in messages {
            if let problem = await Notifier.run(command, message: message, environment: environment, timeout: policy.notifyTimeout) {
                problems.append(problem)
            }
        }
        return problems
    }
}

/// Runs the notify command: `/bin/sh -c 'COMMAND "$1"' arkivator-notify MESSAGE`, so the
/// command may hold its own arguments and the message arrives as one more, never as shell text.
public enum Notifier {
    /// Runs it and waits (at most `timeout` seconds); returns what went wrong, nil when it ran and exited 0.
    public static func run(_ command: String, message: String, environment: [String: String],
                           timeout: TimeInterval = 30) async -> UserMessage? {
        do {
            let result = try await FileWork.run {
                try ChildProcess.run("/bin/sh", ["-c", command + " \"$1\"", "arkivator-notify", message],
                                     environment: environment, timeout: timeout)
            }
            guard result.status == 0, !result.timedOut else {
                let detail = result.timedOut ? "more than \(Int(timeout)) s" : "exit \(result.status)"
                return UserMessage(nb: "Varslingskommandoen «\(command)» feilet (\(detail)).",
                                   en: "The notify command “\(command)” failed (\(detail)).")
            }
            return nil
        } catch {
            let why = UserMessage(error: error)
            return UserMessage(nb: "Kunne ikke kjøre varslingskommandoen «\(command)»: \(why.norwegian)",
                               en: "Could not run the notify command “\(command)”: \(why.english)")
        }
    }
}
