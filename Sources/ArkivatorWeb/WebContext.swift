import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

/// What a request carries through the web app: the signed-in session, if any, and the language
/// the page is written in.
public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in browser's session; nil on the sign-in pages.
    var session: WebSession?
    /// True for an API request signed with a device's token (`Authorization: Bearer ark_…`).
    var device = false
    var language: UILanguage = .norwegian

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Forms and API bodies are small; uploads (later) have their own limit.
    public var maxUploadSize: Int { 1 << 20 }
}

extension UILanguage {
    /// Norwegian Bokmål first; English when the browser asks for English before any Norwegian.
    init(acceptLanguage: String?) {
        self = .norwegian
        guard let header = acceptLanguage?.lowercased() else { return }
        for part in header.split(separator: ",") {
            let tag = part.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? ""
            if ["nb", "nn", "no"].contains(where: { tag.hasPrefix($0) }) { return }
            if tag.hasPrefix("en") {
                self = .english
                return
            }
        }
    }

    var code: String { self == .norwegian ? "nb" : "en" }

    func text(_ norwegian: String, _ english: String) -> String { self == .norwegian ? norwegian : english }
}

extension WebContext {
    func text(_ norwegian: String, _ english: String) -> String { language.text(norwegian, english) }
}
