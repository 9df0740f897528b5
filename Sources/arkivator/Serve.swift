import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorApp
import ArkivatorSync
import ArkivatorWeb
import Foundation
import Logging

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
                  arkivator serve --sign-in-link          # låst ute? en lenke som virker én gang
                  arkivator serve --trusted-proxy 127.0.0.1   # bak Caddy eller nginx på samme maskin
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

        @Flag(name: .long, help: ArgumentHelp(
            "Skriv en innloggingslenke som virker én gang i 10 minutter, og avslutt: for eieren ved maskinen. (Print a one-time sign-in link and exit.)"))
        var signInLink = false

        @Option(name: .long, help: ArgumentHelp(
            "En proxy foran Arkivator (Caddy, nginx) hvis X-Forwarded-For sier hvem som spør; kan gis flere ganger. (A proxy whose X-Forwarded-For names the client.)",
            valueName: "ADDRESS"))
        var trustedProxy: [String] = []

        /// Seconds a connection may send nothing before it is closed (for tests).
        @Option(name: .long, help: .hidden)
        var connectionTimeout: Int64 = 60

        @Option(name: .long, help: ArgumentHelp("Hvor mye som logges: error, warning, info (standard) eller debug. (How much is logged.)",
                                                valueName: "LEVEL"))
        var logLevel = "info"

        func validate() throws {
            guard Self.address(listen) != nil else {
                throw ValidationError(UserMessage(nb: "--listen må være VERT:PORT, for eksempel 127.0.0.1:8080 (fikk «\(listen)»).",
                                                  en: "--listen must be HOST:PORT, such as 127.0.0.1:8080 (got “\(listen)”).").text())
            }
            guard (tlsCert == nil) == (tlsKey == nil) else {
                throw ValidationError(UserMessage(nb: "--tls-cert og --tls-key må brukes sammen.",
                                                  en: "--tls-cert and --tls-key go together.").text())
            }
            guard Logger.Level(rawValue: logLevel.lowercased()) != nil else {
                throw ValidationError(UserMessage(nb: "--log-level må være error, warning, info eller debug.",
                                                  en: "--log-level must be error, warning, info or debug.").text())
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
            let tls = tlsCert.flatMap { cert in tlsKey.map { (certificate: cert, key: $0) } }
            let household = try LibraryCommand.household(libraryOptions)
            if signInLink { return try Self.printSignInLink(household, host: host, port: port, tls: tls != nil, terminal: terminal) }
            var logger = Logger(label: "arkivator.serve")
            logger.logLevel = Logger.Level(rawValue: logLevel.lowercased()) ?? .info
            // The web app works over the assembly's one library.
            let server: WebServer
            do {
                server = try WebServer(household: household, options: .init(
                    host: host, port: port, idleLock: TimeInterval(idleMinutes * 60), inbox: household.inbox, tls: tls,
                    trustedProxies: trustedProxy, connectionIdleTimeout: max(1, connectionTimeout), logger: logger))
            } catch {
                terminal.error(UserMessage(error: error))
                throw ExitCode(1)
            }
            if setPassword { return try Self.setPassword(server, terminal: terminal) }
            if let refused = Self.wait({ try await server.check() }) {
                terminal.error(refused)
                throw ExitCode(1)
            }
            let background = try ServeBackground.start(household, terminal: terminal, logger: logger)
            // On the way out, the document being read is finished first, and the uploads stop;
            // then the library's door closes, once the work asked of it is done.
            defer {
                background.stop()
                _ = Self.wait { await household.close() }
            }
            let scheme = tls == nil ? "http" : "https"
            terminal.line(UserMessage(nb: "Arkivator kjører på \(scheme)://\(listen)/ — stopp med Ctrl-C.",
                                      en: "Arkivator runs at \(scheme)://\(listen)/ — stop with Ctrl-C.").text())
            if try household.library.accounts.webPasswordHash() == nil {
                terminal.line(UserMessage(
                    nb: "Ingen passord er valgt ennå. Åpne adressen over og skriv denne engangskoden når du velger passord: \(server.setupCode)",
                    en: "No password has been chosen yet. Open the address above and type this one-time code when you choose the password: \(server.setupCode)").text())
            }
            if tls == nil, !LocalAddress.isLocal(host: host) {
                terminal.error(UserMessage(
                    nb: "Uten HTTPS går brevene ukryptert over nettverket. Bruk --tls-cert/--tls-key, eller en proxy med TLS (se README).",
                    en: "Without HTTPS the letters cross the network unencrypted. Use --tls-cert/--tls-key, or a proxy with TLS (see the README)."))
            }
            if let failure = Self.wait({ try await server.run() }) {
                terminal.error(failure)
                throw ExitCode(1)
            }
        }

        /// Runs async work from this synchronous command and returns its failure, if any.
        static func wait(_ work: @escaping @Sendable () async throws -> Void) -> UserMessage? {
            BlockingWait.run {
                do {
                    try await work()
                    return nil
                } catch {
                    return UserMessage(error: error)
                }
            }
        }

        /// `--sign-in-link`: a link that signs a browser in once, within 10 minutes, for the owner at
        /// this machine (the running `serve` takes it: it is in the library database).
        static func printSignInLink(_ household: Household, host: String, port: Int, tls: Bool, terminal: Terminal) throws {
            let token = try household.library.accounts.createSignInLink()
            let shown = LocalAddress.isLocal(host: host) || host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
            terminal.line(UserMessage(
                nb: "Åpne denne lenken i nettleseren innen 10 minutter; den virker én gang:",
                en: "Open this link in the browser within 10 minutes; it works once:").text())
            terminal.line("\(tls ? "https" : "http")://\(shown):\(port)/login/link/\(token)")
        }

        /// `--set-password`: reads the new password twice (once from a pipe) and stores it.
        static func setPassword(_ server: WebServer, terminal: Terminal) throws {
            let first = readPassword(prompt: UserMessage(nb: "Nytt passord: ", en: "New password: ").text())
            let again = isatty(0) == 1
                ? readPassword(prompt: UserMessage(nb: "Samme passord igjen: ", en: "The same password again: ").text())
                : first
            if let failure = wait({ try await server.setPassword(first ?? "", again: again ?? "") }) {
                terminal.error(failure)
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
