import ArgumentParser
import ArkivatorCore
import ArkivatorLLM
import ArkivatorPipeline
import ArkivatorSync
import ArkivatorWeb
import Foundation

extension Arkivator {
    /// `arkivator serve`: the web app for the household's phones and laptops.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Start nettappen for biblioteket. (Start the library's web app.)",
            discussion: """
                Åpne adressen i en nettleser. Første gang velger du et passord der (bare fra denne maskinen). \
                Standard er 127.0.0.1:8080, som bare denne maskinen når. For mobilen på hjemmenettet: sett et \
                passord og bruk --listen 0.0.0.0:8080 (helst bak en proxy med TLS, se README). Innloggingen \
                låses etter --idle-minutes uten bruk. Stopp med Ctrl-C.

                (Open the address in a browser. The first time, choose a password there (from this machine \
                only). The default, 127.0.0.1:8080, is reached from this machine only. For phones on the home \
                network: set a password and use --listen 0.0.0.0:8080 (best behind a proxy with TLS, see the \
                README). A browser is signed out after --idle-minutes unused. Stop with Ctrl-C.)

                Eksempler / examples:
                  arkivator serve
                  arkivator serve --set-password
                  arkivator serve --listen 0.0.0.0:8080 --idle-minutes 30
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Option(name: .long, help: ArgumentHelp("Adresse og port å lytte på. (Address and port to listen on.)",
                                                valueName: "HOST:PORT"))
        var listen = "127.0.0.1:8080"

        @Option(name: .long, help: ArgumentHelp("Minutter uten bruk før nettleseren må logge inn igjen. (Idle lock.)",
                                                valueName: "MIN"))
        var idleMinutes = 15

        @Option(name: .long, help: ArgumentHelp("Sertifikat (PEM) for HTTPS; sammen med --tls-key. (Certificate for HTTPS.)",
                                                valueName: "FILE"))
        var tlsCert: String?

        @Option(name: .long, help: ArgumentHelp("Privat nøkkel (PEM) for HTTPS. (Private key for HTTPS.)", valueName: "FILE"))
        var tlsKey: String?

        @Flag(name: .long, help: "Velg et nytt passord (leses fra terminalen eller standard inn) og avslutt. (Set the password and exit.)")
        var setPassword = false

        func validate() throws {
            guard Self.address(listen) != nil else {
                throw ValidationError(UserMessage(nb: "--listen må være VERT:PORT, for eksempel 127.0.0.1:8080 (fikk «\(listen)»).",
                                                  en: "--listen must be HOST:PORT, such as 127.0.0.1:8080 (got “\(listen)”).").text())
            }
            guard (tlsCert == nil) == (tlsKey == nil) else {
                throw ValidationError(UserMessage(nb: "--tls-cert og --tls-key må brukes sammen.",
                                                  en: "--tls-cert and --tls-key go together.").text())
            }
            guard (1...24 * 60).contains(idleMinutes) else {
                throw ValidationError(UserMessage(nb: "--idle-minutes må være mellom 1 og 1440.",
                                                  en: "--idle-minutes must be between 1 and 1440.").text())
            }
        }

        static func address(_ text: String) -> (host: String, port: Int)? {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                  (1...65_535).contains(port) else { return nil }
            let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return host.isEmpty ? nil : (host, port)
        }

        func run() throws {
            guard let (host, port) = Self.address(listen) else { throw ExitCode(64) }
            let terminal = Terminal()
            let household = try LibraryCommand.household(libraryOptions)
            let tls = tlsCert.flatMap { cert in tlsKey.map { (certificate: cert, key: $0) } }
            // The web app works over the assembly's one library.
            let server = WebServer(library: household.library, options: .init(
                host: host, port: port, idleLock: TimeInterval(idleMinutes * 60), inbox: household.inbox, tls: tls))
            if setPassword { return try Self.setPassword(server, terminal: terminal) }
            do {
                try server.check()
            } catch {
                terminal.error(UserMessage(error: error))
                throw ExitCode(1)
            }
            let background = try ServeBackground.start(household, terminal: terminal)
            // On the way out, the document being read is finished first, and the uploads stop.
            defer { background.stop() }
            let scheme = tls == nil ? "http" : "https"
            terminal.line(UserMessage(nb: "Arkivator kjører på \(scheme)://\(listen)/ — stopp med Ctrl-C.",
                                      en: "Arkivator runs at \(scheme)://\(listen)/ — stop with Ctrl-C.").text())
            if tls == nil, !LocalAddress.isLocal(host: host) {
                terminal.error(UserMessage(
                    nb: "Uten HTTPS går brevene ukryptert over nettverket. Bruk --tls-cert/--tls-key, eller en proxy med TLS (se README).",
                    en: "Without HTTPS the letters cross the network unencrypted. Use --tls-cert/--tls-key, or a proxy with TLS (see the README)."))
            }
            let failure: String? = BlockingWait.run {
                do {
                    try await server.run()
                    return nil
                } catch {
                    return UserMessage(error: error).text()
                }
            }
            if let failure {
                FileHandle.standardError.write(Data((failure + "\n").utf8))
                throw ExitCode(1)
            }
        }

        /// `--set-password`: reads the new password twice (once from a pipe) and stores it.
        static func setPassword(_ server: WebServer, terminal: Terminal) throws {
            let first = readPassword(prompt: UserMessage(nb: "Nytt passord: ", en: "New password: ").text())
            let again = isatty(0) == 1
                ? readPassword(prompt: UserMessage(nb: "Samme passord igjen: ", en: "The same password again: ").text())
                : first
            do {
                try server.setPassword(first ?? "", again: again ?? "")
            } catch {
                terminal.error(UserMessage(error: error))
                throw ExitCode(1)
            }
            terminal.line(UserMessage(nb: "Passordet er satt. Alle nettlesere er logget ut.",
                                      en: "The password is set. Every browser is signed out.").text())
        }

        /// A password from the terminal without echo, or a line from standard input.
        static func readPassword(prompt: String) -> String? {
            if isatty(0) == 1, let typed = getpass(prompt) { return String(cString: typed) }
            return readLine(strippingNewline: true)
        }
    }
}

/// What `serve` runs beside the web app: the inbox watched as `watch` watches a folder (same
/// journal, so a letter received is never lost and never filed twice; the language model asked
/// when `llm.enabled` is on), and the upload worker in the background, woken by each document
/// filed. Both on threads of their own; ``stop()`` finishes the document being read and the
/// upload in progress goes back in the queue.
struct ServeBackground {
    let watcher: Watcher
    let uploads: Uploads
    private let finished: DispatchSemaphore

    static func start(_ household: Household, terminal: Terminal) throws -> ServeBackground {
        var model: LLMSettings?
        do {
            model = try household.languageModel()
            if let model { LLMCommand.announce(model, terminal: terminal) }
        } catch {
            // The web app still runs: letters are read by the rules until the model can be used.
            terminal.error(UserMessage(error: error))
        }
        let watcher: Watcher
        do {
            watcher = try household.watcher(.init(folder: household.inbox, settle: 1, onSuccess: .move),
                                            pipeline: .init(languageModel: model)) { event in
                WatchReport(terminal: terminal, settle: 1, restarted: true).show(event)
            }
        } catch {
            terminal.error(UserMessage(error: error))
            throw ExitCode(1)
        }
        let finished = DispatchSemaphore(value: 0)
        let watching = Thread {
            do {
                _ = try watcher.run()
            } catch {
                terminal.error(UserMessage(error: error))
            }
            finished.signal()
        }
        watching.name = "arkivator-inbox"
        watching.start()
        household.uploads.start { report in
            for entry in report.entries { terminal.line(UploadCommand.line(entry)) }
            for problem in report.problems { terminal.error(problem) }
        }
        return ServeBackground(watcher: watcher, uploads: household.uploads, finished: finished)
    }

    /// Stops both and waits for them.
    func stop() {
        watcher.stop()
        uploads.stop()
        finished.wait()
    }
}
