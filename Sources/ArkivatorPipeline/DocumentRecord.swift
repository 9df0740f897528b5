import ArkivatorArchive
import ArkivatorClassify
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLLM
import Foundation

/// The record of one document as it travels through the pipeline; `ingest --json` prints it,
/// one object per line. Later stages add their fields here.
public struct DocumentRecord: Sendable, Codable, Equatable {
    /// The page files, as given (a single path is printed as a string, several as a list).
    public var sources: [String]
    /// SHA-256 of the file (or of the page files' hashes, in order, for several files).
    public var id: String?
    /// Number of page images (a multi-page TIFF counts its pages).
    public var pages: Int
    /// The recognised text; pages are separated by a form feed (`\f`).
    public var text: String
    /// Mean word confidence over the document, 0…1.
    public var ocrConfidence: Double?
    public var lowConfidenceWords: [LowConfidenceWord]
    /// Words with a digit OCR read with less than ``DocumentRecord/numberConfidence``: a number
    /// is in doubt sooner than a word (a misread digit changes a dose or a result). Not printed;
    /// ``NumberDoubt`` reads them into `doubtfulNumbers`.
    public var unsureNumberWords: [LowConfidenceWord] = []
    /// Under this confidence a word with a digit is in doubt.
    public static let numberConfidence = 0.9
    /// True when no page holds readable text.
    public var noText: Bool
    /// Why the document was refused or failed (stage, code, message in both languages); nil
    /// when it was read and filed. Printed as `error` (the user's language), `errorCode` and
    /// `failure` (`{stage, code, nb, en}`).
    public var failure: DocumentFailure?
    /// Seconds spent per stage, summed over pages.
    public var timings: Timings
    /// What cleanup did to each page.
    public var pageReports: [PageReport]
    /// Type, dates, person, institution and title (nil when the document could not be read).
    public var classification: Classification?
    /// What the language model did (`--llm`); nil when it was not asked.
    public var llm: LLMReport?
    /// The date the page files were made (their modification date): the scan date.
    public var scanDate: String?
    /// Where the document was filed in the archive, when it was (printed as
    /// `{"docx": …, "images": […], "pdf": …}`).
    public var files: [ArchivedFile]?
    /// The document's id in the library (first 10 hex digits of `id`), once recorded or found there.
    public var libraryID: String?
    /// What the library did with the document.
    public var libraryStatus: LibraryStatus?
    /// Why the library did not add it (already there); printed in the user's language.
    public var libraryMessage: UserMessage?

    public enum LibraryStatus: String, Sendable, Codable, Equatable {
        /// Filed and recorded now.
        case added
        /// The library already had it: nothing was read or written.
        case duplicate
        /// The library has it in the trash: nothing was read or written.
        case inTrash
    }

    /// How `files` is printed.
    private struct FileList: Codable {
        var docx: String
        var images: [String]
        var pdf: String

        init(_ files: [ArchivedFile]) {
            docx = files.docx?.path ?? ""
            images = files.images.map(\.path)
            pdf = files.pdf?.path ?? ""
        }

        var files: [ArchivedFile] {
            (docx.isEmpty ? [] : [ArchivedFile(kind: .docx, path: docx)])
                + images.enumerated().map { ArchivedFile(kind: .image, page: $0.offset + 1, path: $0.element) }
                + (pdf.isEmpty ? [] : [ArchivedFile(kind: .pdf, path: pdf)])
        }
    }

    public struct LowConfidenceWord: Sendable, Codable, Equatable {
        public var word: String
        /// 1-based page number.
        public var page: Int
        /// Position in `text`, in Unicode scalars.
        public var start: Int
        public var length: Int
        public var confidence: Double
    }

    public struct Timings: Sendable, Codable, Equatable {
        public var read: Double = 0
        public var decode: Double = 0
        public var cleanup: Double = 0
        public var ocr: Double = 0
        public var classify: Double = 0
        public var write: Double = 0
    }

    public struct PageReport: Sendable, Codable, Equatable {
        public var cleanup: CleanupReport
        public var ocrConfidence: Double
        public var noText: Bool
        public var width: Int
        public var height: Int
        /// The cleaned page image written by `--out`, if any.
        public var image: String?
        /// Whether orientation detection was asked (a first reading that looked poor, or a page in
        /// landscape).
        public var orientationChecked: Bool?
        /// The EXIF orientation (2…8) a phone photo was turned by before cleanup.
        public var exifOrientation: Int?
        /// Lines OCR found but left out of the text because they are not text (a signature, a
        /// stamp's ring, a smudge: low confidence and no words); absent when none.
        public var droppedLines: Int?
        /// True when the text is the PDF's own text layer (a letter made on a computer), read
        /// without cleanup or OCR; absent otherwise.
        public var textLayer: Bool?
        /// How many pictures on a page read from its text layer were read by OCR as well (a
        /// scanned attachment pasted into a letter), their text merged with the layer's in
        /// reading order; absent when none.
        public var picturesRead: Int?
        /// Where the text came from, in words, when it is not one reading alone: "text layer +
        /// OCR of N pictures"; absent otherwise.
        public var source: String?
        /// The sheet's outline in the page as decoded, and the quarter turns applied (`corners`,
        /// `quarterTurns`, `width`, `height`, `source`: `found`, `whole` or `user`); absent for a
        /// page read from a PDF's text.
        public var crop: PageCrop?
        /// Which of the document's files the page came from (1…), and which page or frame of it (1…).
        public var original: Int?
        public var originalPage: Int?
    }

    public init(sources: [String]) {
        self.sources = sources
        self.id = nil
        self.pages = 0
        self.text = ""
        self.ocrConfidence = nil
        self.lowConfidenceWords = []
        self.noText = false
        self.failure = nil
        self.timings = Timings()
        self.pageReports = []
        self.classification = nil
        self.llm = nil
        self.scanDate = nil
        self.files = nil
        self.libraryID = nil
        self.libraryStatus = nil
        self.libraryMessage = nil
    }

    private enum CodingKeys: String, CodingKey {
        case source, id, pages, text, ocrConfidence, lowConfidenceWords, noText, error, errorCode, failure, timings, pageReports
        case docType, documentDate, documentDateSource, scanDate, institution, specialty, person, familyMember
        case keywords, title, confidence, needsReview, containsFodselsnummer, appointments, labs, doubtfulNumbers, llm, files
        case libraryId, libraryStatus, libraryMessage
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if sources.count == 1 { try c.encode(sources[0], forKey: .source) } else { try c.encode(sources, forKey: .source) }
        try c.encode(id, forKey: .id)
        try c.encode(pages, forKey: .pages)
        try c.encode(text, forKey: .text)
        try c.encode(ocrConfidence.map { ($0 * 1000).rounded() / 1000 }, forKey: .ocrConfidence)
        try c.encode(lowConfidenceWords, forKey: .lowConfidenceWords)
        try c.encode(noText, forKey: .noText)
        try c.encode(failure?.userMessage.text(), forKey: .error)
        try c.encode(failure?.errorCode, forKey: .errorCode)
        try c.encodeIfPresent(failure, forKey: .failure)
        try c.encode(timings, forKey: .timings)
        try c.encode(pageReports, forKey: .pageReports)
        let k = classification
        try c.encode(k?.docType, forKey: .docType)
        try c.encode(k?.documentDate, forKey: .documentDate)
        try c.encode(k?.documentDateSource, forKey: .documentDateSource)
        try c.encode(k?.scanDate ?? scanDate, forKey: .scanDate)
        try c.encode(k?.institution, forKey: .institution)
        try c.encode(k?.specialty, forKey: .specialty)
        try c.encode(k?.person, forKey: .person)
        try c.encode(k?.familyMember, forKey: .familyMember)
        try c.encode(k?.keywords ?? [], forKey: .keywords)
        try c.encode(k?.title, forKey: .title)
        try c.encode(k?.confidence ?? [:], forKey: .confidence)
        try c.encode(k?.needsReview ?? [], forKey: .needsReview)
        try c.encode(k?.containsFodselsnummer ?? false, forKey: .containsFodselsnummer)
        try c.encode(k?.appointments ?? [], forKey: .appointments)
        try c.encode(LabRowOutput.rows(k?.labs ?? [], text: text), forKey: .labs)
        try c.encode(k?.doubtfulNumbers ?? [], forKey: .doubtfulNumbers)
        try c.encodeIfPresent(llm, forKey: .llm)
        try c.encode(files.map(FileList.init), forKey: .files)
        try c.encode(libraryID, forKey: .libraryId)
        try c.encode(libraryStatus, forKey: .libraryStatus)
        try c.encode(libraryMessage?.text(), forKey: .libraryMessage)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let single = try? c.decode(String.self, forKey: .source) { sources = [single] } else {
            sources = try c.decode([String].self, forKey: .source)
        }
        id = try c.decodeIfPresent(String.self, forKey: .id)
        pages = try c.decode(Int.self, forKey: .pages)
        text = try c.decode(String.self, forKey: .text)
        ocrConfidence = try c.decodeIfPresent(Double.self, forKey: .ocrConfidence)
        lowConfidenceWords = try c.decode([LowConfidenceWord].self, forKey: .lowConfidenceWords)
        noText = try c.decode(Bool.self, forKey: .noText)
        failure = try c.decodeIfPresent(DocumentFailure.self, forKey: .failure)
        timings = try c.decode(Timings.self, forKey: .timings)
        pageReports = try c.decode([PageReport].self, forKey: .pageReports)
        scanDate = try c.decodeIfPresent(String.self, forKey: .scanDate)
        files = try c.decodeIfPresent(FileList.self, forKey: .files)?.files
        llm = try c.decodeIfPresent(LLMReport.self, forKey: .llm)
        libraryID = try c.decodeIfPresent(String.self, forKey: .libraryId)
        libraryStatus = try c.decodeIfPresent(LibraryStatus.self, forKey: .libraryStatus)
        libraryMessage = try c.decodeIfPresent(String.self, forKey: .libraryMessage).map { UserMessage(nb: $0, en: $0) }
        // Same keys as `Classification`: present when the document was classified.
        classification = try? c.decodeNil(forKey: .docType) ? nil : Classification(from: decoder)
    }

    /// One line of JSON, keys sorted, as `ingest --json` prints it.
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
