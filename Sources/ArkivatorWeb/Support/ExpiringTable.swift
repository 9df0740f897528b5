import ArkivatorCore
import ArkivatorLibrary
import Foundation
import NIOConcurrencyHelpers

/// Values kept in memory under random tokens for a while, each taken once: what «Angre» brings
/// back (a removed household member with its sealed fødselsnummer, letters as they were before a
/// change to many), which never leaves the server; the page holds only the token.
final class ExpiringTable<Value: Sendable>: Sendable {
    private let kept = NIOLockedValueBox<[String: (value: Value, at: Date)]>([:])
    let lifetime: TimeInterval

    init(lifetime: TimeInterval = 15 * 60) {
        self.lifetime = lifetime
    }

    /// Keeps `value` and returns its token.
    func keep(_ value: Value, now: Date = Date()) -> String {
        let token = Hex.random(bytes: 16)
        let lifetime = self.lifetime
        kept.withLockedValue { table in
            table = table.filter { now.timeIntervalSince($0.value.at) < lifetime }
            table[token] = (value, now)
        }
        return token
    }

    /// The value under `token`, while it is fresh, left in place (to show what «Angre» would do).
    func peek(_ token: String, now: Date = Date()) -> Value? {
        kept.withLockedValue { table in
            guard let found = table[token], now.timeIntervalSince(found.at) < lifetime else { return nil }
            return found.value
        }
    }

    /// The value under `token`, once, while it is fresh.
    func take(_ token: String, now: Date = Date()) -> Value? {
        kept.withLockedValue { table in
            guard let found = table.removeValue(forKey: token), now.timeIntervalSince(found.at) < lifetime else { return nil }
            return found.value
        }
    }
}

/// A removed household member, until «Angre» or a quarter of an hour.
typealias FamilyUndo = ExpiringTable<RemovedFamilyMember>

/// Letters as they were before a change to many of them, until «Angre» or a quarter of an hour.
struct ManyUndo: Sendable {
    /// What was done, in words (the notice's «Flyttet 50 brev til Kari Nordmann.»).
    let done: UserMessage
    let before: [LibraryDocument]
}
