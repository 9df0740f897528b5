import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorSync
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// The upload worker at work in the background (what `serve` runs) and the queue's state in plain
/// words, against a real folder destination.
@Suite struct UploadsTests {
    /// Waits (polling, at most `timeout` seconds) until `condition` holds.
    func eventually(_ timeout: TimeInterval = 60, _ condition: () throws -> Bool) async rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if try condition() { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return try condition()
    }

    @Test func theLoopUploadsAFiledDocumentAndSaysInWordsWhenTheFolderIsGone() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        let reports = NIOLockedValueBox<[UploadReport]>([])
        // A long idle wait: only a wake (a document filed, "Prøv igjen") makes it look sooner.
        let uploads = Uploads(worker: UploadWorker(store: AsyncLibrary(sandbox.library), policy: UploadPolicy(retryDelays: [0.2, 0.2]),
                                                   environment: [:]),
                              idleCheck: 600)
        uploads.start { report in reports.withLockedValue { $0.append(report) } }
        defer { uploads.stop() }

        // Filed while the loop sleeps: the wake makes it upload now.
        try sandbox.fileDocuments(1, destination: "folder:\(copy.path)")
        uploads.wake()
        #expect(try await eventually { try sandbox.library.uploads.uploadJobs().allSatisfy { $0.state == .done } })
        try sandbox.expectUploaded(to: copy)
        var state = try await uploads.state()
        #expect(state.isClear && state.waiting.isEmpty)
        #expect(state.destinationName == copy.path)

        // The disk goes away: the next document waits, and the state says why in both languages.
        try FileManager.default.removeItem(at: copy)
        let later = try sandbox.fileDocuments(1, destination: "folder:\(copy.path)")
        uploads.wake()
        #expect(try await eventually { try sandbox.library.uploads.uploadJobs().contains { $0.state == .queued && $0.attempts >= 2 } })
        state = try await uploads.state()
        let wait = try #require(state.waiting.first)
        #expect(state.failed == 0 && state.waiting.count == 1, "a disk that is away is waited for, never given up")
        #expect(wait.reason == .destinationMissing)
        #expect(wait.jobs == 1 && wait.nextTry != nil && wait.since != nil && wait.failingSince != nil)
        #expect(wait.message.norwegian.contains("finnes ikke nå") && wait.message.norwegian.contains("Koble til disken"),
                "\(wait.message.norwegian)")
        #expect(wait.message.english.contains("is not there now"))
        #expect(!wait.message.norwegian.contains("arkivator "), "names no command: \(wait.message.norwegian)")
        #expect(!reports.withLockedValue { $0 }.contains { $0.entries.contains { $0.outcome == .failed } })

        // The disk is back; "Prøv igjen" wakes the loop, which uploads at once.
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        #expect(try await uploads.retryAll() == 1)
        #expect(try await eventually { try sandbox.library.uploads.uploadJobs().allSatisfy { $0.state == .done } })
        let title = try #require(later.first?.title)
        #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent("Kari Nordmann/Dokumenter/\(title).docx").path))
        #expect(try await uploads.state().waiting.isEmpty)
    }

    @Test func stoppingCancelsThePassAndEndsTheThread() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let uploads = Uploads(worker: UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]), idleCheck: 600)
        uploads.start()
        // Timed where it runs, so a busy test run does not count.
        let seconds = try await FileWork.run { () -> TimeInterval in
            let start = Date()
            uploads.stop(timeout: 10)
            return Date().timeIntervalSince(start)
        }
        #expect(seconds < 5)
        // Stopped for good: a wake or a second stop does nothing.
        uploads.wake()
        uploads.stop(timeout: 1)
    }

    @Test func jobsThatWaitAfterAnEarlierRunAreExplainedByCheckingTheDestination() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let gone = sandbox.directory.appendingPathComponent("Frakoblet")
        try sandbox.fileDocuments(2, destination: "folder:\(gone.path)")
        // An earlier process tried and failed (this worker never did).
        for job in try sandbox.library.uploads.uploadJobs() {
            try sandbox.library.uploads.recordUploadFailure(job.id, message: "Mappen finnes ikke nå.", counted: true,
                                                    retryAt: Date().addingTimeInterval(3600))
        }
        let uploads = Uploads(worker: UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]))
        let state = try await uploads.state()
        let wait = try #require(state.waiting.first)
        #expect(wait.reason == .destinationMissing && wait.jobs == 2)
        #expect(wait.nextTry != nil)

        // The disk is connected again: the jobs are tried by themselves, or at once on request.
        try FileManager.default.createDirectory(at: gone, withIntermediateDirectories: true)
        let again = Uploads(worker: UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]))
        let answers = try #require(try await again.state().waiting.first)
        #expect(answers.reason == .other)
        #expect(answers.message.norwegian.contains("svarer nå"), "\(answers.message.norwegian)")
    }
}
