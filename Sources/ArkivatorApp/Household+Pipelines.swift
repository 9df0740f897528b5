import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorPipeline
import Foundation

extension Household {
    /// What a pipeline is made for: the choices a command makes (`ingest`'s and `watch`'s flags,
    /// `serve`'s inbox); everything else comes from the household.
    public struct PipelineChoice: Sendable {
        /// Pages read at the same time.
        public var jobs: Int
        /// Where cleaned page images are written (`ingest --out`); nil writes none.
        public var pageImageDirectory: URL?
        /// File each document in the archive and the library; false reads and classifies only.
        public var filing: Bool
        /// The archive folder; nil: `<library>/Arkiv`.
        public var archiveRoot: URL?
        /// Replace fødselsnumre with `DDMMYY •••••` before filing.
        public var redact: Bool
        /// The language model to ask after the rules (see ``Household/languageModel(flag:)``); nil: rules only.
        public var languageModel: LLMSettings?
        /// Read pages at a lower priority than the rest of the process (`serve`: the web app answers first).
        public var lowerPriority: Bool

        public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, pageImageDirectory: URL? = nil,
                    filing: Bool = true, archiveRoot: URL? = nil, redact: Bool = false, languageModel: LLMSettings? = nil,
                    lowerPriority: Bool = false) {
            self.lowerPriority = lowerPriority
            self.jobs = jobs
            self.pageImageDirectory = pageImageDirectory
            self.filing = filing
            self.archiveRoot = archiveRoot
            self.redact = redact
            self.languageModel = languageModel
        }
    }

    /// A pipeline for `choice`, with the household read now (a member added meanwhile is known)
    /// and, when a language model is chosen, a new assistant (one that stopped asking after the
    /// server went down asks again).
    public func makePipeline(_ choice: PipelineChoice) throws -> Pipeline {
        let family = try family()
        let assistant = try choice.languageModel.map { try LetterAssistant(settings: $0, family: family.map(\.name)) }
        let archive = choice.filing
            ? ArchiveOptions(root: choice.archiveRoot ?? library.defaultArchiveRoot, library: library, redact: choice.redact)
            : nil
        return try Pipeline(options: .init(jobs: choice.jobs, pageImageDirectory: choice.pageImageDirectory,
                                           classifier: Classifier(family: family), archive: archive, assistant: assistant,
                                           workerNiceness: choice.lowerPriority ? 10 : 0))
    }

    /// Makes a pipeline for `choice` each time it is called (a watcher calls it when work comes,
    /// and again after its engines were unloaded).
    public func pipelineFactory(_ choice: PipelineChoice) -> @Sendable () throws -> Pipeline {
        { [self] in try makePipeline(choice) }
    }

    /// A watcher over `options.folder` that files through pipelines for `choice`. A document
    /// filed wakes the upload worker when it runs in the background (``Uploads/start(report:)``).
    public func watcher(_ options: Watcher.Options, pipeline choice: PipelineChoice,
                        report: @escaping @Sendable (Watcher.Event) -> Void) throws -> Watcher {
        let uploads = uploads
        return try Watcher(library: library, options: options, makePipeline: pipelineFactory(choice)) { event in
            switch event {
            case .filed, .finishedEarlier: uploads.wake()
            default: break
            }
            report(event)
        }
    }

    /// What `watch` does between documents: the uploads that are due, a few at a time (so filing
    /// goes on), on the watching thread; returns when the next job is due.
    public func uploadsBetweenDocuments(maxJobs: Int = 4) -> @Sendable () -> Date? {
        let (worker, library) = (uploads.worker, library)
        return {
            _ = worker.runDueJobsAndWait(maxJobs: maxJobs)
            return (try? library.uploads.uploadQueueStatus())?.nextDue
        }
    }
}
