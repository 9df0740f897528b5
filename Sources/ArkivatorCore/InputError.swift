import Foundation

/// Why an input file was refused, with a plain message for the user.
///
/// Public as a struct over a private enum, so new reasons can be added without breaking callers.
public struct InputError: UserFacingError, Sendable, Equatable {
    private enum Reason: Sendable, Equatable {
        case unreadable(String)
        case empty
        case notAnImage(detected: String)
        case unsupportedFormat(String)
        case truncated
        case tooLarge(width: Int, height: Int, limit: Int)
        case fileTooLarge(bytes: Int, limit: Int)
        case undecodable
        case noPages
        case tooManyPages(limit: Int)
        case documentTooLarge(megapixels: Int, limit: Int)
        case encrypted
        case notRegularFile(kind: String)
        case damagedPDF
        case absurdPageSize(widthPoints: Int, heightPoints: Int)
        case changedWhileRead
        case readerMissing(format: String, library: String)
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    /// The file was changed or replaced between its first reading and its pixels' (a large
    /// bitmap is read from disk a second time, row by row).
    public static let changedWhileRead = InputError(.changedWhileRead)

    /// The file could not be read at all (permissions, vanished, I/O error).
    public static func unreadable(_ detail: String) -> InputError { .init(.unreadable(detail)) }

    /// The file could not be read: the system's words for why (`Permission denied`), where the
    /// error carries them, else its own description.
    public static func unreadable(_ error: any Error) -> InputError {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let text = strerror(Int32(underlying.code)) {
            return .unreadable(String(cString: text))
        }
        return .unreadable(ns.localizedDescription)
    }
    /// The file has zero bytes.
    public static let empty = InputError(.empty)
    /// The bytes are not an image (for example a text file with an image name).
    public static func notAnImage(detected: String) -> InputError { .init(.notAnImage(detected: detected)) }
    /// The formats Arkivator reads, as a person reads the list.
    public static let supportedFormats = UserMessage(nb: "JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP eller PDF", en: "JPEG, PNG, TIFF, WebP, HEIC, GIF, BMP or PDF")

    /// A real file format that is not one of ``supportedFormats``.
    public static func unsupportedFormat(_ name: String) -> InputError { .init(.unsupportedFormat(name)) }
    /// The image stops before its end (an interrupted copy or transfer).
    public static let truncated = InputError(.truncated)
    /// The program that reads this format on this machine (`library`, loaded when first needed)
    /// is not installed.
    public static func readerMissing(format: String, library: String) -> InputError {
        .init(.readerMissing(format: format, library: library))
    }
    /// The image is larger than the pixel budget (protects against decompression bombs).
    public static func tooLarge(width: Int, height: Int, limit: Int) -> InputError {
        .init(.tooLarge(width: width, height: height, limit: limit))
    }
    /// The file is larger than any page image should be.
    public static func fileTooLarge(bytes: Int, limit: Int) -> InputError { .init(.fileTooLarge(bytes: bytes, limit: limit)) }
    /// The image library could not decode the bytes.
    public static let undecodable = InputError(.undecodable)
    /// A container (such as a TIFF) holds no pages.
    public static let noPages = InputError(.noPages)
    /// A PDF locked with a password.
    public static let encrypted = InputError(.encrypted)
    /// Not a regular file but a FIFO (`fifo`), a socket (`socket`) or a device (`device`): never
    /// opened for reading, as a FIFO would wait for a writer.
    public static func notRegularFile(kind: String) -> InputError { .init(.notRegularFile(kind: kind)) }
    /// A PDF that poppler cannot open or whose pages it cannot read.
    public static let damagedPDF = InputError(.damagedPDF)
    /// A PDF page larger than any real sheet (PDF itself allows at most 14,400 points, 5.08 m).
    public static func absurdPageSize(widthPoints: Int, heightPoints: Int) -> InputError {
        .init(.absurdPageSize(widthPoints: widthPoints, heightPoints: heightPoints))
    }

    /// What a file that is not a regular file is, in words (`fifo`, `socket`, `device`).
    public static func kindName(_ kind: String) -> UserMessage {
        switch kind {
        case "fifo": UserMessage(nb: "en navngitt rørledning, FIFO", en: "a named pipe, FIFO")
        case "socket": UserMessage(nb: "en socket", en: "a socket")
        case "device": UserMessage(nb: "en enhet", en: "a device")
        default: UserMessage(nb: "en spesialfil", en: "a special file")
        }
    }

    /// A document has more pages than one letter should (the files are checked before decoding).
    public static func tooManyPages(limit: Int) -> InputError { .init(.tooManyPages(limit: limit)) }
    /// A document's pages hold more pixels together than the document budget (in megapixels).
    public static func documentTooLarge(megapixels: Int, limit: Int) -> InputError {
        .init(.documentTooLarge(megapixels: megapixels, limit: limit))
    }

    /// A short machine-readable code, stable across languages.
    public var errorCode: String {
        switch reason {
        case .unreadable: "unreadable"
        case .empty: "empty"
        case .notAnImage: "notAnImage"
        case .unsupportedFormat: "unsupportedFormat"
        case .truncated: "truncated"
        case .tooLarge, .fileTooLarge, .documentTooLarge: "tooLarge"
        case .undecodable: "undecodable"
        case .noPages: "noPages"
        case .tooManyPages: "tooManyPages"
        case .encrypted: "encrypted"
        case .notRegularFile: "notRegularFile"
        case .damagedPDF: "undecodable"
        case .absurdPageSize: "pageSize"
        case .changedWhileRead: "changedWhileRead"
        case .readerMissing: "readerMissing"
        }
    }

    /// What happened and what to do, in the user's language.
    public var userMessage: UserMessage {
        switch reason {
        case .unreadable(let detail):
            UserMessage(
                nb: "Filen kunne ikke leses (\(detail)). Sjekk at den finnes og at du har lesetilgang.",
                en: "The file could not be read (\(detail)). Check that it exists and that you may read it.")
        case .empty:
            UserMessage(
                nb: "Filen er tom (0 byte). Skann eller kopier dokumentet på nytt.",
                en: "The file is empty (0 bytes). Scan or copy the document again.")
        case .notAnImage(let detected):
            UserMessage(
                nb: "Filen er ikke et bilde (innholdet ser ut som \(detected)). Bruk \(Self.supportedFormats.norwegian).",
                en: "The file is not an image (its content looks like \(detected)). Use \(Self.supportedFormats.english).")
        case .readerMissing(let format, let library):
            UserMessage(
                nb: "\(format)-filer kan ikke leses på denne maskinen: programbiblioteket \(library) mangler. Lagre siden som JPEG eller PNG, eller be den som satte opp Arkivator om å installere \(library).",
                en: "\(format) files cannot be read on this machine: the \(library) library is missing. Save the page as JPEG or PNG, or ask whoever set up Arkivator to install \(library).")
        case .unsupportedFormat(let name):
            UserMessage(
                nb: "Filformatet \(name) støttes ikke ennå. Lagre siden som \(Self.supportedFormats.norwegian).",
                en: "The \(name) format is not supported yet. Save the page as \(Self.supportedFormats.english).")
        case .truncated:
            UserMessage(
                nb: "Bildet er avkortet: filen slutter før bildet er ferdig. Kopier eller skann dokumentet på nytt.",
                en: "The image is cut off: the file ends before the image does. Copy or scan the document again.")
        case .tooLarge(let width, let height, let limit):
            UserMessage(
                nb: "Bildet er for stort (\(width)×\(height) piksler, grensen er \(limit / 1_000_000) megapiksler). "
                    + "Skann med lavere oppløsning, for eksempel 300 DPI.",
                en: "The image is too large (\(width)×\(height) pixels, the limit is \(limit / 1_000_000) megapixels). "
                    + "Scan at a lower resolution, such as 300 DPI.")
        case .fileTooLarge(let bytes, let limit):
            UserMessage(
                nb: "Filen er for stor (\(bytes / 1_048_576) MB, grensen er \(limit / 1_048_576) MB). Skann én side per fil med 300 DPI.",
                en: "The file is too large (\(bytes / 1_048_576) MB, the limit is \(limit / 1_048_576) MB). Scan one page per file at 300 DPI.")
        case .undecodable:
            UserMessage(
                nb: "Bildet er skadet og kan ikke leses. Kopier eller skann dokumentet på nytt.",
                en: "The image is damaged and cannot be read. Copy or scan the document again.")
        case .noPages:
            UserMessage(
                nb: "Filen inneholder ingen sider.",
                en: "The file contains no pages.")
        case .encrypted:
            UserMessage(
                nb: "PDF-en er låst med passord, så Arkivator kan ikke lese den. Lagre en kopi uten passord og legg den inn på nytt.",
                en: "The PDF is locked with a password, so Arkivator cannot read it. Save a copy without a password and add that.")
        case .notRegularFile(let kind):
            UserMessage(
                nb: "Dette er ikke en vanlig fil, men \(Self.kindName(kind).norwegian), og den hoppes over. "
                    + "Legg selve bildet eller PDF-en der i stedet.",
                en: "This is not a regular file but \(Self.kindName(kind).english), and it is skipped. "
                    + "Put the image or PDF itself there instead.")
        case .damagedPDF:
            UserMessage(
                nb: "PDF-en er skadet og kan ikke leses. Last ned, kopier eller skann dokumentet på nytt.",
                en: "The PDF is damaged and cannot be read. Download, copy or scan the document again.")
        case .absurdPageSize(let width, let height):
            UserMessage(
                nb: "En side i PDF-en er \(width)×\(height) punkter, langt større enn noe ark (A4 er 595×842). "
                    + "Det er ikke en ekte sidestørrelse; lag PDF-en på nytt, for eksempel med «Skriv ut til PDF» på A4.",
                en: "A page in the PDF is \(width)×\(height) points, far larger than any sheet (A4 is 595×842). "
                    + "That is not a real page size; make the PDF again, for example with “Print to PDF” on A4.")
        case .changedWhileRead:
            UserMessage(
                nb: "Filen ble endret mens den ble lest, så den er ikke arkivert. Vent til den er ferdig lagret, og legg den inn på nytt.",
                en: "The file changed while it was being read, so it was not filed. Wait until it is fully saved, and add it again.")
        case .tooManyPages(let limit):
            UserMessage(
                nb: "Dokumentet har flere enn \(limit) sider, og det leses ikke. Del det opp i flere filer, ett brev i hver.",
                en: "The document has more than \(limit) pages and is not read. Split it into several files, one letter each.")
        case .documentTooLarge(let megapixels, let limit):
            UserMessage(
                nb: "Sidene i dokumentet har til sammen for mange piksler (over \(megapixels) megapiksler, grensen er \(limit)). "
                    + "Skann med 300 DPI, eller del dokumentet opp i flere filer.",
                en: "The document's pages hold too many pixels together (over \(megapixels) megapixels, the limit is \(limit)). "
                    + "Scan at 300 DPI, or split the document into several files.")
        }
    }
}
