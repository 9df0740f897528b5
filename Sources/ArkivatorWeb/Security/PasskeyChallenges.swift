import ArkivatorCore
import ArkivatorLibrary
import Foundation
import NIOConcurrencyHelpers

/// The challenges handed to browsers for a passkey: each works once, for 2 minutes, for what it
/// was made for (a sign-in, or adding a passkey to the session that asked). In memory only.
final class PasskeyChallenges: Sendable {
    enum Purpose: Sendable, Equatable {
        case signIn
        /// Adding a passkey, for the session whose token hash this is.
        case register(session: String)
    }

    private let table = NIOLockedValueBox<[String: (challenge: [UInt8], purpose: Purpose, at: Date)]>([:])
    static let lifetime: TimeInterval = 120

    /// A new challenge and the flow's id that brings it back.
    func make(_ purpose: Purpose, now: Date = Date()) -> (flow: String, challenge: [UInt8]) {
        let flow = Hex.random(bytes: 16)
        let challenge = SecureRandom.bytes(32)
        table.withLockedValue { table in
            table = table.filter { now.timeIntervalSince($0.value.at) < Self.lifetime }
            if table.count >= 200, let oldest = table.min(by: { $0.value.at < $1.value.at })?.key { table[oldest] = nil }
            table[flow] = (challenge, purpose, now)
        }
        return (flow, challenge)
    }

    /// The challenge of `flow` for `purpose`, once, while fresh.
    func take(_ flow: String, for purpose: Purpose, now: Date = Date()) -> [UInt8]? {
        table.withLockedValue { table in
            guard let kept = table.removeValue(forKey: flow), kept.purpose == purpose,
                  now.timeIntervalSince(kept.at) < Self.lifetime else { return nil }
            return kept.challenge
        }
    }
}
