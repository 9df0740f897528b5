import ArkivatorClassify
import ArkivatorCore
import Foundation

/// Asks the household's language model to explain one letter in plain Bokmål: what it is, what
/// the person must do, and by when.
///
/// The letter's names and numbers are hidden exactly as for classification (``Pseudonyms``:
/// every fødselsnummer and 11-digit number always, the household's names with
/// ``LLMSettings/maskNames``); the answer is checked (``ExplanationAnswer``), the names are put
/// back, and a hidden number comes back only masked (`DDMMYY •••••`), so no fødselsnummer is
/// ever shown or kept. Dates are held to the letter: a deadline it does not print is dropped, so
/// is a step that names a day it does not print, and a `hva` that does is no answer at all.
public struct LetterExplainer: Sendable {
    public let settings: LLMSettings
    private let client: ChatClient
    private let family: [String]

    /// - Throws: ``LLMFailure`` when the URL is remote and `allowRemote` is off.
    public init(settings: LLMSettings, family: [String] = []) throws(LLMFailure) {
        try settings.checkAllowed()
        self.settings = settings
        client = ChatClient(settings: settings)
        self.family = family
    }

    /// One request for `text` (the letter with its numbers; they are hidden before sending).
    /// - Throws: ``LLMFailure`` for every way it can fail: the server (down, time-out, refusal),
    ///   and an answer that fails the checks.
    public func explain(_ text: String) async throws(LLMFailure) -> LetterExplanation {
        let hidden = Pseudonyms(text, names: settings.maskNames ? family : [])
        let prompt = ExplanationPrompt(text: hidden.text)
        let answer = try await client.complete(system: prompt.system, user: prompt.user, schemaName: ExplanationPrompt.schemaName,
                                               schema: ExplanationPrompt.schema, maxTokens: ExplanationPrompt.maxTokens)
        let checked = try ExplanationAnswer(content: answer.content, host: settings.hostDescription)
        let days = PrintedDays(text)
        guard days.backs(checked.what) else {
            throw LLMFailure.malformed(settings.hostDescription, detail: "a date the letter does not print")
        }
        return LetterExplanation(what: Self.shown(checked.what, hidden: hidden),
                                 steps: checked.steps.filter(days.backs).map { Self.shown($0, hidden: hidden) },
                                 deadline: Self.deadline(checked.deadline, in: text),
                                 model: Self.modelName(answer.model, asked: settings.model))
    }

    /// The model's name as people read it: the server's (llama.cpp gives the model file's path:
    /// its file name, without `.gguf`), else the one asked for.
    static func modelName(_ answered: String?, asked: String) -> String {
        var name = answered?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if let slash = name.lastIndex(where: { $0 == "/" || $0 == "\\" }) { name = String(name[name.index(after: slash)...]) }
        if name.lowercased().hasSuffix(".gguf") { name = String(name.dropLast(5)) }
        return String((name.isEmpty ? asked : name).prefix(100))
    }

    /// `value` with the hidden names put back and each hidden number masked, and any
    /// fødselsnummer the model wrote out masked too.
    static func shown(_ value: String, hidden: Pseudonyms) -> String {
        var out = value
        for (placeholder, original) in hidden.originals where out.contains(placeholder) {
            let shown = Pseudonyms.holdsNumber(placeholder) ? maskedNumber(original) : original
            out = out.replacingOccurrences(of: placeholder, with: shown)
        }
        return Redaction.redact(out)
    }

    /// `DDMMYY •••••` for a hidden number, whether or not its control digits hold.
    static func maskedNumber(_ original: String) -> String {
        String(original.filter(\.isNumber).prefix(6)) + " " + Redaction.hiddenDigits
    }

    /// The deadline when it is a real day printed in the letter, else nil.
    static func deadline(_ proposed: String?, in text: String) -> String? {
        guard let proposed, let date = CalendarDate(iso: proposed),
              TextEvidence(text).evidence(for: date) != .absent else { return nil }
        return date.iso
    }
}

/// The days a letter prints, with or without a year, to hold the model's words to them.
struct PrintedDays {
    private let full: Set<CalendarDate>
    private let dayMonths: Set<Int>

    init(_ text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        full = Set(lines.flatMap { NorwegianDate.find(in: $0).map(\.date) })
        dayMonths = Set(full.map { $0.month * 100 + $0.day })
            .union(lines.flatMap { NorwegianDate.findWithoutYear(in: $0).map { $0.month * 100 + $0.day } })
    }

    /// Whether every date `value` names is a day the letter prints (a date without a year: its
    /// day and month).
    func backs(_ value: String) -> Bool {
        NorwegianDate.find(in: value).allSatisfy { full.contains($0.date) }
            && NorwegianDate.findWithoutYear(in: value).allSatisfy { dayMonths.contains($0.month * 100 + $0.day) }
    }
}
