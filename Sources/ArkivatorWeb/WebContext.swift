import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What a request carries through the web app: who is asking (the signed-in session, or a
/// device's token), from which address, and the language the answer is written in.
public struct WebContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection's peer; nil in the in-process test client.
    public let remoteAddress: SocketAddress?
    /// The signed-in browser's session; nil on the sign-in pages and for a device.
    var session: WebSession?
    /// Whose request, and whose letters it may see: set by the gates (``PageSession``,
    /// ``APIAuth``) for a signed-in browser or a device's token; nil on the open pages.
    var access: Access?
    /// The kind of device, as the audit log names it («telefon», «datamaskin», «skript»…).
    var deviceKind = ""
    /// The session's CSRF token when the request's own `_csrf` field is still to be checked by
    /// the handler (only the streamed upload form: ``PageSession/streamsItsForm(_:)``).
    var formToken: String?
    var language: UILanguage = .norwegian
    /// The client the sign-in throttle counts: the peer, or the address a trusted proxy names.
    var client = "ukjent"

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Forms and API bodies are small; an uploaded page has its own limit.
    public var maxUploadSize: Int { 1 << 20 }

    func text(_ norwegian: String, _ english: String) -> String { language.text(norwegian, english) }

    /// What the request may see: the gate's, else nobody's (a route behind a gate always has it).
    var seen: Access { access ?? Access(account: -1, name: "", role: .reader, members: []) }
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

    /// "1 dokument", "3 dokumenter": a count with the word in the right number.
    func count(_ number: Int, _ one: (nb: String, en: String), _ many: (nb: String, en: String)) -> String {
        let word = number == 1 ? text(one.nb, one.en) : text(many.nb, many.en)
        return "\(number) \(word)"
    }
}
