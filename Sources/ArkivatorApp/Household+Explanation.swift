import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorPipeline
import Foundation

/// Why a letter was not explained, in words for whoever asked (see ``Household/explain(_:again:for:)``).
public struct ExplanationFailure: UserFacingError, Sendable, Equatable {
    /// `modelOff`, `noText`, or the language model's own code (`timedOut`, `malformed`, `declined` …).
    public let errorCode: String
    public let userMessage: UserMessage

    public init(code: String, message: UserMessage) {
        errorCode = code
        userMessage = message
    }

    /// The language model is not turned on (`llm.enabled`).
    static func modelOff(_ audience: SettingAudience) -> ExplanationFailure {
        ExplanationFailure(code: "modelOff", message: audience == .commandLine
            ? UserMessage(nb: "Språkmodellen er slått av, så brevet kan ikke forklares. Sett den opp og slå den på med: arkivator config set llm.url http://127.0.0.1:8080 og arkivator config set llm.enabled true",
                          en: "The language model is off, so the letter cannot be explained. Set it up and turn it on with: arkivator config set llm.url http://127.0.0.1:8080 and arkivator config set llm.enabled true")
            : UserMessage(nb: "Språkmodellen er slått av, så brevet kan ikke forklares. Du kan slå den på under Innstillinger.",
                          en: "The language model is off, so the letter cannot be explained. You can turn it on under Settings."))
    }

    static let noText = ExplanationFailure(code: "noText", message: UserMessage(
        nb: "Brevet har ingen tekst å forklare. Rett teksten først, så kan det forklares.",
        en: "The letter has no text to explain. Correct the text first; then it can be explained."))

    /// The model's failure, said for an explanation.
    static func model(_ failure: LLMFailure, _ audience: SettingAudience) -> ExplanationFailure {
        ExplanationFailure(code: failure.errorCode, message: failure.explanationMessage(commands: audience == .commandLine))
    }
}

extension Household {
    /// Explains letter `id` in plain Bokmål with the household's language model (when
    /// `llm.enabled` is on) and keeps the explanation with the letter, in place of an earlier one.
    /// Without `again`, an explanation already kept is returned as it is and the model is not asked.
    ///
    /// The letter's names and numbers are hidden from the model as for classification, and its
    /// answer is checked before it is kept (see ``LetterExplainer``). The library is read and
    /// written through ``store``; the model is awaited without holding a thread.
    /// - Throws: ``ExplanationFailure`` (the model off or failing, in words for `audience`), or the
    ///   library's error (no such letter, a letter in the trash).
    public func explain(_ id: String, again: Bool = false, for audience: SettingAudience) async throws -> StoredExplanation {
        if !again, let kept = try await store.read({ try $0.explanations.explanation(of: id) }) { return kept }
        let model: LLMSettings?
        do {
            model = try await store.read { _ in try self.languageModel() }
        } catch let failure as LLMFailure {
            throw ExplanationFailure.model(failure, audience)
        }
        guard let model else { throw ExplanationFailure.modelOff(audience) }
        let (source, family) = try await store.read { (try $0.explanations.explanationSource(id), try self.family().map(\.name)) }
        guard !source.document.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ExplanationFailure.noText }
        let explanation: LetterExplanation
        do {
            explanation = try await LetterExplainer(settings: model, family: family).explain(source.document.text)
        } catch {
            throw ExplanationFailure.model(error, audience)
        }
        let shortID = source.document.shortID
        return try await store.write { try $0.explanations.saveExplanation(explanation, of: shortID, textStamp: source.textStamp) }
    }
}
