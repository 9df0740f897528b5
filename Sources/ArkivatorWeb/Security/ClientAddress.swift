import Foundation
import Hummingbird
import NIOCore

/// Which client a request comes from, for counting its wrong passwords: the connection's peer,
/// or, when the peer is a proxy named with `--trusted-proxy`, the nearest address in
/// `X-Forwarded-For` that is not one of those proxies. A header from anyone else is ignored, so
/// nobody can pose as another client (or as this machine) by sending it.
struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    init(trustedProxies: [String]) {
        self.trustedProxies = Set(trustedProxies.map(Self.normalised))
    }

    func client(peer: SocketAddress?, forwardedFor: String?) -> String {
        guard let ip = peer?.ipAddress.map(Self.normalised) else { return "ukjent" }
        guard trustedProxies.contains(ip), let forwardedFor else { return ip }
        let hops = forwardedFor.split(separator: ",").map { Self.normalised(String($0)) }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? ip
    }

    /// An address as text: trimmed, lower case, without brackets or an IPv4-mapped IPv6 prefix.
    static func normalised(_ address: String) -> String {
        var text = address.trimmingCharacters(in: .whitespaces).lowercased()
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if text.hasPrefix("::ffff:"), text.contains(".") { text.removeFirst(7) }
        return text
    }
}
