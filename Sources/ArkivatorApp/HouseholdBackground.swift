import ArkivatorCore
import ArkivatorLLM
import ArkivatorPipeline
import ArkivatorSync
import Foundation

/// What `serve` runs beside the web app: the inbox watched as `watch` watches a folder (same
/// journal, so a letter received is never lost and never filed twice; the language model asked
/// when it is given), and the upload worker in the background, woken by each document filed.
/// The watcher has a thread of its own; ``stop()`` finishes the document being read, and the
/// upload in progress goes back in the queue.
public final class HouseholdBackground: Sendable {
    public let watcher: Watcher
    private let uploads: Uploads
    private let finished: DispatchSemaphore

    private init(watcher: Watcher, uploads: Uploads, finished: DispatchSemaphore) {
        self.watcher = watcher
        self.uploads = uploads
        self.finished = finished
    }

    /// Starts the inbox's watcher and the upload worker.
    /// - Parameters:
    ///   - languageModel: the model letters are read with, or nil for the rules alone.
    ///   - event: each thing the watcher did, on its thread.
    ///   - report: each round of uploads, on the worker's thread.
    ///   - problem: a failure that stopped the watcher.
    /// - Throws: when the inbox cannot be watched (nothing is started then).
    public static func start(_ household: Household, languageModel: LLMSettings?,
                             event: @escaping @Sendable (Watcher.Event) -> Void,
                             report: @escaping @Sendable (UploadReport) -> Void,
                             problem: @escaping @Sendable (any Error) -> Void) throws -> HouseholdBackground {
        let watcher = try household.watcher(.init(folder: household.inbox, settle: 1, onSuccess: .move),
                                            pipeline: .init(languageModel: languageModel, lowerPriority: true), report: event)
        let finished = DispatchSemaphore(value: 0)
        let watching = Thread {
            do {
                _ = try watcher.run()
            } catch {
                problem(error)
            }
            finished.signal()
        }
        watching.name = "arkivator-inbox"
        watching.start()
        household.uploads.start(report: report)
        // Lab values of letters filed before they were kept: read a few hundred at a time, so the
        // library's other work goes on between.
        let store = household.store
        Task.detached(priority: .background) {
            while let read = try? await store.write({ _ in try household.fillLabs(limit: 200) }), read > 0 {}
        }
        return HouseholdBackground(watcher: watcher, uploads: household.uploads, finished: finished)
    }

    /// Stops both and waits for them.
    public func stop() {
        watcher.stop()
        uploads.stop()
        finished.wait()
    }
}
