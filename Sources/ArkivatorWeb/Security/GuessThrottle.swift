import Foundation

/// Slows down guessing secret addresses (calendar feeds, share links; one throttle each): a
/// client that asked for ``allowedMisses`` addresses that open nothing within ``window`` is
/// answered 429 for the next that open nothing until the window has passed. An address that
/// works (or one that worked, now expired or revoked) is answered all the same, so a phone, a
/// doctor's office or a calendar service fetching for many from one address is never slowed by
/// another's stale link. (A secret has 256 random bits; this keeps the log quiet.)
actor GuessThrottle {
    static let allowedMisses = 20
    static let window: TimeInterval = 10 * 60
    /// Entries kept before the quiet ones are forgotten.
    static let pruneAbove = 1_000

    private var misses: [String: (count: Int, since: Date)] = [:]
    private let clock: @Sendable () -> Date

    init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// Seconds until `client` may ask again, or nil when it may ask now.
    func refusal(client: String) -> Int? {
        let now = clock()
        guard let entry = misses[client] else { return nil }
        let ends = entry.since.addingTimeInterval(Self.window)
        if now >= ends {
            misses[client] = nil
            return nil
        }
        return entry.count >= Self.allowedMisses ? max(1, Int(ends.timeIntervalSince(now).rounded(.up))) : nil
    }

    /// Counts an address that opened nothing.
    func miss(client: String) {
        let now = clock()
        if misses.count > Self.pruneAbove {
            misses = misses.filter { now.timeIntervalSince($0.value.since) < Self.window }
        }
        var entry = misses[client] ?? (0, now)
        if now.timeIntervalSince(entry.since) >= Self.window { entry = (0, now) }
        entry.count += 1
        misses[client] = entry
    }
}
