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
#if canImport(Glibc)
import Glibc
#endif

/// The shared state of one `Pipeline.run`: a queue of jobs and the documents being assembled,
/// behind one lock; a semaphore counts the jobs waiting (and, at the end, wakes every worker).
final class PipelineRun: Sendable {
    /// A document to read: its files, and, when the caller has read them already (and checked
    /// the library for it), what it read.
    struct Input: Sendable {
        var source: DocumentSource
        var received: [ReceivedFile]?
    }

    private enum Job: Sendable {
        case open(Int)
        /// One page, decoded by the worker that reads it (so only the pages being read are in memory).
        /// `keepsOriginal`: the document's archive PDF is the PDF it came as, so a page read from its
        /// text layer needs no image.
        /// `origin`: which of the document's files (1…) the page is in.
        case page(document: Int, page: Int, file: EncodedPages, origin: Int, index: Int, keepsOriginal: Bool)
    }

    private struct Assembly: Sendable {
        var record: DocumentRecord
        var pages: [PageReader.ReadPage?] = []
        var remaining = 0
        var finished = false
        var pageImageNames: [String?] = []
        /// The PDF the document came as, kept as its archive PDF: one PDF file whose every page
        /// has a trustworthy text layer (and no fødselsnummer to mask in it).
        var originalPDF: [UInt8]?
        /// The files as received, kept with the library (see ``DocumentStore/file(_:originals:write:)``).
        var originals: [ReceivedOriginal] = []
    }

    private struct State: Sendable {
        var queue: [Job]
        var assemblies: [Assembly]
        var nextToEmit = 0
        var pagesDone = 0
        var pagesTotal: Int
        var documentsDone = 0
    }

    private let state: NIOLockedValueBox<State>
    /// The pixels the workers may have decoded at once.
    private let pixelBudget: PixelBudget
    /// Signalled once per queued job, and once per worker when every document is finished.
    private let available = DispatchSemaphore(value: 0)
    private let workers: Int

    private let documents: [Input]
    private let options: Pipeline.Options
    private let progress: @Sendable (Pipeline.Progress) -> Void
    private let stage: @Sendable (Int, Pipeline.Stage) -> Void
    private let record: @Sendable (DocumentRecord) -> Void
    /// Runs the `record` and `progress` callbacks, one at a time, in the order they were queued
    /// (queued under the lock, run outside it).
    private let delivery = DispatchQueue(label: "arkivator.pipeline.delivery")

    init(documents: [Input], options: Pipeline.Options, workers: Int,
         progress: @escaping @Sendable (Pipeline.Progress) -> Void,
         stage: @escaping @Sendable (Int, Pipeline.Stage) -> Void,
         record: @escaping @Sendable (DocumentRecord) -> Void) {
        self.documents = documents
        self.options = options
        self.workers = workers
        self.progress = progress
        self.stage = stage
        self.record = record
        pixelBudget = PixelBudget(capacity: options.pixelsAtOnce)
        state = NIOLockedValueBox(State(
            queue: documents.indices.map { Job.open($0) },
            assemblies: documents.map { Assembly(record: DocumentRecord(sources: $0.source.pages.map(\.path))) },
            pagesTotal: documents.reduce(0) { $0 + $1.source.pages.count }))
        for _ in documents { available.signal() }
    }

    func work(with reader: PageReader) {
        while let job = take() {
            switch job {
            case .open(let index): open(index)
            case .page(let document, let page, let file, let origin, let pageIndex, let keepsOriginal):
                read(document: document, page: page, file: file, origin: origin, index: pageIndex, keepsOriginal: keepsOriginal,
                     with: reader)
            }
        }
    }

    /// Waits until every queued callback has run.
    func drain() {
        delivery.sync {}
    }

    /// The next job, waiting while there is none yet; nil once every document is finished.
    private func take() -> Job? {
        available.wait()
        return state.withLockedValue { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
    }

    /// Intake: reads the document's files, checks every page from its header (size, count) and
    /// queues its pages first in line. Pixels are decoded later, page by page.
    private func open(_ index: Int) {
        let source = documents[index].source
        var timings = DocumentRecord.Timings()
        var files: [ReceivedFile] = []
        var encoded: [EncodedPages] = []
        var failure: InputError?
        var pageCount = 0
        var pixelCount = 0
        for (number, url) in source.pages.enumerated() {
            let readStart = Date()
            do {
                let file: ReceivedFile
                if let received = documents[index].received, number < received.count {
                    file = received[number]
                } else {
                    file = try ReceivedFile.read(url)
                }
                files.append(file)
                timings.read += Date().timeIntervalSince(readStart)
                let inspectStart = Date()
                let pages = try EncodedPages.inspect(file.bytes, onDisk: file.onDisk, pixelBudget: options.pixelBudget,
                                                     pagesBefore: pageCount,
                                                     pixelsBefore: pixelCount)
                pageCount += pages.count
                pixelCount += pages.pixels
                encoded.append(pages)
                timings.decode += Date().timeIntervalSince(inspectStart)
            } catch {
                failure = error
                break
            }
        }
        if failure == nil, pageCount == 0 { failure = .noPages }
        let scanDate = Self.scanDate(of: source.pages)
        let id = failure == nil ? ReceivedFile.documentID(of: files) : nil
        // (A document the caller read has been checked against the library already.)
        let existing = documents[index].received != nil ? nil : id.flatMap { id in try? options.archive?.library?.documents.existing(sha256: id) }
        var originalPDF: [UInt8]?
        if let archive = options.archive, !archive.redact, files.count == 1, encoded.count == 1, encoded[0].isDigitalPDF {
            originalPDF = files[0].bytes
        }
        var jobs: [Job] = []
        if existing == nil, failure == nil {
            for (number, file) in encoded.enumerated() {
                for page in 0..<file.count {
                    jobs.append(.page(document: index, page: jobs.count, file: file, origin: number + 1, index: page,
                                      keepsOriginal: originalPDF != nil))
                }
            }
        }
        let wake = state.withLockedValue { state -> Int in
            state.assemblies[index].record.timings = timings
            state.assemblies[index].record.scanDate = scanDate.iso
            state.assemblies[index].record.id = id
            if let existing {
                // The library has this document already: nothing to read or write.
                state.assemblies[index].record.libraryID = existing.id
                state.assemblies[index].record.libraryStatus = existing.trashed ? .inTrash : .duplicate
                state.assemblies[index].record.libraryMessage = existing.trashed
                    ? LibraryFailure.inTrash(existing.title, id: existing.id).userMessage
                    : LibraryFailure.duplicate(existing.title, id: existing.id).userMessage
                state.pagesDone += source.pages.count
                return finish(index, in: &state)
            }
            if let failure {
                state.assemblies[index].record.failure = DocumentFailure(failure, in: .intake)
                state.pagesDone += source.pages.count
                return finish(index, in: &state)
            }
            state.pagesTotal += pageCount - source.pages.count
            state.assemblies[index].pages = Array(repeating: nil, count: pageCount)
            state.assemblies[index].pageImageNames = Array(repeating: nil, count: pageCount)
            state.assemblies[index].remaining = pageCount
            state.assemblies[index].originalPDF = originalPDF
            if options.archive?.library != nil, options.archive?.redact == false {
                state.assemblies[index].originals = files.map {
                    ReceivedOriginal(name: $0.url.lastPathComponent, format: $0.format.rawValue, file: $0.url, sha256: $0.sha256)
                }
            }
            state.queue.insert(contentsOf: jobs, at: 0)
            return jobs.count
        }
        for _ in 0..<wake { available.signal() }
    }

    private func read(document index: Int, page: Int, file: EncodedPages, origin: Int, index pageIndex: Int,
                      keepsOriginal: Bool, with reader: PageReader) {
        var outcome: PageReader.Result?
        var kept: PageReader.ReadPage?
        var failure: DocumentFailure?
        var decodeSeconds = 0.0
        let layer = file.textLayer(page: pageIndex)
        // A page read from its text layer is drawn only when an image of it is written, or
        // pictures in it are read.
        let keepsImage = options.pageImageDirectory != nil || (options.archive != nil && !keepsOriginal)
        let needsImage = layer == nil || keepsImage || layer?.pictures.isEmpty == false
        let size = file.sizes[pageIndex]
        // Decoded and read within the pixel budget; every image of the page but the cleaned one is
        // gone when the function below returns, before the budget is given back.
        let taken = needsImage ? pixelBudget.take(size.width * size.height) : 0
        func decodeAndRead() {
            do {
                let decodeStart = Date()
                let pixels = needsImage ? try file.decodePixels(page: pageIndex) : nil
                decodeSeconds = Date().timeIntervalSince(decodeStart)
                do {
                    if let layer {
                        kept = try reader.read(layer, size: size, rendered: pixels, keepsImage: keepsImage)
                    } else if let pixels {
                        outcome = try reader.read(pixels, encodeJPEG: options.archive != nil)
                        kept = outcome?.kept
                    }
                } catch {
                    failure = DocumentFailure(error, in: .recognition)
                }
                // `--redact`: the numbers boxed on the page image the JPEG was made from (the
                // reading has their words' boxes), still within the budget, before any copy of
                // it is written.
                if options.archive?.redact == true, let page = kept {
                    do {
                        kept = try PageRedaction.redacted(page, image: outcome?.cleaned.gray ?? pixels?.gray)
                    } catch {
                        kept = nil
                        failure = DocumentFailure(error, in: .write)
                    }
                }
            } catch {
                failure = DocumentFailure(error, in: .intake)
            }
        }
        if needsImage, size.width * size.height >= PagePixels.largePage {
            MemoryReturn.whileReadingLargePage(decodeAndRead)
        } else {
            decodeAndRead()
        }
        pixelBudget.give(taken)
        var imageName: String?
        if kept != nil, let directory = options.pageImageDirectory {
            let pageCount = state.withLockedValue { $0.assemblies[index].pages.count }
            if let jpeg = kept?.jpeg {
                imageName = writePageImage(jpeg, document: documents[index].source.name, page: page, pageCount: pageCount,
                                           directory: directory)
            } else if let outcome {
                imageName = writePageImage(outcome.cleaned.gray, document: documents[index].source.name,
                                           page: page, pageCount: pageCount, directory: directory)
            }
        }
        kept?.exifOrientation = file.exifOrientation
        kept?.original = origin
        kept?.originalPage = pageIndex + 1
        let last: Assembly? = state.withLockedValue { state in
            state.assemblies[index].record.timings.decode += decodeSeconds
            if let kept {
                state.assemblies[index].pages[page] = kept
                state.assemblies[index].pageImageNames[page] = imageName
            } else if state.assemblies[index].record.failure == nil {
                state.assemblies[index].record.failure = failure
            }
            state.assemblies[index].remaining -= 1
            state.pagesDone += 1
            guard state.assemblies[index].remaining == 0 else { return nil }
            let assembly = state.assemblies[index]
            state.assemblies[index].pages = []
            return assembly
        }
        // The last page's worker puts the document together and classifies it, outside the lock.
        let finished = last.map { complete($0, index: index) }
        let wake = state.withLockedValue { state -> Int in
            var wake = 0
            if let finished {
                state.assemblies[index].record = finished
                wake = finish(index, in: &state)
            }
            let snapshot = Pipeline.Progress(pagesDone: state.pagesDone, pagesTotal: state.pagesTotal,
                                             documentsDone: state.documentsDone, documentsTotal: documents.count)
            delivery.async { [progress] in progress(snapshot) }
            return wake
        }
        for _ in 0..<wake { available.signal() }
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
            // The numbers in doubt, now with the places OCR was unsure of.
            let doubtful = NumberDoubt.doubtfulNumbers(
                in: record.text, lowConfidence: (record.lowConfidenceWords + record.unsureNumberWords).map { ($0.start, $0.length) },
                rows: record.classification?.labs ?? [])
            record.classification?.doubtfulNumbers = doubtful
            stage(index, .classified)
        }
        if let archive = options.archive {
            let start = Date()
            let pages = assembly.pages.compactMap { $0 }
            if archive.redact { record.text = Redaction.redact(record.text) }
            do {
                if let library = archive.library {
                    try LibraryStage.file(&record, pages: pages, originalPDF: assembly.originalPDF,
                                          originals: assembly.originals, archive: archive, library: library)
                    if record.libraryStatus == .added { stage(index, .written) }
                } else {
                    record.files = try ArchiveStage(options: archive).write(record.libraryDocument, pages: pages,
                                                                            originalPDF: assembly.originalPDF)
                }
            } catch {
                record.failure = DocumentFailure(error, in: error is DatabaseError || error is LibraryFailure ? .library : .write)
            }
            record.timings.write += Date().timeIntervalSince(start) + pages.reduce(0) { $0 + $1.writeSeconds }
        }
        return record
    }

    /// Marks a document finished (its record complete) and queues every finished document that
    /// is next in order for delivery. Runs with the lock held; the callback runs later, on the
    /// delivery queue, in the same order. Returns how many workers to wake: all of them once
    /// the last document is finished (they then find no job and stop), else none.
    private func finish(_ index: Int, in state: inout State) -> Int {
        state.assemblies[index].finished = true
        state.documentsDone += 1
        state.assemblies[index].pages = []
        while state.nextToEmit < state.assemblies.count, state.assemblies[state.nextToEmit].finished {
            let ready = state.assemblies[state.nextToEmit].record
            delivery.async { [record] in record(ready) }
            state.nextToEmit += 1
        }
        return state.documentsDone == documents.count ? workers : 0
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
