import Foundation
import Testing
@testable import ArkivatorApp
import ArkivatorPipeline

/// The watcher's scheduling in process, on made-up times: no folder, no clock, no sleeping.
@Suite struct WatchScheduleTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// A file stamp whose last change is `changed` seconds after t0.
    func stamp(_ path: String, size: Int64 = 100, changed: Double = -3600) -> Watcher.Stamp {
        let nanoseconds = Int64((t0.timeIntervalSince1970 + changed) * 1_000_000_000)
        return Watcher.Stamp(path: path, size: size, modified: nanoseconds, changed: nanoseconds, inode: 1)
    }

    func document(_ key: String, _ stamps: [Watcher.Stamp], downloading: Bool = false) -> WatchSchedule.Document {
        WatchSchedule.Document(key: key, stamps: stamps, downloading: downloading)
    }

    @Test func anOldFileIsReadAtOnceANewOneAfterSettling() {
        var schedule = WatchSchedule(settle: 3, unclosedSettle: 60)
        let old = document("/inn/gammel.jpg", [stamp("/inn/gammel.jpg")])
        let new = document("/inn/ny.jpg", [stamp("/inn/ny.jpg", changed: 0)])
        let first = schedule.next(among: [old, new], now: at(0), wake: at(30))
        #expect(first.ready == old)
        #expect(first.wake == at(0.5), "the new one is looked at again soon")
        schedule.finished(old.key)
        #expect(schedule.next(among: [new], now: at(2.9), wake: at(30)).ready == nil)
        #expect(schedule.next(among: [new], now: at(3), wake: at(30)).ready == new)
    }

    @Test func aChangeOrAnEventRestartsTheQuietTime() {
        var schedule = WatchSchedule(settle: 3, unclosedSettle: 60)
        let key = "/inn/brev.jpg"
        #expect(schedule.next(among: [document(key, [stamp(key, changed: 0)])], now: at(1), wake: at(30)).ready == nil)
        // It grew at 2 s: quiet from then.
        let grown = document(key, [stamp(key, size: 200, changed: 2)])
        #expect(schedule.next(among: [grown], now: at(2), wake: at(30)).ready == nil)
        #expect(schedule.readyAt(grown, now: at(4)) == at(5))
        // An event at 4.5 s without a visible change (a write of the same size) counts too.
        schedule.note([.init(path: key, folder: "/inn", isDirectory: false, isCreate: false, isComplete: false)], at: at(4.5))
        #expect(schedule.readyAt(grown, now: at(5)) == at(7.5))
        #expect(schedule.next(among: [grown], now: at(7.5), wake: at(30)).ready == grown)
    }

    @Test func aFileCreatedButNotClosedWaitsLonger() {
        var schedule = WatchSchedule(settle: 3, unclosedSettle: 60)
        let key = "/inn/skann.tif"
        let doc = document(key, [stamp(key, changed: 0)])
        schedule.note([.init(path: key, folder: "/inn", isDirectory: false, isCreate: true, isComplete: false)], at: at(0))
        #expect(schedule.next(among: [doc], now: at(10), wake: at(30)).ready == nil)
        #expect(schedule.next(among: [doc], now: at(60), wake: at(90)).ready == doc)
        // Closed: the ordinary settle time.
        var closed = WatchSchedule(settle: 3, unclosedSettle: 60)
        closed.note([.init(path: key, folder: "/inn", isDirectory: false, isCreate: true, isComplete: false),
                     .init(path: key, folder: "/inn", isDirectory: false, isCreate: false, isComplete: true)], at: at(0))
        #expect(closed.next(among: [doc], now: at(3), wake: at(30)).ready == doc)
        // An unfinished download holds its folder the same way.
        var download = WatchSchedule(settle: 3, unclosedSettle: 60)
        let folder = document("/inn/Brev", [stamp("/inn/Brev/side1.jpg", changed: 0)], downloading: true)
        #expect(download.next(among: [folder], now: at(10), wake: at(30)).ready == nil)
        #expect(download.next(among: [folder], now: at(60), wake: at(90)).ready == folder)
    }

    @Test func parkedAndWaitingDocumentsAreHeldUntilTheyChangeOrTheirTimeComes() {
        var schedule = WatchSchedule(settle: 3, unclosedSettle: 60)
        let key = "/inn/brev.jpg"
        let doc = document(key, [stamp(key)])
        schedule.park(key, stamps: doc.stamps)
        let parked = schedule.next(among: [doc], now: at(0), wake: at(30))
        #expect(parked.ready == nil && parked.wake == at(30), "parked: no wake-up of its own")
        let changed = document(key, [stamp(key, size: 1, changed: 10)])
        #expect(schedule.held(changed, now: at(11)) == nil, "a change releases it")

        schedule.hold(key, stamps: doc.stamps, until: at(60))
        let waiting = schedule.next(among: [doc], now: at(0), wake: at(300))
        #expect(waiting.ready == nil && waiting.wake == at(60))
        #expect(schedule.next(among: [doc], now: at(60), wake: at(300)).ready == doc)
    }

    @Test func passingProblemsBackOffDoublingUpToTheFirstRetryDelay() {
        var schedule = WatchSchedule(settle: 0, unclosedSettle: 60)
        let key = "/inn/brev.jpg"
        let stamps = [stamp(key)]
        let delays = (0..<10).map { _ in schedule.backOff(key, stamps: stamps, now: at(0), longest: 60).timeIntervalSince(at(0)) }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60, 60])
        // Leaving the folder forgets it: the next problem starts at 1 s again.
        schedule.forget(except: [], now: at(0), exists: { _ in false })
        #expect(schedule.backOff(key, stamps: stamps, now: at(0), longest: 60) == at(1))
    }

    @Test func forgettingDropsWhatLeftTheFolder() {
        var schedule = WatchSchedule(settle: 3, unclosedSettle: 60)
        let a = document("/inn/a.jpg", [stamp("/inn/a.jpg", changed: 0)])
        let b = document("/inn/b.jpg", [stamp("/inn/b.jpg", changed: 0)])
        _ = schedule.next(among: [a, b], now: at(1), wake: at(30))
        #expect(schedule.isTracking)
        schedule.forget(except: [], now: at(1), exists: { _ in false })
        #expect(!schedule.isTracking)
        // A file created and never closed that is gone no longer holds a document that reuses its name.
        schedule.note([.init(path: "/inn/c.jpg", folder: "/inn", isDirectory: false, isCreate: true, isComplete: false)], at: at(0))
        schedule.forget(except: [], now: at(100), exists: { _ in false })
        let c = document("/inn/c.jpg", [stamp("/inn/c.jpg", changed: 100)])
        #expect(schedule.readyAt(c, now: at(100)) == at(103))
    }
}
