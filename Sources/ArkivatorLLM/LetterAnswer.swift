import Foundation

/// The model's answer, decoded strictly: one JSON object (a Markdown fence around it is taken
/// off). A key with the wrong JSON type counts as a wrong field, not a wrong answer: the other
/// fields are still checked and may be used.
public struct LetterAnswer: Sendable, Equatable {
    public var docType: String?
    public var documentDate: String?
    public var institution: String?
    public var specialty: String?
    public var person: String?
    public var keywords: [String]
    public var title: String?
    /// Keys whose value had the wrong type.
    public var badFields: [String]

    public static let fields = ["docType", "documentDate", "institution", "specialty", "person", "keywords", "title"]

    /// Decodes `content`; nil when it holds no JSON object at all.
    public init?(content: String) {
        guard let data = Self.jsonObjectText(content).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        var bad: [String] = []
        func string(_ key: String) -> String? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let text = value as? String else { bad.append(key); return nil }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        docType = string("docType")
        documentDate = string("documentDate")
        institution = string("institution")
        specialty = string("specialty")
        person = string("person")
        title = string("title")
        keywords = []
        if let value = object["keywords"], !(value is NSNull) {
            if let list = value as? [Any], list.allSatisfy({ $0 is String }) {
                keywords = list.compactMap { ($0 as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            } else {
                bad.append("keywords")
            }
        }
        badFields = bad
    }

    /// The JSON object in a reply: the reply itself, or the inside of a ```json fence.
    static func jsonObjectText(_ content: String) -> String {
        var text = content.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("```") {
            text = String(text.drop { $0 != "\n" })
            if let end = text.range(of: "```", options: .backwards) { text = String(text[..<end.lowerBound]) }
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.hasPrefix("{"), let start = text.firstIndex(of: "{"), let end = text.lastIndex(of: "}"), start < end {
            text = String(text[start...end])
        }
        return text
    }
}
