import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// How long the queue waits, and how often it tries.
public struct UploadPolicy: Sendable, Equatable {
    /// The waits after the 1st, 2nd … failed try; a job whose failed tries outnumber them gives
    /// up (`error`). The default, 1, 2, 4, 8 and 16 s, means six tries over about 31 s.
    public var retryDelays: [TimeInterval]
    /// How long a job whose login was refused waits before the next try (not counted as a try).
    public var loginRetryDelay: TimeInterval
    /// An `uploading` job not touched for this long belongs to a process that died (used when
    /// another process holds the upload lock, or the lock cannot be had).
    public var staleAfter: TimeInterval
    /// How long the notify command may run.
    public var notifyTimeout: TimeInterval

    public init(retryDelays: [TimeInterval] = [1, 2, 4, 8, 16], loginRetryDelay: TimeInterval = 300,
                staleAfter: TimeInterval = 60, notifyTimeout: TimeInterval = 30) {
        self.retryDelays = retryDelays
        self.loginRetryDelay = loginRetryDelay
        self.staleAfter = staleAfter
        self.notifyTimeout = notifyTimeout
    }

    /// The wait after the `attempt`-th failed try (1…), or nil when the job gives up.
    public func delay(afterAttempt attempt: Int) -> TimeInterval? {
        attempt >= 1 && attempt <= retryDelays.count ? retryDelays[attempt - 1] : nil
    }

    /// The most tries a job gets.
    public var maximumTries: Int { retryDelays.count + 1 }
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
        problems += other.problems
    }
}
