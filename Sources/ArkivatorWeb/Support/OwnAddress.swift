import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Hummingbird

extension WebServer {
    /// The web app's own address as the browser reached it, for an address shown once to be
    /// handed on (a share link, a calendar feed): `https://` (or `http://` without TLS) and the
    /// host the request named, when that host is plain (letters, digits, `.-:[]`); else the
    /// address the app listens on. A request can never make the page show a host with other
    /// characters in it.
    /// With `stored` (the setting «Adresse for lenker», `web.address`), that address instead.
    static func ownAddress(_ request: Request, options: Options, stored: String? = nil) -> (scheme: String, host: String) {
        if let stored, let url = URL(string: stored), let scheme = url.scheme, let host = url.host {
            return (scheme, host + (url.port.map { ":\($0)" } ?? ""))
        }
        let given = request.head.authority ?? ""
        let plain = !given.isEmpty && given.count <= 255 && given.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0))
        }
        return (options.secureCookies ? "https" : "http", plain ? given : "\(options.host):\(options.port)")
    }

    /// The address links handed on are made with (share links, calendar feeds, invites): the
    /// setting «Adresse for lenker» when set, else the address the browser used; and a warning
    /// when it works on this machine only.
    static func linkAddress(_ request: Request, options: Options, store: AsyncLibrary,
                            language: UILanguage) async throws -> (scheme: String, host: String, warning: String?) {
        let stored = try await store.read { try $0.setting(.webAddress) }
        let own = ownAddress(request, options: options, stored: stored)
        let bare = own.host.hasPrefix("[") ? String(own.host.dropFirst().prefix { $0 != "]" })
            : String(own.host.split(separator: ":").first ?? "")
        let warning = LocalAddress.isLocal(host: bare) ? language.text(
            "Denne lenken virker bare på denne maskinen: legen og telefonene kan ikke åpne den. Sett adressen de når Arkivator på, under Innstillinger → Adresse for lenker, og lag lenken på nytt.",
            "This link works on this machine only: the doctor and the phones cannot open it. Set the address they reach Arkivator at under Settings → Address for links, and make the link again.") : nil
        return (own.scheme, own.host, warning)
    }
}
