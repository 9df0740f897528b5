import ArkivatorCore
import Foundation
import NIOConcurrencyHelpers

/// The letters being explained now, each at most once at a time, and the last failure per
/// letter, in memory (a restart forgets them; a kept explanation is in the library).
///
/// «Forklar brevet» starts the work here and answers at once or after a short wait, so no
/// request waits on the model for minutes: the page says the explanation is being made and
/// shows it when it is done. The work is the household's (``Household/explain(_:again:for:)``):
/// the library on threads of its own, the model awaited without holding a thread.
final class ExplanationJobs: Sendable {
    enum State: Sendable, Equatable {
        case running(UUID)
        case failed(UserMessage, at: Date)
    }

    private let states = NIOLockedValueBox<[String: State]>([:])
    /// How long a failure is shown on the letter's page (a try after it clears it at once).
    static let failureShown: TimeInterval = 30 * 60

    /// How long «Forklar brevet» waits for a quick model before it shows the page.
    let wait: Duration

    init(wait: Duration = .seconds(15)) {
        self.wait = wait
    }

    /// The letter's state: being explained, or the last try failed (lately); nil when neither.
    func state(_ letter: String, now: Date = Date()) -> State? {
        states.withLockedValue { states in
            if case .failed(_, let at) = states[letter], now.timeIntervalSince(at) > Self.failureShown {
                states[letter] = nil
            }
            return states[letter]
        }
    }

    /// Starts `work` for `letter` unless it is being explained already.
    func start(_ letter: String, _ work: @escaping @Sendable () async throws -> Void) {
        let job = UUID()
        let started = states.withLockedValue { states -> Bool in
            if case .running = states[letter] { return false }
            states[letter] = .running(job)
            return true
        }
        guard started else { return }
        Task {
            var outcome: State?
            do {
                try await work()
            } catch {
                outcome = .failed(UserMessage(error: error), at: Date())
            }
            states.withLockedValue { states in
                if states[letter] == .running(job) { states[letter] = outcome }
            }
        }
    }

    /// Waits until `letter` is no longer being explained, or ``wait`` has passed.
    func wait(for letter: String) async {
        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            guard case .running = state(letter) else { return }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }
}
