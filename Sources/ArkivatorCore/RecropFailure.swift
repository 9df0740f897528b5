/// Why a page could not be read again with corners and a turn set by hand.
public struct RecropFailure: UserFacingError, Sendable, Equatable {
    public let errorCode: String
    public let userMessage: UserMessage

    init(_ code: String, nb: String, en: String) {
        errorCode = code
        userMessage = UserMessage(nb: nb, en: en)
    }

    /// The corners are not a sheet (see ``PageCrop/problem``).
    public static func badCorners(_ problem: UserMessage?) -> RecropFailure {
        let message = problem ?? UserMessage(nb: "Hjørnene danner ikke et ark.", en: "The corners do not make a sheet.")
        return RecropFailure("badCorners", nb: message.norwegian, en: message.english)
    }

    /// The document has no page with that number.
    public static func noSuchPage(_ page: Int, pages: Int) -> RecropFailure {
        RecropFailure("noSuchPage", nb: "Dokumentet har ingen side \(page) (det har \(pages == 1 ? "én side" : "\(pages) sider")).",
                      en: "The document has no page \(page) (it has \(pages == 1 ? "one page" : "\(pages) pages")).")
    }

    /// The photo as taken was not kept (filed before originals were kept, or hidden by `redact`).
    public static let noOriginal = RecropFailure("noOriginal",
        nb: "Bildet slik det ble tatt er ikke tatt vare på for denne siden, så den kan ikke leses på nytt. Last opp bildet på nytt for å rette beskjæringen.",
        en: "The photo as taken was not kept for this page, so it cannot be read again. Upload the photo again to fix the crop.")

    /// The page was read from a PDF's own text: there is no photo to crop.
    public static let textLayerPage = RecropFailure("textLayerPage",
        nb: "Denne siden ble lest fra PDF-ens egen tekst, ikke fra et bilde, og har ingen beskjæring å rette.",
        en: "This page was read from the PDF's own text, not from a picture, and has no crop to fix.")

    /// The document changed while its page was being read again.
    public static let changedMeanwhile = RecropFailure("changedMeanwhile",
        nb: "Dokumentet ble endret mens siden ble lest på nytt. Ingenting er endret; prøv igjen.",
        en: "The document was changed while the page was being read again. Nothing was changed; try again.")
}
