import ArkivatorCore
import ArkivatorLibrary
import HTTPTypes
import Hummingbird
import NIOCore

/// A refusal with its status, a stable code and a sentence for the user. Handlers throw it (or
/// let the library's own failures through); ``ErrorResponses`` turns every error into a page or
/// a JSON answer in one place.
struct WebError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: UserMessage

    init(_ status: HTTPResponse.Status, code: String, nb: String, en: String) {
        self.status = status
        self.code = code
        self.message = UserMessage(nb: nb, en: en)
    }

    init(_ status: HTTPResponse.Status, code: String, message: UserMessage) {
        self.status = status
        self.code = code
        self.message = message
    }

    static let notFound = WebError(.notFound, code: "notFound",
        nb: "Det finnes ikke noe dokument eller side med denne adressen.", en: "There is no document or page at this address.")
    static let ownerOnly = WebError(.forbidden, code: "ownerOnly",
        nb: "Denne siden er bare for den som eier arkivet. Be eieren om hjelp, eller gå tilbake til brevene dine.",
        en: "This page is for the archive's owner only. Ask the owner for help, or go back to your letters.")
    static let readOnly = WebError(.forbidden, code: "readOnly",
        nb: "Kontoen din kan lese brevene, ikke endre dem. Be eieren av arkivet om å rette det som er feil.",
        en: "Your account can read the letters, not change them. Ask the archive's owner to correct what is wrong.")
    static let passkeyRefused = WebError(.unauthorized, code: "passkeyRefused",
        nb: "Passnøkkelen ble ikke godtatt. Prøv igjen, eller logg inn med navn og passord.",
        en: "The passkey was not accepted. Try again, or sign in with name and password.")
    static let badRequest = WebError(.badRequest, code: "badRequest",
        nb: "Noe i adressen eller skjemaet kunne ikke brukes. Gå tilbake og prøv igjen.",
        en: "Something in the address or form could not be used. Go back and try again.")

    /// A field of a form or JSON body that cannot be used.
    static func badField(_ name: String) -> WebError {
        WebError(.badRequest, code: "badRequest", nb: "Feltet «\(name)» kan ikke brukes.", en: "The field “\(name)” cannot be used.")
    }

    /// The status, code and words for any error, with every message that names a command or a
    /// command-line flag replaced by one for the web (a web user is never told to run a command).
    static func from(_ error: any Error) -> WebError {
        switch error {
        case let error as WebError:
            return error
        case let error as HTTPError:
            return generic(error.status)
        case let failure as LibraryFailure:
            return library(failure)
        case let failure as FamilyError:
            return family(failure)
        case let failure as FieldTooLong:
            return WebError(.badRequest, code: failure.errorCode, message: failure.userMessage)
        case is NIOTooManyBytesError:
            // A form or body past the limit its route reads (`collect(upTo:)`).
            return generic(.contentTooLarge)
        case let failure as any UserFacingError where failure.errorCode == "diskFull":
            return diskFull
        case let failure as any UserFacingError:
            // Something unexpected (a full disk, a damaged file): its words, without the paths it may name.
            let message = failure.userMessage
            return WebError(.internalServerError, code: failure.errorCode,
                            message: UserMessage(nb: ServerPaths.hidden(in: message.norwegian), en: ServerPaths.hidden(in: message.english)))
        default:
            return generic(.internalServerError)
        }
    }

    /// No room left on the server's disk (or in its quota), wherever it filled: 507 with what to do.
    static let diskFull = WebError(.init(code: 507, reasonPhrase: "Insufficient Storage"), code: "diskFull",
        nb: "Disken der biblioteket ligger, er full, så det som ble sendt, ble ikke lagret. Frigjør plass på den disken, og send igjen.",
        en: "The disk holding the library is full, so what was sent was not saved. Free some space on that disk and send it again.")

    static func generic(_ status: HTTPResponse.Status) -> WebError {
        switch status.code {
        case 400: return badRequest
        case 401: return WebError(status, code: "unauthorized", nb: "Logg inn først.", en: "Sign in first.")
        case 403: return WebError(status, code: "forbidden",
            nb: "Forespørselen kom ikke fra denne siden, eller skjemaet var for gammelt. Last siden på nytt og prøv igjen.",
            en: "The request did not come from this site, or the form was too old. Reload the page and try again.")
        case 404: return notFound
        case 405: return WebError(status, code: "methodNotAllowed",
            nb: "Denne adressen tar ikke imot en slik forespørsel.", en: "This address does not take such a request.")
        case 413: return WebError(status, code: "tooLarge",
            nb: "Det som ble sendt, er for stort til å tas imot. Gjør teksten kortere (eller send færre sider om gangen) og prøv igjen.",
            en: "What was sent is too large to be taken in. Make the text shorter (or send fewer pages at a time) and try again.")
        case 429: return WebError(status, code: "tooManyAttempts",
            nb: "For mange feil passord. Vent litt og prøv igjen.", en: "Too many wrong passwords. Wait a while and try again.")
        case 503: return WebError(status, code: "unavailable",
            nb: "Dette er slått av på denne serveren.", en: "This is turned off on this server.")
        default: return WebError(.internalServerError, code: "internal",
            nb: "Arkivator kunne ikke svare på dette. Prøv igjen om litt.", en: "Arkivator could not answer this. Try again in a while.")
        }
    }

    private static func library(_ failure: LibraryFailure) -> WebError {
        let message = failure.userMessage
        switch failure.code {
        case .notFound, .ambiguous, .noUploadJob:
            return WebError(.notFound, code: failure.errorCode, message: notFound.message)
        case .nothingToChange:
            return WebError(.badRequest, code: failure.errorCode, nb: "Ingenting å endre: ingen av feltene er annerledes.",
                            en: "Nothing to change: none of the fields differ.")
        case .badTitle, .emptyQuery, .badShareDays, .noLettersToShare, .badAppointment:
            return WebError(.badRequest, code: failure.errorCode, message: message)
        case .trashed:
            return WebError(.conflict, code: failure.errorCode, nb: "Dokumentet ligger i papirkurven. Gjenopprett det først.",
                            en: "The document is in the trash. Restore it first.")
        case .inTrash:
            return WebError(.conflict, code: failure.errorCode, nb: "Dette brevet ligger allerede i papirkurven. Gjenopprett det derfra.",
                            en: "This letter is already in the trash. Restore it from there.")
        case .duplicate, .notInTrash, .alreadyUploaded, .targetExists, .noAppointment:
            return WebError(.conflict, code: failure.errorCode, message: message)
        case .busy:
            return WebError(.serviceUnavailable, code: failure.errorCode, message: message)
        default:
            return WebError(.internalServerError, code: failure.errorCode, message: message)
        }
    }

    private static func family(_ failure: FamilyError) -> WebError {
        switch failure.errorCode {
        case "notFound":
            return WebError(.notFound, code: "notFound", nb: "Fant ikke dette medlemmet av husstanden.",
                            en: "No such member of the household.")
        case "duplicateName":
            return WebError(.conflict, code: "duplicateName",
                            nb: "Det finnes allerede noen med dette navnet i husstanden. Bruk et annet navn, for eksempel med mellomnavn.",
                            en: "Someone in the household already has this name. Use another name, for example with a middle name.")
        case "wrongKey", "importUnreadable", "importInvalid":
            return WebError(.internalServerError, code: failure.errorCode, message: failure.userMessage)
        default:
            return WebError(.badRequest, code: failure.errorCode, message: failure.userMessage)
        }
    }
}
