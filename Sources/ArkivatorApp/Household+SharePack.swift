import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
import ArkivatorOCR
import ArkivatorPipeline
import Foundation

/// What ``Household/writeSharePack(_:to:progress:)`` made.
public struct SharePackSummary: Sendable, Equatable {
    /// The letters in the pack.
    public let letters: Int
    /// The PDF's pages, the cover and index included.
    public let pages: Int
    /// Boxes painted over a fødselsnummer's words on the page images.
    public let boxes: Int

    public init(letters: Int, pages: Int, boxes: Int) {
        self.letters = letters
        self.pages = pages
        self.boxes = boxes
    }
}

extension Household {
    /// One PDF: a cover, an index, then each chosen letter's pages with every fødselsnummer hidden.
    ///
    /// The cover names the person the letters concern (name and birth date, never the number;
    /// each of them when they concern several) and indexes the letters (date, type, sender,
    /// title, the page each starts on), in time order. Each page is read again with Tesseract
    /// (the library keeps no word boxes), a solid black box is painted over every number's words
    /// on a copy of the page image, and the text layer has the numbers masked; numbers the letter
    /// or the household's profiles hold are found even where OCR split them. The archived letters
    /// are not changed. Before the file is written its text is read back, and nothing is written
    /// when a number still stands there. `ids` are the ids or short ids the library takes.
    /// `progress` is told (pages read, pages to read) as the pages are read. With `pageURL`
    /// (a letter's short id and a page number, 1…, to a file) each letter's boxed page images are
    /// kept as well, written before the PDF (the share page shows them beside the text).
    /// - Throws: ``SharePackFailure`` when no letter is chosen, a letter's pages cannot be read
    ///   again, a number a letter's text holds is not found again on its page, or the finished
    ///   text still shows one; ``LibraryFailure`` for an id that is unknown, ambiguous or in the
    ///   trash. Nothing is written then.
    public func writeSharePack(_ ids: [String], to url: URL, progress: (@Sendable (Int, Int) -> Void)? = nil,
                               pageURL: ((String, Int) -> URL)? = nil) throws -> SharePackSummary {
        let letters = try sharedLetters(ids)
        let total = letters.reduce(0) { $0 + $1.pagesToRead }
        var done = 0
        progress?(0, total)
        var letterPages: [[SearchablePDF.Page]] = []
        var pageImages: [(letter: String, jpegs: [[UInt8]])] = []
        var boxes = 0
        for letter in letters {
            let read = try readers.with("nor") { reader in
                try Self.maskedPages(of: letter, engine: reader.engine) {
                    done += 1
                    progress?(min(done, total), total)
                }
            }
            letterPages.append(read.map(\.pdfPage))
            pageImages.append((letter.document.shortID, read.map(\.jpeg)))
            boxes += read.reduce(0) { $0 + $1.boxes }
        }
        let cover = SharePackCover(
            persons: Self.persons(of: letters),
            entries: zip(letters, letterPages).map { letter, pages in SharePackCover.Entry(letter.document, pages: pages.count) },
            made: CalendarDate.today()?.iso ?? "",
            labs: LabSummary(try labReadings(of: letters.map(\.document.number))).lines)
        let pages = cover.pages() + letterPages.flatMap { $0 }
        let bytes = SearchablePDF(title: SharePackCover.title, pages: pages).data()
        let known = letters.reduce(into: Set<String>()) { $0.formUnion($1.known) }
        guard let texts = PDFTextLayer.pageTexts(ofPDF: bytes),
              texts.allSatisfy({ !SharedLetter.holdsNumber($0, known: known) }) else { throw SharePackFailure.numberLeft }
        if let pageURL { try SharePackPages.write(pageImages, to: pageURL) }
        try AtomicFile.write(bytes, to: url, overwrite: true)
        return SharePackSummary(letters: letters.count, pages: pages.count, boxes: boxes)
    }

    /// One letter's page images as JPEGs, each fødselsnummer under a solid black box, as in the
    /// share pack (for a page shown on a screen rather than in the PDF). The archived letter is
    /// not changed. `progress` is told (pages read, pages to read).
    /// - Throws: as ``writeSharePack(_:to:progress:)``.
    public func sharedPageImages(_ id: String, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [[UInt8]] {
        guard let letter = try sharedLetters([id]).first else { throw SharePackFailure.noLetters }
        var done = 0
        let pages = try readers.with("nor") { reader in
            try Self.maskedPages(of: letter, engine: reader.engine) {
                done += 1
                progress?(min(done, letter.pagesToRead), letter.pagesToRead)
            }
        }
        return pages.map(\.jpeg)
    }

    /// A letter's pages read again and boxed (see ``boxedPages(of:known:engine:read:)``), or a
    /// refusal when a page could not be read again or a number its text holds was not found
    /// again on its page.
    static func maskedPages(of letter: SharedLetter, engine: TesseractEngine, read: (() -> Void)? = nil) throws -> [BoxedPage] {
        let title = Redaction.redact(letter.document.title), id = letter.document.shortID
        let boxed = try boxedPages(of: letter.document, known: letter.known, engine: engine, read: read)
        guard boxed.unreadable == 0, !boxed.pages.isEmpty else { throw SharePackFailure.unreadable(title, id: id) }
        if let page = letter.pageMissingANumber(boxed.pages.map(\.reading)) {
            throw SharePackFailure.notFoundAgain(title, id: id, page: page)
        }
        return boxed.pages
    }

    /// Plain text of the chosen letters for an AI assistant, names and numbers replaced.
    ///
    /// Each letter, in time order, with a header (date, type, sender, title) and its text. The
    /// household's names and the names the letters were found to concern become `[NAVN-1]` …,
    /// every fødselsnummer (and any other 11-digit number, and a known number however OCR split
    /// it) `[FNR-1]` … (see `Pseudonyms`); a number the library had already masked loses its birth
    /// date too. Nothing is sent anywhere.
    /// - Throws: as ``writeSharePack(_:to:progress:)``.
    public func shareTextBundle(_ ids: [String]) throws -> String {
        let letters = try sharedLetters(ids)
        let names = try family().map(\.name) + letters.flatMap { [$0.document.familyMember, $0.document.person].compactMap { $0 } }
        let known = letters.reduce(into: Set<String>()) { $0.formUnion($1.known) }
        let text = ShareTextBundle(letters: letters.map(\.document), names: names, known: known).text
        guard !SharedLetter.holdsNumber(text, known: known) else { throw SharePackFailure.numberLeft }
        return text
    }

    /// The chosen letters, each once, in time order, read with their numbers (in memory only) to
    /// find them on the pages.
    func sharedLetters(_ ids: [String]) throws -> [SharedLetter] {
        let family = try family()
        var seen = Set<String>()
        var letters: [SharedLetter] = []
        for id in ids {
            let document = try library.documents.document(id, revealNumbers: true)
            guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
            guard seen.insert(document.sha256).inserted else { continue }
            letters.append(SharedLetter(document, family: family))
        }
        guard !letters.isEmpty else { throw SharePackFailure.noLetters }
        return letters.sorted { ($0.document.documentDate, $0.document.title) < ($1.document.documentDate, $1.document.title) }
    }

    /// The people the letters concern, each once, in the order they first come.
    static func persons(of letters: [SharedLetter]) -> [SharePackCover.Person] {
        var persons: [SharePackCover.Person] = []
        for letter in letters {
            let person = letter.person
            if let index = persons.firstIndex(where: { $0.name == person.name }) {
                if persons[index].birthDate == nil { persons[index].birthDate = person.birthDate }
            } else {
                persons.append(person)
            }
        }
        return persons
    }
}
