import Foundation

/// Whether a host is this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
public enum LocalAddress {
    public static func isLocal(host: String) -> Bool {
        let name = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0).map { $0 <= 255 } == true })
        else { return false }
        return parts[0] == "127"
    }

    /// Whether a URL's host is this machine.
    public static func isLocal(url: URL) -> Bool {
        url.host.map { isLocal(host: $0) } ?? false
    }
}
