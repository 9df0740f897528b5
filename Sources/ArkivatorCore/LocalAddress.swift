import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether an address is this machine: the one test for "does the letter text stay here" (the
/// language model's server) and "who can reach the web app" (the address `serve` listens on).
///
/// Local is `localhost`, any IPv4 address in 127.0.0.0/8, `::1`, and an IPv4 loopback address
/// written as IPv6 (`::ffff:127.0.0.1`). The host is parsed, never searched for a substring:
/// `127.0.0.1.example.com` and `localhost.example.com` are other machines. A name that is not
/// `localhost` is never taken as local, whatever it resolves to.
public enum LocalAddress {
    /// Whether `host` (a name or an IP address; IPv6 with or without brackets, a trailing dot
    /// allowed) is this machine.
    public static func isLocal(host: String) -> Bool {
        var name = host.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        // An IPv6 zone ("::1%lo") names an interface, not another machine.
        if let percent = name.firstIndex(of: "%") { name = String(name[..<percent]) }
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty else { return false }
        if name == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return isLoopback(v4)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }  // ::1
            // ::ffff:a.b.c.d, an IPv4 address written as IPv6.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return bytes[12] == 127 }
            return false
        }
        return false
    }

    /// Whether the URL's host is this machine (false for a URL without a host).
    public static func isLocal(url: URL) -> Bool {
        guard let host = url.host, !host.isEmpty else { return false }
        return isLocal(host: host)
    }

    /// Whether the host of `text`, read as a URL (`http://127.0.0.1:8080/v1`), is this machine.
    public static func isLocal(urlString text: String) -> Bool {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        return isLocal(url: url)
    }

    private static func isLoopback(_ address: in_addr) -> Bool {
        // s_addr is in network byte order: its first byte in memory is the first number.
        withUnsafeBytes(of: address) { $0.first == 127 }
    }
}
