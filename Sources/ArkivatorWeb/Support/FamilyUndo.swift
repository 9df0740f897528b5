import ArkivatorCore
import ArkivatorLibrary
import Foundation
import NIOConcurrencyHelpers

/// What «Angre» after removing a household member brings back: the removed member (with its
/// sealed fødselsnummer, which never leaves the server) under a random token that the undo
/// notice's form sends back. Kept in memory for a quarter of an hour, used once.
final class FamilyUndo: Sendable {
    private let removed = NIOLockedValueBox<[String: (member: RemovedFamilyMember, at: Date)]>([:])
    static let lifetime: TimeInterval = 15 * 60

    /// Keeps `member` and returns the token that brings it back.
    func keep(_ member: RemovedFamilyMember, now: Date = Date()) -> String {
        let token = Hex.random(bytes: 16)
        removed.withLockedValue { table in
            table = table.filter { now.timeIntervalSince($0.value.at) < Self.lifetime }
            table[token] = (member, now)
        }
        return token
    }

    /// The member kept under `token`, once, while it is fresh.
    func take(_ token: String, now: Date = Date()) -> RemovedFamilyMember? {
        removed.withLockedValue { table in
            guard let kept = table.removeValue(forKey: token), now.timeIntervalSince(kept.at) < Self.lifetime else { return nil }
            return kept.member
        }
    }
}
