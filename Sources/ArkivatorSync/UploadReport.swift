import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// How long the queue waits, and how often it tries.
public struct UploadPolicy: Sendable, Equatable {
    /// The waits after the 1st, 2nd … failed try; after the last one each wait doubles, up to
    /// ``longestDelay``. A destination that is down, slow or full is tried for as long as it takes.
    public var retryDelays: [TimeInterval]
    /// The longest wait between two tries.
    public var longestDelay: TimeInterval
    /// How long a job whose login was refused waits before the next try (not counted as a try).
    public var loginRetryDelay: TimeInterval
    /// An `uploading` job not touched for this long belongs to a process that died (used when
    /// another process holds the upload lock, or the lock cannot be had).
    public var staleAfter: TimeInterval
    /// How long the notify command may run.
    public var notifyTimeout: TimeInterval
    /// How long copies may keep failing before the household is told (the notify command, and
    /// Settings in words).
    public var tellAfter: TimeInterval

    public init(retryDelays: [TimeInterval] = [1, 2, 4, 8, 16], longestDelay: TimeInterval = 900,
                loginRetryDelay: TimeInterval = 300, staleAfter: TimeInterval = 60, notifyTimeout: TimeInterval = 30,
                tellAfter: TimeInterval = 3600) {
        self.retryDelays = retryDelays
        self.longestDelay = longestDelay
        self.loginRetryDelay = loginRetryDelay
        self.staleAfter = staleAfter
        self.notifyTimeout = notifyTimeout
        self.tellAfter = tellAfter
    }

    /// The wait after the `attempt`-th failed try (1…): never nil, a job that waits is tried again.
    public func delay(afterAttempt attempt: Int) -> TimeInterval? {
        guard attempt >= 1 else { return retryDelays.first ?? 1 }
        if attempt <= retryDelays.count { return min(retryDelays[attempt - 1], longestDelay) }
        let doublings = Double(min(attempt - retryDelays.count, 30))
        return min((retryDelays.last ?? 1) * pow(2, doublings), longestDelay)
    }
}

/// What one or more passes of the worker did.
public struct UploadReport: Sendable, Equatable {
    public enum Outcome: String, Sendable, Codable {
        /// Every file is at the destination.
        case done
        /// The try failed; the job is tried again later (its `nextAttemptAt`).
        case retrying
        /// The login was refused; the job waits for it to be fixed (no try used up).
        case waitingForLogin
        /// The job gave up (`error`); the notify command ran.
        case failed
    }

    public struct Entry: Sendable, Equatable {
        /// The job after this try.
        public var job: UploadJob
        public var outcome: Outcome
        public var uploaded: Int
        public var unchanged: Int
        /// Files moved or renamed at the destination (a corrected person, date or title; the trash).
        public var moved: Int = 0
        /// Files removed at the destination (a page fewer, a letter purged).
        public var removed: Int = 0
        /// Why it failed.
        public var message: UserMessage?
        /// The failure's kind.
        public var failure: UploadFailure.Kind?
        /// The job did not carry this message before (a login refused for the first time).
        var isNews = false
    }

    public var entries: [Entry] = []
    /// True when a pass found another process uploading (it did nothing then).
    public var busy = false
    /// Copies of purged letters removed from the destination.
    public var removedOrphans = 0
    /// Letters whose copies were queued again because the machine started again before they
    /// were surely on the destination's disk (see ``UnsettledCopies``).
    public var resentAfterRestart = 0
    /// What went wrong besides the jobs: the database, the notify command.
    public var problems: [UserMessage] = []

    public init() {}

    public var done: [Entry] { entries.filter { $0.outcome == .done } }
    public var failed: [Entry] { entries.filter { $0.outcome == .failed } }
    /// Whether every job tried ended `done`.
    public var allDone: Bool { entries.allSatisfy { $0.outcome == .done } }

    mutating func merge(_ other: UploadReport) {
        entries += other.entries
        busy = busy || other.busy
        removedOrphans += other.removedOrphans
        resentAfterRestart += other.resentAfterRestart
        problems += other.problems
    }
}
