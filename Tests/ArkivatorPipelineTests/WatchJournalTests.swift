import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// The `watch` journal's SQL on a real library database.
@Suite struct WatchJournalTests {
    static let diskFull = DocumentFailure(stage: .write, code: "diskFull",
                                          message: UserMessage(nb: "Disken er full.", en: "The disk is full."))

    func withLibrary(_ body: (Library) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            let library = try Library.open(LibraryLocation(directory: dir.appendingPathComponent("bibliotek")), environment: [:])
            try body(library)
        }
    }

    @Test func stagesMoveForwardAndFinishedRowsLeaveTheUnfinishedList() throws {
        try withLibrary { library in
            let journal = library.journal
            let entry = try journal.receive(sha256: "a1", source: "/inn/a.jpg")
            #expect(entry.stage == .received && entry.attempts == 0 && entry.failure == nil && entry.nextAttemptAt == nil)
            #expect(try journal.unfinished().map(\.sha256) == ["a1"])
            try journal.advance(sha256: "a1", to: .indexed)
            #expect(try journal.entry(sha256: "a1")?.stage == .indexed)
            #expect(try journal.unfinished().map(\.sha256) == ["a1"])
            try journal.advance(sha256: "a1", to: .done)
            #expect(try journal.entry(sha256: "a1")?.stage == .done)
            #expect(try journal.unfinished().isEmpty)
            // Received again (the same file dropped again): the finished row is kept as it is…
            #expect(try journal.receive(sha256: "a1", source: "/inn/a (2).jpg").stage == .done)
            // …unless the caller starts it over.
            let again = try journal.receive(sha256: "a1", source: "/inn/a.jpg", restart: true)
            #expect(again.stage == .received && again.source == "/inn/a.jpg")
        }
    }

    @Test func failuresWaitForTheirRetryOrAreFinal() throws {
        try withLibrary { library in
            let journal = library.journal
            try journal.receive(sha256: "b2", source: "/inn/b_p1.jpg\n/inn/b_p2.jpg")
            let retry = Date().addingTimeInterval(60)
            #expect(try journal.fail(sha256: "b2", failure: Self.diskFull, retryAt: retry) == 1)
            let waiting = try #require(try journal.entry(sha256: "b2"))
            #expect(waiting.isWaitingForRetry && !waiting.hasFailedForGood)
            #expect(abs((waiting.nextAttemptAt ?? .distantPast).timeIntervalSince(retry)) < 1.5)
            #expect(waiting.failure == Self.diskFull, "both languages and the code come back")
            #expect(waiting.failure?.userMessage.english == "The disk is full.")
            #expect(waiting.sourcePaths == ["/inn/b_p1.jpg", "/inn/b_p2.jpg"])
            #expect(try journal.unfinished().map(\.sha256) == ["b2"], "a retry is unfinished work")
            // A running row is never reset by receiving it again.
            #expect(try journal.receive(sha256: "b2", source: "/inn/b_p1.jpg\n/inn/b_p2.jpg").attempts == 1)
            #expect(try journal.fail(sha256: "b2", failure: DocumentFailure(InputError.notAnImage(detected: "tekst"), in: .intake), retryAt: nil) == 2)
            let failed = try #require(try journal.entry(sha256: "b2"))
            #expect(failed.hasFailedForGood && failed.nextAttemptAt == nil)
            #expect(try journal.unfinished().isEmpty, "a final failure waits for the user")
            #expect(try journal.entries(at: .failed).map(\.sha256) == ["b2"])
            // Moved back by the user: starts over.
            let back = try journal.receive(sha256: "b2", source: "/inn/b_p1.jpg\n/inn/b_p2.jpg", restart: true)
            #expect(back.stage == .received && back.attempts == 0 && back.failure == nil)
        }
    }

    @Test func rowsSurviveReopeningTheLibrary() throws {
        try withTemporaryDirectory { dir in
            let location = LibraryLocation(directory: dir.appendingPathComponent("bibliotek"))
            do {
                let library = try Library.open(location, environment: [:])
                try library.journal.receive(sha256: "c3", source: "/inn/c.png")
                try library.journal.advance(sha256: "c3", to: .recognised)
            }
            let reopened = try Library.open(location, environment: [:])
            #expect(try reopened.journal.unfinished().map { "\($0.sha256) \($0.stage.rawValue)" } == ["c3 recognised"])
            try reopened.journal.remove(sha256: "c3")
            #expect(try reopened.journal.entry(sha256: "c3") == nil)
        }
    }
}
