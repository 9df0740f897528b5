import Foundation
import Hummingbird

extension WebServer {
    /// The web app's own address as the browser reached it, for an address shown once to be
    /// handed on (a share link, a calendar feed): `https://` (or `http://` without TLS) and the
    /// host the request named, when that host is plain (letters, digits, `.-:[]`); else the
    /// address the app listens on. A request can never make the page show a host with other
    /// characters in it.
    static func ownAddress(_ request: Request, options: Options) -> (scheme: String, host: String) {
        let given = request.head.authority ?? ""
        let plain = !given.isEmpty && given.count <= 255 && given.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0))
        }
        return (options.secureCookies ? "https" : "http", plain ? given : "\(options.host):\(options.port)")
    }
}
