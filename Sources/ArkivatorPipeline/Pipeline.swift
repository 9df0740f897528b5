import ArkivatorArchive
import ArkivatorClassify
import ArkivatorCore
import ArkivatorImaging
import ArkivatorIntake
import ArkivatorLLM
import ArkivatorLibrary
import ArkivatorOCR
import Foundation

/// Runs documents through the stages: intake → cleanup → OCR, pages in parallel.
///
/// Each worker thread owns a Tesseract engine, made once when the pipeline is made and reused for
/// every page. Blocking C work runs on these threads, never on Swift's cooperative pool.
/// Records are delivered in the order the documents were given, whatever order pages finish in.
public final class Pipeline: @unchecked Sendable {
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

        public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, pageImageDirectory: URL? = nil,
                    language: String = "nor", pixelBudget: Int = Image.defaultPixelBudget,
                    classifier: Classifier? = Classifier(), archive: ArchiveOptions? = nil,
                    assistant: LetterAssistant? = nil) {
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
    // One reader per worker; reader i is only ever used by worker thread i.
    private let readers: [PageReader]

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
    /// queue, never while the pipeline holds a lock; every call has been made when `run` returns.
    public func run(_ documents: [DocumentSource],
                    progress: @escaping @Sendable (Progress) -> Void = { _ in },
                    stage: @escaping @Sendable (_ document: Int, _ stage: Stage) -> Void = { _, _ in },
                    record: @escaping @Sendable (DocumentRecord) -> Void) {
        guard !documents.isEmpty else { return }
        let run = Run(documents: documents, options: options, progress: progress, stage: stage, record: record)
        let group = DispatchGroup()
        for reader in readers {
            group.enter()
            let thread = Thread {
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

/// The shared state of one `Pipeline.run`: a queue of jobs and the documents being assembled.
private final class Run: @unchecked Sendable {
    // Safe to share because every mutable field below is guarded by `condition`, and the
    // callbacks run on `delivery` only (enqueued in order under the lock, run outside it).
    private enum Job {
        case open(Int)
        /// One page, decoded by the worker that reads it (so only the pages being read are in memory).
        case page(document: Int, page: Int, file: EncodedPages, index: Int)
    }

    private struct Assembly {
        var record: DocumentRecord
        var pages: [PageReader.Result?] = []
        var remaining = 0
        var finished = false
        var pageImageNames: [String?] = []
    }

    // All fields below are guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Job]
    private var busy = 0
    private var assemblies: [Assembly]
    private var nextToEmit = 0
    private var pagesDone = 0
    private var pagesTotal: Int
    private var documentsDone = 0

    private let documents: [DocumentSource]
    private let options: Pipeline.Options
    private let progress: @Sendable (Pipeline.Progress) -> Void
    private let stage: @Sendable (Int, Pipeline.Stage) -> Void
    private let record: @Sendable (DocumentRecord) -> Void
    /// Runs the `record` and `progress` callbacks, one at a time, in the order they were queued.
    private let delivery = DispatchQueue(label: "arkivator.pipeline.delivery")

    init(documents: [DocumentSource], options: Pipeline.Options,
         progress: @escaping @Sendable (Pipeline.Progress) -> Void,
         stage: @escaping @Sendable (Int, Pipeline.Stage) -> Void,
         record: @escaping @Sendable (DocumentRecord) -> Void) {
        self.documents = documents
        self.options = options
        self.progress = progress
        self.stage = stage
        self.record = record
        queue = documents.indices.map { Job.open($0) }
        assemblies = documents.map { Assembly(record: DocumentRecord(sources: $0.pages.map(\.path))) }
        pagesTotal = documents.reduce(0) { $0 + $1.pages.count }
    }

    func work(with reader: PageReader) {
        while let job = take() {
            switch job {
            case .open(let index): open(index)
            case .page(let document, let page, let file, let pageIndex):
                read(document: document, page: page, file: file, index: pageIndex, with: reader)
            }
            condition.lock()
            busy -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits until every queued callback has run.
    func drain() {
        delivery.sync {}
    }

    /// The next job, waiting while other workers may still add pages; nil when all is done.
    private func take() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            if busy == 0 { return nil }
            condition.wait()
        }
        busy += 1
        return queue.removeFirst()
    }

    /// Intake: reads the document's files, checks every page from its header (size, count) and
    /// queues its pages first in line. Pixels are decoded later, page by page.
    private func open(_ index: Int) {
        let source = documents[index]
        var timings = DocumentRecord.Timings()
        var files: [ReceivedFile] = []
        var encoded: [EncodedPages] = []
        var failure: InputError?
        var pageCount = 0
        for url in source.pages {
            let readStart = Date()
            do {
                let file = try ReceivedFile.read(url)
                files.append(file)
                timings.read += Date().timeIntervalSince(readStart)
                let inspectStart = Date()
                let pages = try EncodedPages.inspect(file.bytes, pixelBudget: options.pixelBudget,
                                                     pageLimit: Image.maximumPages - pageCount)
                pageCount += pages.count
                encoded.append(pages)
                timings.decode += Date().timeIntervalSince(inspectStart)
            } catch {
                failure = error
                break
            }
        }
        let scanDate = Self.scanDate(of: source.pages)
        let id = failure == nil ? ReceivedFile.documentID(of: files) : nil
        // Asked before taking the lock: the library has its own.
        let existing = id.flatMap { id in try? options.archive?.library?.existing(sha256: id) }
        condition.lock()
        defer { condition.unlock() }
        assemblies[index].record.timings = timings
        assemblies[index].record.scanDate = scanDate.iso
        assemblies[index].record.id = id
        if let existing {
            // The library has this document already: nothing to read or write.
            assemblies[index].record.libraryID = existing.id
            assemblies[index].record.libraryStatus = existing.trashed ? .inTrash : .duplicate
            assemblies[index].record.libraryMessage = existing.trashed
                ? LibraryFailure.inTrash(existing.title, id: existing.id).userMessage
                : LibraryFailure.duplicate(existing.title, id: existing.id).userMessage
            pagesDone += source.pages.count
            finish(index)
            return
        }
        if let failure {
            assemblies[index].record.failure = DocumentFailure(failure, in: .intake)
            pagesDone += source.pages.count
            finish(index)
            return
        }
        pagesTotal += pageCount - source.pages.count
        assemblies[index].pages = Array(repeating: nil, count: pageCount)
        assemblies[index].pageImageNames = Array(repeating: nil, count: pageCount)
        assemblies[index].remaining = pageCount
        var jobs: [Job] = []
        for file in encoded {
            for page in 0..<file.count { jobs.append(.page(document: index, page: jobs.count, file: file, index: page)) }
        }
        queue.insert(contentsOf: jobs, at: 0)
        condition.broadcast()
    }

    private func read(document index: Int, page: Int, file: EncodedPages, index pageIndex: Int, with reader: PageReader) {
        var outcome: PageReader.Result?
        var failure: DocumentFailure?
        do {
            let decodeStart = Date()
            let image = try file.decode(page: pageIndex)
            let decodeSeconds = Date().timeIntervalSince(decodeStart)
            condition.lock()
            assemblies[index].record.timings.decode += decodeSeconds
            condition.unlock()
            do {
                outcome = try reader.read(image, encodeJPEG: options.archive != nil)
            } catch {
                failure = DocumentFailure(error, in: .recognition)
            }
        } catch {
            failure = DocumentFailure(error, in: .intake)
        }
        var imageName: String?
        if let outcome, let directory = options.pageImageDirectory {
            let pageCount = assembliesPageCount(index)
            imageName = if let jpeg = outcome.jpeg {
                writePageImage(jpeg, document: documents[index].name, page: page, pageCount: pageCount, directory: directory)
            } else {
                writePageImage(outcome.cleaned.gray, document: documents[index].name,
                               page: page, pageCount: pageCount, directory: directory)
            }
        }
        condition.lock()
        if let outcome {
            assemblies[index].pages[page] = outcome
            assemblies[index].pageImageNames[page] = imageName
        } else if assemblies[index].record.failure == nil {
            assemblies[index].record.failure = failure
        }
        assemblies[index].remaining -= 1
        pagesDone += 1
        let last = assemblies[index].remaining == 0
        let assembly = assemblies[index]
        if last { assemblies[index].pages = [] }
        condition.unlock()
        // The last page's worker puts the document together and classifies it, outside the lock.
        let finished = last ? complete(assembly, index: index) : nil
        condition.lock()
        defer { condition.unlock() }
        if let finished {
            assemblies[index].record = finished
            finish(index)
        }
        let snapshot = Pipeline.Progress(pagesDone: pagesDone, pagesTotal: pagesTotal, documentsDone: documentsDone,
                                         documentsTotal: documents.count)
        delivery.async { [progress] in progress(snapshot) }
    }

    /// Joins a document's pages into its record, classifies and files it.
    private func complete(_ assembly: Assembly, index: Int) -> DocumentRecord {
        guard assembly.record.failure == nil else { return assembly.record }
        stage(index, .recognised)
        var record = RecordAssembler.assemble(assembly.record, pages: assembly.pages.compactMap { $0 },
                                              imageNames: assembly.pageImageNames)
        if let classifier = options.classifier, !record.noText {
            let start = Date()
            let scan = record.scanDate.flatMap(CalendarDate.init(iso:)) ?? Self.scanDate(of: [])
            let rules = classifier.classify(record.text, scanDate: scan)
            record.classification = rules
            record.timings.classify = Date().timeIntervalSince(start)
            if let assistant = options.assistant {
                let (merged, report) = assistant.refineBlocking(rules, text: record.text, today: CalendarDate.today() ?? scan)
                record.classification = merged
                record.llm = report
            }
            stage(index, .classified)
        }
        if let archive = options.archive {
            let start = Date()
            let pages = assembly.pages.compactMap { $0 }
            if archive.redact { record.text = Fodselsnummer.masking(record.text) }
            do {
                if let library = archive.library {
                    try LibraryStage.file(&record, pages: pages, archive: archive, library: library)
                    if record.libraryStatus == .added { stage(index, .written) }
                } else {
                    record.files = try ArchiveStage(options: archive).write(record.libraryDocument, pages: pages)
                }
            } catch {
                record.failure = DocumentFailure(error, in: error is DatabaseError || error is LibraryFailure ? .library : .write)
            }
            record.timings.write += Date().timeIntervalSince(start) + pages.reduce(0) { $0 + $1.writeSeconds }
        }
        return record
    }

    private func assembliesPageCount(_ index: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return assemblies[index].pages.count
    }

    /// Marks a document finished (its record complete) and queues every finished document that
    /// is next in order for delivery. Called with the lock held; the callback runs later, on
    /// the delivery queue, in the same order.
    private func finish(_ index: Int) {
        assemblies[index].finished = true
        documentsDone += 1
        assemblies[index].pages = []
        while nextToEmit < assemblies.count, assemblies[nextToEmit].finished {
            let ready = assemblies[nextToEmit].record
            delivery.async { [record] in record(ready) }
            nextToEmit += 1
        }
    }

    /// The scan date: the oldest modification date among the page files (today if unknown).
    static func scanDate(of files: [URL]) -> CalendarDate {
        let dates = files.compactMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.modificationDate] as? Date }
        return dates.min().flatMap(CalendarDate.day(of:)) ?? CalendarDate.today() ?? .fallback
    }

    private func writePageImage(_ image: Image, document: String, page: Int, pageCount: Int, directory: URL) -> String? {
        guard let bytes = try? image.jpegData(quality: PageReader.jpegQuality) else { return nil }
        return writePageImage(bytes, document: document, page: page, pageCount: pageCount, directory: directory)
    }

    private func writePageImage(_ bytes: [UInt8], document: String, page: Int, pageCount: Int, directory: URL) -> String? {
        let name = pageCount > 1 ? "\(document) - side \(page + 1).jpg" : "\(document).jpg"
        let url = directory.appendingPathComponent(name)
        do {
            try AtomicFile.write(bytes, to: url, overwrite: true)
            return url.path
        } catch {
            return nil
        }
    }
}
