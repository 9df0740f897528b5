import Foundation

/// The model's explanation, decoded and checked strictly: one JSON object (a Markdown fence
/// around it is taken off) with a non-empty `hva`, `gjøre` a list of texts, and `frist` a text
/// or null. Anything else is an ``LLMFailure``, so text that fails the checks is never shown.
public struct ExplanationAnswer: Sendable, Equatable {
    public var what: String
    public var steps: [String]
    /// As the model wrote it (checked against the letter by ``LetterExplainer``); nil for "" or null.
    public var deadline: String?

    /// Characters of answer at most: several times what the schema allows, so only junk is refused.
    public static let maxContentLength = 4000
    public static let maxWhatLength = 600
    public static let maxStepLength = 300
    public static let maxSteps = 8

    /// Decodes and checks `content`.
    /// - Throws: ``LLMFailure`` `malformed` (no JSON object, a key missing or of the wrong type,
    ///   an empty `hva`) or `tooLong` (beyond the limits above).
    public init(content: String, host: String) throws(LLMFailure) {
        guard content.count <= Self.maxContentLength else { throw LLMFailure.tooLong(host) }
        guard let data = LetterAnswer.jsonObjectText(content).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw LLMFailure.malformed(host, detail: "no JSON object")
        }
        guard let what = object["hva"] as? String, case let trimmed = Self.plain(what), !trimmed.isEmpty else {
            throw LLMFailure.malformed(host, detail: "no text in hva")
        }
        guard trimmed.count <= Self.maxWhatLength else { throw LLMFailure.tooLong(host) }
        self.what = Self.uncut(trimmed, limit: ExplanationPrompt.maxWhatLength)
        // Spelled without ø by a model that was not held to the schema.
        let list = object["gjøre"] ?? object["gjore"]
        if list == nil || list is NSNull {
            steps = []
        } else if let items = list as? [Any], items.allSatisfy({ $0 is String }) {
            steps = items.compactMap { ($0 as? String).map(Self.plain) }.filter { !$0.isEmpty }
                .map { Self.uncut($0, limit: ExplanationPrompt.maxStepLength) }
        } else {
            throw LLMFailure.malformed(host, detail: "gjøre is not a list of texts")
        }
        guard steps.count <= Self.maxSteps, steps.allSatisfy({ $0.count <= Self.maxStepLength }) else {
            throw LLMFailure.tooLong(host)
        }
        switch object["frist"] {
        case nil, is NSNull:
            deadline = nil
        case let text as String:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            deadline = trimmed.isEmpty ? nil : String(trimmed.prefix(40))
        default:
            throw LLMFailure.malformed(host, detail: "frist is not a text")
        }
    }

    /// `text` up to its last whole sentence when it reaches the schema's `limit` without ending
    /// one (a server that holds the model to the schema cut it off mid-word); with no sentence
    /// end at all, "…" marks the cut.
    static func uncut(_ text: String, limit: Int) -> String {
        let ends: Set<Character> = [".", "!", "?", "…", "»", ")", "\""]
        guard text.count >= limit - 5, let last = text.last, !ends.contains(last) else { return text }
        if let cut = text.indices.last(where: { index in
            ".!?".contains(text[index]) && text.index(after: index) < text.endIndex && text[text.index(after: index)] == " "
        }) {
            return String(text[...cut])
        }
        return text + "…"
    }

    /// Trimmed, control characters gone, runs of white space one space.
    static func plain(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        return cleaned.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
