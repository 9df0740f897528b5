import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// The upload queue as a person is shown it (the web app's settings and library pages): the
/// jobs, and, where uploads wait, why, in plain words with what to do next.
public struct UploadQueueState: Sendable, Equatable {
    /// The `destination` setting (`folder:/media/kopi/Arkiv`), nil when uploading is off.
    public var destination: String?
    /// A short name for it: the folder, the server or the rclone target.
    public var destinationName: String?
    /// Every job not yet uploaded, oldest first (the done ones are not read: a large library has
    /// one per document).
    public var jobs: [UploadJob]
    /// Jobs queued or being uploaded (documents in the trash not counted).
    public var pending: Int
    /// Jobs that gave up (tried again with ``Uploads/retry(_:)`` or ``Uploads/retryAll()``).
    public var failed: Int
    /// When the next pending job is due; nil when none is pending.
    public var nextTry: Date?
    /// One entry per destination where jobs wait after a failed try; empty when none do.
    public var waiting: [UploadWait]

    /// Whether every job is done (or there are none).
    public var isClear: Bool { pending == 0 && failed == 0 }
}

/// Why uploads to one destination wait, in plain words.
public struct UploadWait: Sendable, Equatable {
    /// The destination setting the waiting jobs go to.
    public var destination: String
    /// Its short name (folder, server, rclone target).
    public var destinationName: String
    public var reason: UploadFailure.Reason
    /// What is wrong and what to do next, without naming a command (a web user has none to run).
    public var message: UserMessage
    /// What the destination or the system said (`HTTP 503`, `connection refused` …), when known.
    public var detail: String?
    /// The jobs waiting (queued for a later try, or given up).
    public var jobs: Int
    /// When the latest failed try was, when known.
    public var since: Date?
    /// When the next try is due; nil when the jobs gave up (they wait for "Prøv igjen").
    public var nextTry: Date?
    /// Since when copies there have failed without one getting through.
    public var failingSince: Date? = nil

    /// Whether copies have failed there for longer than `limit` (an hour by default): the
    /// household is told in words.
    public func isLong(now: Date = Date(), limit: TimeInterval = 3600) -> Bool {
        failingSince.map { now.timeIntervalSince($0) >= limit } ?? false
    }

    /// "Kopiene har ikke kommet fram på over en time.", when so.
    public func longNotice(now: Date = Date(), limit: TimeInterval = 3600) -> UserMessage? {
        guard isLong(now: now, limit: limit), let since = failingSince else { return nil }
        let hours = max(1, Int(now.timeIntervalSince(since) / 3600))
        return UserMessage(nb: "Kopiene har ikke kommet fram på \(hours == 1 ? "over en time" : "over \(hours) timer"). Ingenting er tapt: alt ligger trygt i arkivet, og kopieringen fortsetter når målet svarer.",
                           en: "The copies have not got through for \(hours == 1 ? "over an hour" : "over \(hours) hours"). Nothing is lost: everything is safe in the archive, and copying goes on once the destination answers.")
    }

    /// The sentence for `reason` at a destination called `name`.
    public static func message(_ reason: UploadFailure.Reason, name: String) -> UserMessage {
        switch reason {
        case .destinationMissing:
            UserMessage(nb: "Mappen \(name) finnes ikke nå. Koble til disken (eller sjekk at mappen finnes); opplastingen fortsetter av seg selv.",
                        en: "The folder \(name) is not there now. Connect the disk (or check that the folder exists); uploading goes on by itself.")
        case .unreachable:
            UserMessage(nb: "Får ikke kontakt med \(name). Sjekk at serveren er på og at maskinen er på nettet; arkivator prøver igjen av seg selv.",
                        en: "Cannot reach \(name). Check that the server is on and the machine is online; arkivator tries again by itself.")
        case .refused:
            UserMessage(nb: "\(name) tar ikke imot filene (mangler skrivetilgang?). Gi tilgang til mappen, eller velg et annet mål, og trykk «Prøv igjen».",
                        en: "\(name) does not accept the files (no permission to write?). Give access to the folder, or choose another destination, and press “Try again”.")
        case .full:
            UserMessage(nb: "\(name) er full. Frigjør plass der; arkivator prøver igjen (eller trykk «Prøv igjen»).",
                        en: "\(name) is full. Free some space there; arkivator tries again (or press “Try again”).")
        case .login:
            UserMessage(nb: "\(name) avviste innloggingen. Logg inn på nytt: sjekk brukernavnet og passordet arkivator bruker, og trykk «Prøv igjen».",
                        en: "\(name) refused the login. Log in again: check the user name and password arkivator uses, and press “Try again”.")
        case .other:
            UserMessage(nb: "Opplastingen til \(name) venter etter en feil. Trykk «Prøv igjen» når feilen er rettet.",
                        en: "Uploading to \(name) waits after an error. Press “Try again” once it is put right.")
        }
    }

    /// For jobs that wait although the destination answers now: the next try comes by itself.
    static func answersNow(name: String) -> UserMessage {
        UserMessage(nb: "\(name) svarer nå. Jobbene som venter, prøves igjen av seg selv; trykk «Prøv igjen» for å prøve med en gang.",
                    en: "\(name) answers now. The waiting jobs are tried again by themselves; press “Try again” to try at once.")
    }
}

extension UploadJob {
    /// Whether the job waits after a failed try: given up, queued for a later try, or being
    /// tried again (until that try gets through, the last failure still says why it waits).
    var waitsAfterFailure: Bool {
        state == .error || (state != .done && (attempts > 0 || nextAttemptAt != nil || lastError != nil))
    }
}
