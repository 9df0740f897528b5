import ArkivatorLibrary
import NIOConcurrencyHelpers

/// The gathered episodes (``TimelineView/Gathered``) of the few household members whose
/// timelines were opened last, each kept with the library's ``Library/lettersStamp()`` it was
/// gathered at and used only while the library's stamp is still the same. Triggers in the
/// database draw a new stamp whenever a letter is added, deleted or moved, or its date, type,
/// specialty or sender changes, by this process or any other on the same file (`ingest`, the
/// watcher, `edit`): so a kept timeline is never older than the letters. Reading a member's
/// 10,000 newest letters and gathering them takes tens of milliseconds; the stamp is one row.
///
/// Used on the library's reader threads (inside ``AsyncLibrary/read(_:)``): the lock is held to
/// look up and to store, never while reading or gathering. Two requests that miss at once both
/// gather (at most one per reader thread); the result stored last is kept.
final class TimelineCache: Sendable {
    /// Members kept at most, the one used longest ago leaving first: each is about 1–2 MB at
    /// 10,000 letters.
    static let members = 4

    private struct Kept: Sendable {
        let member: String
        let stamp: Int
        let gathered: TimelineView.Gathered
    }

    private struct State: Sendable {
        /// The one used last at the end.
        var kept: [Kept] = []
        var gatherings = 0
    }

    private let state = NIOLockedValueBox(State())

    /// How many times a member's letters were read and gathered rather than taken as kept.
    var gatherings: Int { state.withLockedValue { $0.gatherings } }

    /// The letters of household member `member` (at most `limit`, the newest) gathered into
    /// episodes: as kept when the library's letters have not changed since, else read and
    /// gathered now (and kept). Blocks: call it on the library's threads.
    func gathered(member: String, limit: Int, in library: Library) throws -> TimelineView.Gathered {
        // The stamp before the letters: a change in between can only leave newer letters under an
        // older stamp, which the next request finds changed and gathers again.
        let stamp = try library.documents.lettersStamp()
        if let stamp, let kept = state.withLockedValue({ state -> TimelineView.Gathered? in
            guard let index = state.kept.firstIndex(where: { $0.member == member && $0.stamp == stamp }) else { return nil }
            let found = state.kept.remove(at: index)
            state.kept.append(found)
            return found.gathered
        }) {
            return kept
        }
        let read = try library.documents.timelineEntries(member: member, limit: limit)
        let gathered = TimelineView.Gathered(read.entries, capped: read.more)
        state.withLockedValue { state in
            state.gatherings += 1
            guard let stamp else { return }
            // What was kept under another stamp is of letters since changed.
            state.kept.removeAll { $0.member == member || $0.stamp != stamp }
            state.kept.append(Kept(member: member, stamp: stamp, gathered: gathered))
            state.kept.removeFirst(max(0, state.kept.count - Self.members))
        }
        return gathered
    }
}
