import ArkivatorCore
import Foundation
import NIOConcurrencyHelpers

/// The owner's sign-in between the password and the code from an app: the right password gives
/// a random token (in the code page's form) that, within 5 minutes, lets the code finish the
/// sign-in. Kept in memory only: a restart asks for the password again. At most 3 codes a token;
/// the throttle counts every wrong one per client, as it counts passwords.
final class SecondSteps: Sendable {
    struct Pending: Sendable {
        var remember: Bool
        var at: Date
        var tries: Int
    }

    private let pending = NIOLockedValueBox<[String: Pending]>([:])
    static let lifetime: TimeInterval = 5 * 60
    static let tries = 3

    /// A token for a password just checked.
    func start(remember: Bool, now: Date = Date()) -> String {
        let token = Hex.random(bytes: 16)
        pending.withLockedValue { table in
            table = table.filter { now.timeIntervalSince($0.value.at) < Self.lifetime }
            if table.count >= 100, let oldest = table.min(by: { $0.value.at < $1.value.at })?.key { table[oldest] = nil }
            table[token] = Pending(remember: remember, at: now, tries: 0)
        }
        return token
    }

    /// The step `token` stands for while it is fresh and has tries left (counting this one).
    func attempt(_ token: String, now: Date = Date()) -> Pending? {
        pending.withLockedValue { table in
            guard var step = table[token], now.timeIntervalSince(step.at) < Self.lifetime, step.tries < Self.tries else {
                table[token] = nil
                return nil
            }
            step.tries += 1
            table[token] = step
            return step
        }
    }

    /// Ends `token` (the sign-in is done).
    func finish(_ token: String) {
        _ = pending.withLockedValue { $0.removeValue(forKey: token) }
    }
}
