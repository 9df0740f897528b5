import ArkivatorPipeline
import Foundation

/// When each document in the watched folder is read: the watcher's scheduling (settle, hold,
/// back off, forget) as a value. Every decision is given the time; nothing here reads the clock,
/// touches the disk or sleeps, so it is tested in process with made-up times.
///
/// - A document is ready once it has been quiet for `settle` seconds: its files' sizes and times
///   unchanged and no file event on it; one with a file created but never closed (or a download
///   still running) waits `unclosedSettle` instead.
/// - A document is held while it is unchanged and either parked (kept on purpose, or its original
///   could not be moved) or waiting for a retry time.
/// - What is known about a document is forgotten when it leaves the folder.
struct WatchSchedule {
    /// What one document looks like now.
    struct Document: Equatable {
        let key: String
        let stamps: [Watcher.Stamp]
        /// It holds a download that is not finished.
        let downloading: Bool
    }

    /// A file event, as the schedule needs it.
    struct FileEvent: Equatable {
        let path: String
        let folder: String
        let isDirectory: Bool
        let isCreate: Bool
        let isComplete: Bool
    }

    let settle: TimeInterval
    let unclosedSettle: TimeInterval

    private struct Tracked {
        var stamps: [Watcher.Stamp]
        var changedAt: Date
    }

    private struct Waiting {
        var stamps: [Watcher.Stamp]
        var until: Date
    }

    private var tracked: [String: Tracked] = [:]
    private var lastEvent: [String: Date] = [:]
    private var unclosed: Set<String> = []
    private var parked: [String: [Watcher.Stamp]] = [:]
    private var waiting: [String: Waiting] = [:]
    private var problems: [String: Int] = [:]

    init(settle: TimeInterval, unclosedSettle: TimeInterval) {
        self.settle = settle
        self.unclosedSettle = unclosedSettle
    }

    /// Documents being watched until they are quiet.
    var isTracking: Bool { !tracked.isEmpty }

    // MARK: Deciding

    /// The document to read now (the one quiet longest), else none; and the time to look again,
    /// no later than `wake`.
    mutating func next(among documents: [Document], now: Date, wake: Date) -> (ready: Document?, wake: Date) {
        var wake = wake
        var ready: (document: Document, at: Date)?
        for document in documents {
            if let until = held(document, now: now) {
                if let until { wake = min(wake, until) }
                continue
            }
            let at = readyAt(document, now: now)
            if at <= now {
                if ready.map({ at < $0.at }) ?? true { ready = (document, at) }
            } else {
                // Not quiet yet: look again soon (a look catches writes that send no event).
                wake = min(wake, at, now.addingTimeInterval(0.5))
            }
        }
        return (ready?.document, wake)
    }

    /// Why a document is not looked at now: nil if it may be; else the time to look again
    /// (nil inside: only when it changes). A change releases it.
    mutating func held(_ document: Document, now: Date) -> Date?? {
        if let stamps = parked[document.key] {
            if stamps == document.stamps { return .some(nil) }
            parked[document.key] = nil
        }
        if let wait = waiting[document.key] {
            if wait.stamps == document.stamps && now < wait.until { return .some(wait.until) }
            waiting[document.key] = nil
        }
        return nil
    }

    /// When a document will have been quiet long enough. A document seen for the first time
    /// counts as quiet since its files last changed.
    mutating func readyAt(_ document: Document, now: Date) -> Date {
        var state = tracked[document.key]
            ?? Tracked(stamps: document.stamps, changedAt: min(now, document.stamps.map(\.lastChange).max() ?? now))
        if state.stamps != document.stamps {
            state = Tracked(stamps: document.stamps, changedAt: now)
        }
        tracked[document.key] = state
        var quiet = state.changedAt
        for path in document.stamps.map(\.path) + [document.key] {
            if let event = lastEvent[path], event > quiet { quiet = event }
        }
        let open = document.downloading || document.stamps.contains { unclosed.contains($0.path) }
        return quiet.addingTimeInterval(open ? max(settle, unclosedSettle) : settle)
    }

    // MARK: What happened

    /// File events seen at `now`: they restart the quiet time of what they touch; a file created
    /// and not yet closed keeps its document open.
    mutating func note(_ events: [FileEvent], at now: Date) {
        for event in events {
            lastEvent[event.path] = now
            lastEvent[event.folder] = now
            if event.isDirectory { continue }
            if event.isCreate && !event.isComplete { unclosed.insert(event.path) }
            if event.isComplete { unclosed.remove(event.path) }
        }
    }

    /// The document was dealt with: it starts afresh if it comes back.
    mutating func finished(_ key: String) {
        tracked[key] = nil
    }

    /// Not looked at again until it changes.
    mutating func park(_ key: String, stamps: [Watcher.Stamp]) {
        parked[key] = stamps
    }

    /// Not looked at again before `until`, unless it changes.
    mutating func hold(_ key: String, stamps: [Watcher.Stamp], until: Date) {
        waiting[key] = Waiting(stamps: stamps, until: until)
    }

    /// A passing problem outside the document (the library could not be written): held for 1 s,
    /// 2 s, 4 s … after each one in a row, at most `longest`. Returns when to try again.
    @discardableResult
    mutating func backOff(_ key: String, stamps: [Watcher.Stamp], now: Date, longest: TimeInterval) -> Date {
        let count = (problems[key] ?? 0) + 1
        problems[key] = count
        let until = now.addingTimeInterval(min(longest, pow(2, Double(min(count, 16) - 1))))
        hold(key, stamps: stamps, until: until)
        return until
    }

    /// Drops what is known about documents no longer in the folder, events too old to matter, and
    /// unclosed files that are gone (`exists` says which are there).
    mutating func forget(except documents: [Document], now: Date, exists: (String) -> Bool) {
        let keys = Set(documents.map(\.key))
        tracked = tracked.filter { keys.contains($0.key) }
        parked = parked.filter { keys.contains($0.key) }
        waiting = waiting.filter { keys.contains($0.key) }
        problems = problems.filter { keys.contains($0.key) }
        let horizon = now.addingTimeInterval(-(settle + unclosedSettle + 1))
        lastEvent = lastEvent.filter { $0.value > horizon }
        unclosed = unclosed.filter(exists)
    }
}

extension Watcher.Found {
    /// What the schedule needs of it.
    var scheduled: WatchSchedule.Document { .init(key: key, stamps: stamps, downloading: downloading) }
}
