import ArkivatorCore
import ArkivatorPipeline
import Foundation
import NIOConcurrencyHelpers

/// What `ingest` shows while it works: a progress bar on a terminal, then one line (or one JSON
/// object) per document and a summary. Called from the pipeline's delivery queue.
final class IngestReport: Sendable {
    private let terminal: Terminal
    private let json: Bool
    private let started = Date()
    private let counts = NIOLockedValueBox(Counts())

    private struct Counts {
        var failures = 0
        var documents = 0
        var pages = 0
        /// Pages of documents the library already had (not counted as read).
        var knownPages = 0
        var empty = 0
        var known = 0
        var lastProgress: Pipeline.Progress?
        var llmUsed = 0
        var llmFailed = 0
        var llmProblemsShown: Set<String> = []
    }

    var failures: Int { counts.withLockedValue { $0.failures } }

    init(terminal: Terminal, json: Bool) {
        self.terminal = terminal
        self.json = json
    }

    func progress(_ progress: Pipeline.Progress) {
        counts.withLockedValue { $0.lastProgress = progress }
        guard terminal.stderrIsTerminal else { return }
        terminal.status(Self.bar(progress, elapsed: Date().timeIntervalSince(started)))
    }

    func record(_ record: DocumentRecord) {
        let (llmProblem, lastProgress) = counts.withLockedValue { counts -> (String?, Pipeline.Progress?) in
            counts.documents += 1
            counts.pages += record.pages
            if record.failure != nil { counts.failures += 1 }
            if record.failure == nil && record.noText { counts.empty += 1 }
            if record.libraryStatus == .duplicate || record.libraryStatus == .inTrash {
                counts.known += 1
                counts.knownPages += record.pages
            }
            var problem: String?
            if let llm = record.llm {
                if llm.used { counts.llmUsed += 1 } else { counts.llmFailed += 1 }
                // Each kind of model failure once: the documents keep the rules' result.
                if let error = llm.error, counts.llmProblemsShown.insert(llm.errorCode ?? error).inserted { problem = error }
            }
            return (problem, counts.lastProgress)
        }
        if terminal.stderrIsTerminal { terminal.clearStatus() }
        if let llmProblem { terminal.error(UserMessage(nb: llmProblem, en: llmProblem)) }
        if json {
            // A number in a file's name is no more printed than one in a title.
            var shown = record
            shown.sources = record.sources.map(Redaction.redact)
            terminal.line(shown.jsonLine())
        } else {
            terminal.line(Self.describe(record))
        }
        if terminal.stderrIsTerminal, let lastProgress {
            terminal.status(Self.bar(lastProgress, elapsed: Date().timeIntervalSince(started)))
        }
    }

    func finish(seconds: Double) {
        let counts = counts.withLockedValue { $0 }
        let (known, empty, llmUsed, llmFailed, failures) = (counts.known, counts.empty, counts.llmUsed, counts.llmFailed,
                                                            counts.failures)
        let pages = counts.pages - counts.knownPages
        if terminal.stderrIsTerminal { terminal.clearStatus() }
        let time = String(format: "%.1f", seconds)
        let perMinute = seconds > 0 ? Int((Double(pages) / seconds * 60).rounded()) : 0
        let documents = counts.documents - known
        var summary: String
        if documents == 0 && known > 0 {
            // Nothing new: say that, not "read 0 documents".
            summary = known == 1
                ? UserMessage(nb: "Dokumentet fantes fra før i biblioteket; ingenting nytt ble arkivert.",
                              en: "The document was already in the library; nothing new was filed.").text()
                : UserMessage(nb: "Alle \(known) dokumentene fantes fra før i biblioteket; ingenting nytt ble arkivert.",
                              en: "All \(known) documents were already in the library; nothing new was filed.").text()
        } else {
            summary = UserMessage(
                nb: "Leste \(documents) dokument\(documents == 1 ? "" : "er") (\(pages) sider) på \(time) s, \(perMinute) sider/min.",
                en: "Read \(documents) document\(documents == 1 ? "" : "s") (\(pages) pages) in \(time) s, \(perMinute) pages/min.").text()
        }
        if known > 0 && documents > 0 {
            summary += " " + UserMessage(nb: "\(known) fantes fra før i biblioteket.", en: "\(known) already in the library.").text()
        }
        if empty > 0 {
            summary += " " + UserMessage(nb: "\(empty) uten tekst.", en: "\(empty) without text.").text()
        }
        if llmUsed + llmFailed > 0 {
            summary += " " + UserMessage(
                nb: "Språkmodellen svarte for \(llmUsed) av \(llmUsed + llmFailed); resten har reglenes resultat.",
                en: "The language model answered for \(llmUsed) of \(llmUsed + llmFailed); the rest have the rules' result.").text()
        }
        if failures > 0 {
            summary += " " + UserMessage(nb: "\(failures) kunne ikke leses (se over).",
                                         en: "\(failures) could not be read (see above).").text()
        }
        FileHandle.standardError.write(Data((summary + "\n").utf8))
    }

    static func describe(_ record: DocumentRecord) -> String {
        let first = ShownName.of(record.sources.first ?? "")
        let name = record.sources.count > 1 ? "\(first) (+\(record.sources.count - 1))" : first
        if let failure = record.failure { return "✘ \(name): \(failure.userMessage.text())" }
        if let message = record.libraryMessage, record.libraryStatus != .added { return "= \(name): \(message.text())" }
        if record.noText {
            if record.pageReports.contains(where: { $0.cleanup.blank == "dark" }) {
                return "○ \(name): " + UserMessage(
                    nb: "siden er helt svart, så det er ingen tekst å lese. Ta bildet på nytt i godt lys med hele arket synlig.",
                    en: "the page is all black, so there is no text to read. Take the photo again in good light with the whole sheet in view.").text()
            }
            return "○ \(name): " + UserMessage(nb: "ingen tekst funnet (tom side?)", en: "no text found (blank page?)").text()
        }
        let words = record.text.split(whereSeparator: { $0.isWhitespace }).count
        let confidence = Int(((record.ocrConfidence ?? 0) * 100).rounded())
        let pages = record.pages
        var line = "✔ \(name): " + UserMessage(
            nb: "\(pages) side\(pages == 1 ? "" : "r"), \(words) ord, sikkerhet \(confidence) %",
            en: "\(pages) page\(pages == 1 ? "" : "s"), \(words) words, confidence \(confidence) %").text()
        if let k = record.classification {
            let who = ShownPerson.message(familyMember: k.familyMember, person: k.person).text()
            line += "\n    \(Redaction.redact(k.title)) · \(who)"
            if let id = record.libraryID { line += " · id \(id)" }
            if !k.needsReview.isEmpty {
                line += " · " + UserMessage(nb: "sjekk: ", en: "check: ").text() + k.needsReview.joined(separator: ", ")
            }
        }
        if let llm = record.llm {
            line += " · " + (llm.used
                ? UserMessage(nb: "språkmodell \(Self.seconds(llm.latencyMs))", en: "language model \(Self.seconds(llm.latencyMs))").text()
                : UserMessage(nb: "språkmodell ikke brukt", en: "language model not used").text())
        }
        return line
    }

    /// `12.3 s`
    static func seconds(_ milliseconds: Int?) -> String {
        String(format: "%.1f s", Double(milliseconds ?? 0) / 1000)
    }

    /// `[██████░░░░] 12/52 sider · 34 sider/min · ca. 1 min igjen`
    static func bar(_ p: Pipeline.Progress, elapsed: Double) -> String {
        let total = max(1, p.pagesTotal)
        let width = 24
        let filled = min(width, p.pagesDone * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let rate = elapsed > 0 ? Double(p.pagesDone) / elapsed * 60 : 0
        let left = rate > 0 ? Double(total - p.pagesDone) / rate * 60 : 0
        let leftText = left >= 90 ? "\(Int((left / 60).rounded())) min" : "\(Int(left.rounded())) s"
        return UserMessage(
            nb: "[\(bar)] \(p.pagesDone)/\(total) sider · \(Int(rate.rounded())) sider/min · ca. \(leftText) igjen",
            en: "[\(bar)] \(p.pagesDone)/\(total) pages · \(Int(rate.rounded())) pages/min · about \(leftText) left").text()
    }
}
