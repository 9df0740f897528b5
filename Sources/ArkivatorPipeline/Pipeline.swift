import ArkivatorArchive
import ArkivatorClassify
import ArkivatorCore
import ArkivatorImaging
import ArkivatorIntake
import ArkivatorLLM
import ArkivatorLibrary
import ArkivatorOCR
import Foundation
import NIOConcurrencyHelpers

/// Runs documents through the stages: intake → cleanup → OCR, pages in parallel.
///
/// Each worker thread owns a Tesseract engine, made once when the pipeline is made and reused for
/// every page. Blocking C work runs on these threads, never on Swift's cooperative pool.
/// Records are delivered in the order the documents were given, whatever order pages finish in.
public final class Pipeline: Sendable {
    public struct Options: Sendable {
        /// Pages read at the same time; default: the number of cores.
        public var jobs: Int
        /// Where cleaned page images are written (`--out`); nil writes none.
        public var pageImageDirectory: URL?
        /// The Tesseract language.
        public var language: String
        public var pixelBudget: Int
        /// Classifies each read document (type, date, person, title); nil skips the stage.
        public var classifier: Classifier?
        /// Files each document in the archive (.docx, page images, searchable PDF); nil writes nothing.
        public var archive: ArchiveOptions?
        /// Asks a language model after the rules (`ingest --llm`); nil keeps the rules' result.
        public var assistant: LetterAssistant?
        /// The workers' nice value (0: as the process; `serve` uses 10, so pages read in the
        /// background never slow the answers to the household's browsers).
        public var workerNiceness: Int32
        /// The pixels the workers may have decoded at one time (see `PixelBudget`): a page waits
        /// until it fits beside the pages being read; one larger than this is read alone.
        public var pixelsAtOnce: Int

        public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, pageImageDirectory: URL? = nil,
                    language: String = "nor", pixelBudget: Int = Image.defaultPixelBudget,
                    classifier: Classifier? = Classifier(), archive: ArchiveOptions? = nil,
                    assistant: LetterAssistant? = nil, workerNiceness: Int32 = 0, pixelsAtOnce: Int? = nil) {
            self.workerNiceness = workerNiceness
            self.pixelsAtOnce = pixelsAtOnce ?? PixelBudget.capacity(jobs: max(1, jobs))
            self.jobs = max(1, jobs)
            self.pageImageDirectory = pageImageDirectory
            self.language = language
            self.pixelBudget = pixelBudget
            self.classifier = classifier
            self.archive = archive
            self.assistant = assistant
        }
    }

    /// A step a document has got through (reported as it happens, from a worker thread).
    public enum Stage: Sendable, Equatable {
        /// Every page cleaned and read.
        case recognised
        /// Type, date, person and title found.
        case classified
        /// Its files are in the archive and it is recorded in the library (one step).
        case written
    }

    /// Pages done so far and pages known in all.
    public struct Progress: Sendable {
        public var pagesDone: Int
        public var pagesTotal: Int
        public var documentsDone: Int
        public var documentsTotal: Int
    }

    public let options: Options
    // One reader per worker; reader i is only ever used by worker thread i, and by one run at a time.
    private let readers: [PageReader]
    /// Held by the run in progress: a second `run` at the same time waits for its turn, so no
    /// Tesseract engine is ever driven from two threads.
    private let turn = DispatchSemaphore(value: 1)

    /// Makes the workers and loads one Tesseract engine for each.
    public init(options: Options = Options()) throws {
        self.options = options
        Leptonica.silence()
        var made: [PageReader] = []
        for _ in 0..<options.jobs { made.append(try PageReader(language: options.language)) }
        readers = made
    }

    /// Reads every document; `record` is called once per document, in input order, and
    /// `progress` after every page. Both are called one at a time, in order, on one delivery
    /// queue, never while the pipeline's state is locked; every call has been made when `run`
    /// returns. One run at a time: a call from another thread meanwhile waits for this one (so a
    /// callback must not start another run on the same pipeline).
    public func run(_ documents: [DocumentSource],
                    progress: @escaping @Sendable (Progress) -> Void = { _ in },
                    stage: @escaping @Sendable (_ document: Int, _ stage: Stage) -> Void = { _, _ in },
                    record: @escaping @Sendable (DocumentRecord) -> Void) {
        run(documents.map { PipelineRun.Input(source: $0, received: nil) }, progress: progress, stage: stage, record: record)
    }

    /// Reads one document whose files the caller has read already and checked against the
    /// library (it holds no document with that identity): they are neither read nor looked up
    /// again. Otherwise as ``run(_:progress:stage:record:)``.
    public func run(_ document: ReceivedDocument,
                    stage: @escaping @Sendable (_ document: Int, _ stage: Stage) -> Void = { _, _ in },
                    record: @escaping @Sendable (DocumentRecord) -> Void) {
        run([PipelineRun.Input(source: document.source, received: document.files)], progress: { _ in }, stage: stage, record: record)
    }

    private func run(_ documents: [PipelineRun.Input], progress: @escaping @Sendable (Progress) -> Void,
                     stage: @escaping @Sendable (_ document: Int, _ stage: Stage) -> Void,
                     record: @escaping @Sendable (DocumentRecord) -> Void) {
        guard !documents.isEmpty else { return }
        turn.wait()
        defer { turn.signal() }
        let run = PipelineRun(documents: documents, options: options, workers: readers.count, progress: progress, stage: stage,
                      record: record)
        let group = DispatchGroup()
        for reader in readers {
            group.enter()
            let niceness = options.workerNiceness
            let thread = Thread {
                // Only this worker steps back.
                ThreadNiceness.set(niceness)
                run.work(with: reader)
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        run.drain()
    }
}

