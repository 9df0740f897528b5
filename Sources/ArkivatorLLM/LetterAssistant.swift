import ArkivatorClassify
import ArkivatorCore
import Foundation
import NIOConcurrencyHelpers

/// What the language model did for one document (`ingest --json`'s `llm` object).
public struct LLMReport: Sendable, Codable, Equatable {
    /// True when an answer came back and was checked and merged.
    public var used: Bool
    public var model: String?
    /// Time from request to answer, all tries included.
    public var latencyMs: Int?
    /// Fields the answer gave that the checks refused (the rules' values were kept).
    public var rejectedFields: [String]
    /// Accepted fields that differ from the rules (listed in `needsReview`).
    public var disagreedFields: [String]
    /// What the model proposed (after the hidden values were put back), before the checks.
    public var proposed: Proposal?
    /// Why no answer was used, in the user's language.
    public var error: String?
    public var errorCode: String?

    public struct Proposal: Sendable, Codable, Equatable {
        public var docType, documentDate, institution, specialty, person, title: String?
        public var keywords: [String]
    }

    public init(used: Bool, model: String? = nil, latencyMs: Int? = nil, rejectedFields: [String] = [],
                disagreedFields: [String] = [], proposed: Proposal? = nil, error: String? = nil, errorCode: String? = nil) {
        self.used = used
        self.model = model
        self.latencyMs = latencyMs
        self.rejectedFields = rejectedFields
        self.disagreedFields = disagreedFields
        self.proposed = proposed
        self.error = error
        self.errorCode = errorCode
    }
}

/// Runs the LLM prompt after the rules, for one document at a time: hides fødselsnumre (and with
/// ``LLMSettings/maskNames`` the household's names), asks once, checks and merges the answer, and
/// puts the hidden values back. Whatever fails, the rules' result stands.
///
/// After a failure that every later document would meet too (server down, key refused) the
/// assistant stops asking for the rest of the run and reports that failure for each document.
public final class LetterAssistant: Sendable {
    public let settings: LLMSettings
    private let client: ChatClient
    private let family: [String]
    private let stopped = NIOLockedValueBox<LLMFailure?>(nil)

    /// - Throws: ``LLMFailure`` when the URL is remote and `allowRemote` is off.
    public init(settings: LLMSettings, family: [String] = []) throws(LLMFailure) {
        try settings.checkAllowed()
        self.settings = settings
        self.client = ChatClient(settings: settings)
        self.family = family
    }

    /// The failure that stopped the run's requests, if one did.
    public var stoppingFailure: LLMFailure? {
        stopped.withLockedValue { $0 }
    }

    private func stop(with failure: LLMFailure) {
        stopped.withLockedValue { if $0 == nil { $0 = failure } }
    }

    public func refine(_ rules: Classification, text: String, today: CalendarDate) async -> (Classification, LLMReport) {
        if let stopped = stoppingFailure {
            return (rules, LLMReport(used: false, model: settings.model, error: stopped.userMessage.text(), errorCode: stopped.errorCode))
        }
        let hidden = Pseudonyms(text, names: settings.maskNames ? family : [])
        let prompt = LetterPrompt(text: hidden.text)
        let start = Date()
        do {
            let answer = try await client.complete(system: prompt.system, user: prompt.user,
                                                   schemaName: LetterPrompt.schemaName, schema: LetterPrompt.schema)
            let latency = Int(Date().timeIntervalSince(start) * 1000)
            guard var decoded = LetterAnswer(content: answer.content) else {
                let failure = LLMFailure.malformed(settings.hostDescription, detail: "no JSON object")
                return (rules, LLMReport(used: false, model: answer.model ?? settings.model, latencyMs: latency,
                                         rejectedFields: LetterAnswer.fields, error: failure.userMessage.text(), errorCode: failure.errorCode))
            }
            decoded.restore(with: hidden)
            let outcome = AnswerMerge(family: family, today: today).merge(rules: rules, answer: decoded, text: text)
            return (outcome.classification, LLMReport(used: true, model: answer.model ?? settings.model, latencyMs: latency,
                                                      rejectedFields: outcome.rejected, disagreedFields: outcome.disagreed,
                                                      proposed: decoded.proposal))
        } catch {
            if error.stopsRun { stop(with: error) }
            return (rules, LLMReport(used: false, model: settings.model, latencyMs: Int(Date().timeIntervalSince(start) * 1000),
                                     error: error.userMessage.text(), errorCode: error.errorCode))
        }
    }

    /// The same, blocking the calling thread (the pipeline's worker threads, never Swift's pool).
    @available(*, noasync, message: "await refine(_:text:today:) instead")
    public func refineBlocking(_ rules: Classification, text: String, today: CalendarDate) -> (Classification, LLMReport) {
        let refined = BlockingWait.run { [self] in
            let (classification, report) = await refine(rules, text: text, today: today)
            return Refined(classification: classification, report: report)
        }
        return (refined.classification, refined.report)
    }
}

/// A refined result as one Sendable value.
private struct Refined: Sendable {
    var classification: Classification
    var report: LLMReport
}

extension LetterAnswer {
    var proposal: LLMReport.Proposal {
        .init(docType: docType, documentDate: documentDate, institution: institution, specialty: specialty,
              person: person, title: title, keywords: keywords)
    }

    /// Puts hidden names and numbers back into the fields (numbers then fail the checks).
    mutating func restore(with hidden: Pseudonyms) {
        func put(_ value: String?) -> String? {
            guard let value else { return nil }
            // A field quoting a hidden number keeps its placeholder, so the checks refuse it.
            return Pseudonyms.holdsNumber(value) ? value : hidden.restore(value)
        }
        institution = put(institution)
        specialty = put(specialty)
        person = put(person)
        title = put(title)
        keywords = keywords.compactMap(put)
    }
}
