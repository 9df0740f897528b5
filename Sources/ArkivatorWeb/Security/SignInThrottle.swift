import Foundation

/// Slows down password guessing, client by client, so that a stranger cannot lock the owner out.
///
/// Each client (see ``ClientAddress``) has its own count of wrong passwords. Its tries are handled
/// one at a time: a second try waits until the first is answered, so twenty sent at once are
/// twenty tries in a row. Every refusal is answered after a pause of a second; from the fifth
/// wrong password in a row on, the client is also locked for a while (5 s, 10 s, 20 s … at most
/// 5 minutes), and tries while it is locked are refused without being checked or counted, so they
/// do not make the lock longer. A lock ends by itself. The count is forgotten
/// after a quiet quarter of an hour and on a right password. Other clients, and browsers already
/// signed in, are never affected. The same counts guard the fødselsnummer reveal.
actor SignInThrottle {
    /// How a try went.
    enum Outcome: Sendable, Equatable {
        case accepted
        case wrong
        /// Locked: no password was checked; try again after this many seconds.
        case locked(seconds: Int)
    }

    struct Client {
        var failures = 0
        var lockedUntil = Date.distantPast
        var lastFailure = Date.distantPast
        /// Tries waiting for the one being checked.
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private var clients: [String: Client] = [:]
    private let clock: @Sendable () -> Date
    private let sleep: @Sendable (Double) async -> Void
    /// Failures before a client is locked.
    static let freeTries = 5
    static let firstLock: Double = 5
    static let longestLock: Double = 300
    /// How late a wrong password is answered.
    static let pause: Double = 1
    static let forgetAfter: Double = 15 * 60

    init(clock: @escaping @Sendable () -> Date = { Date() },
         sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(for: .seconds($0)) }) {
        self.clock = clock
        self.sleep = sleep
    }

    /// Runs `check` (the password comparison) for `client`, one try at a time per client. Every
    /// refusal comes after ``pause``: a wrong password while the client's turn is held (so tries
    /// sent at once are answered one after another), a locked try after the turn is given on.
    func attempt(client key: String, _ check: @Sendable () async -> Bool) async -> Outcome {
        let outcome = await turn(key, check)
        if case .locked = outcome { await sleep(Self.pause) }
        return outcome
    }

    private func turn(_ key: String, _ check: @Sendable () async -> Bool) async -> Outcome {
        await enter(key)
        defer { leave(key) }
        let now = clock()
        var client = clients[key] ?? Client()
        if now.timeIntervalSince(client.lastFailure) > Self.forgetAfter, now >= client.lockedUntil {
            client.failures = 0
        }
        if now < client.lockedUntil {
            clients[key] = client
            return .locked(seconds: max(1, Int(client.lockedUntil.timeIntervalSince(now).rounded(.up))))
        }
        clients[key] = client
        if await check() {
            clients[key]?.failures = 0
            clients[key]?.lockedUntil = .distantPast
            return .accepted
        }
        let failures = (clients[key]?.failures ?? 0) + 1
        clients[key]?.failures = failures
        clients[key]?.lastFailure = clock()
        if failures >= Self.freeTries {
            clients[key]?.lockedUntil = clock().addingTimeInterval(min(Self.longestLock, Self.firstLock * pow(2, Double(failures - Self.freeTries))))
        }
        // The wrong answer itself comes late, so guesses cannot be made faster than this.
        await sleep(Self.pause)
        return .wrong
    }

    /// Whether `client` is locked now (for a page that shows the sign-in form).
    func lockedSeconds(client key: String) -> Int? {
        guard let until = clients[key]?.lockedUntil else { return nil }
        let now = clock()
        return now < until ? max(1, Int(until.timeIntervalSince(now).rounded(.up))) : nil
    }

    /// Forgets the clients nothing is remembered of any more (unlocked, quiet a quarter of an
    /// hour), so the table does not grow with every address that once typed a wrong password.
    private func prune(now: Date) {
        guard clients.count > Self.pruneAbove else { return }
        clients = clients.filter { _, client in
            client.busy || now < client.lockedUntil || now.timeIntervalSince(client.lastFailure) <= Self.forgetAfter
        }
    }

    /// How many clients are remembered now.
    var clientCount: Int { clients.count }

    /// Entries kept before the quiet ones are looked for.
    static let pruneAbove = 1_000

    private func enter(_ key: String) async {
        prune(now: clock())
        if clients[key]?.busy == true {
            await withCheckedContinuation { continuation in clients[key, default: Client()].waiting.append(continuation) }
        } else {
            clients[key, default: Client()].busy = true
        }
    }

    /// Hands the client's turn to the next waiting try, or frees it.
    private func leave(_ key: String) {
        guard var client = clients[key] else { return }
        if client.waiting.isEmpty {
            client.busy = false
            // Nothing to remember: the entry goes, so the table does not grow with every address.
            if client.failures == 0, clock() >= client.lockedUntil {
                clients[key] = nil
                return
            }
        } else {
            client.waiting.removeFirst().resume()
        }
        clients[key] = client
    }
}
