import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// Passkeys (WebAuthn: Face ID, Touch ID, a fingerprint, a phone's screen lock): added from
    /// «Enheter» by any signed-in account for itself, and used on the sign-in page instead of the
    /// name and password. The browser's script (`passkey.js`) asks the authenticator; what it
    /// answers is checked by ``Passkey``.
    func addPasskeyRoutes(open: RouterGroup<WebContext>, signedIn: RouterGroup<WebContext>) {
        let store = self.store, options = self.options, throttle = self.throttle, challenges = passkeyChallenges
        signedIn.post("/passkey/ny/start") { request, context -> Response in
            guard let session = context.session else { throw HTTPError(.unauthorized) }
            let access = context.seen
            let (flow, challenge) = challenges.make(.register(session: session.token))
            let site = Self.passkeySite(request, options: options)
            let userID = Array((access.account.map { "konto-\($0)" } ?? "eier").utf8)
            let name = access.isOwner ? "eier" : access.name
            return try JSONAnswer.response(PasskeyCreateOptions(
                flow: flow, challenge: Passkey.base64URLEncode(challenge), rpID: site.rpID, rpName: "Arkivator",
                userID: Passkey.base64URLEncode(userID), userName: name))
        }
        signedIn.post("/passkey/ny") { request, context -> Response in
            guard let session = context.session else { throw HTTPError(.unauthorized) }
            let answer = try await Self.body(PasskeyAnswer.self, from: request, context: context, fields: PasskeyAnswer.names,
                                             nb: "Svaret fra passnøkkelen kunne ikke leses.", en: "The passkey's answer could not be read.")
            let site = Self.passkeySite(request, options: options)
            guard let challenge = challenges.take(answer.flow, for: .register(session: session.token)),
                  let client = Passkey.base64URLDecode(answer.clientDataJSON),
                  let attestation = answer.attestationObject.flatMap(Passkey.base64URLDecode) else { throw WebError.passkeyRefused }
            let registered: Passkey.Registered
            do {
                registered = try Passkey.register(clientDataJSON: client, attestationObject: attestation, challenge: challenge,
                                                  origin: site.origin, rpID: site.rpID)
            } catch is PasskeyFailure {
                throw WebError.passkeyRefused
            }
            let access = context.seen, device = context.deviceKind
            try await store.write { library in
                try library.accounts.addPasskey(registered, account: access.account, device: device)
                try library.audit.record(.passkeyAdded, by: access, device: device)
            }
            return try JSONAnswer.response(PasskeyDone(location: "/enheter?passnokkel=1"))
        }
        signedIn.post("/passkey/{key}/fjern") { _, context -> Response in
            guard let id = context.parameters.get("key", as: Int.self) else { throw WebError.notFound }
            let account = context.seen.account
            guard try await store.write({ try $0.accounts.removePasskey(id, account: account) }) else { throw WebError.notFound }
            return Self.redirect("/enheter?passnokkel=0")
        }
        open.post("/login/passkey/start") { request, _ -> Response in
            let (flow, challenge) = challenges.make(.signIn)
            return try JSONAnswer.response(PasskeyGetOptions(flow: flow, challenge: Passkey.base64URLEncode(challenge),
                                                             rpID: Self.passkeySite(request, options: options).rpID))
        }
        open.post("/login/passkey") { request, context -> Response in
            let answer = try await Self.body(PasskeyAnswer.self, from: request, context: context, fields: PasskeyAnswer.names,
                                             nb: "Svaret fra passnøkkelen kunne ikke leses.", en: "The passkey's answer could not be read.")
            let site = Self.passkeySite(request, options: options)
            let device = DeviceKind.of(request)
            guard let challenge = challenges.take(answer.flow, for: .signIn) else { throw WebError.passkeyRefused }
            // Each refused answer counts in the sign-in throttle, as a wrong password does.
            let outcome = await throttle.attempt(client: context.client) {
                guard let id = answer.id.flatMap(Passkey.base64URLDecode), let client = Passkey.base64URLDecode(answer.clientDataJSON),
                      let data = answer.authenticatorData.flatMap(Passkey.base64URLDecode),
                      let signature = answer.signature.flatMap(Passkey.base64URLDecode),
                      let kept = try? await store.read({ try $0.accounts.passkey(credentialID: id) }),
                      let count = try? Passkey.signIn(clientDataJSON: client, authenticatorData: data, signature: signature,
                                                      challenge: challenge, origin: site.origin, rpID: site.rpID,
                                                      publicKey: kept.publicKey, storedCount: kept.signCount) else { return false }
                return (try? await store.write { library in
                    try library.accounts.usedPasskey(kept.id, signCount: count)
                }) != nil
            }
            switch outcome {
            case .accepted:
                guard let id = answer.id.flatMap(Passkey.base64URLDecode),
                      let kept = try await store.read({ try $0.accounts.passkey(credentialID: id) }) else { throw WebError.passkeyRefused }
                let session = try await store.write { library -> WebSession in
                    let session = try library.accounts.startWebSession(account: kept.access.account, device: device)
                    try library.audit.record(.signedIn, by: kept.access, detail: "med passnøkkel", device: device)
                    return session
                }
                var response = try JSONAnswer.response(PasskeyDone(location: "/"))
                response.headers[.setCookie] = PageSession.setCookie(session.token, secure: options.secureCookies)
                return response
            case .wrong:
                throw WebError.passkeyRefused
            case .locked(let seconds):
                throw WebError(.tooManyRequests, code: "locked", nb: Self.lockedText(seconds, context), en: Self.lockedText(seconds, context))
            }
        }
    }

    /// This site for WebAuthn: the origin the browser names (`scheme://host:port`) and the relying
    /// party id (the host without its port). A passkey works on a name (`localhost`, `arkiv.lan`),
    /// not on a bare IP address.
    static func passkeySite(_ request: Request, options: Options) -> (origin: String, rpID: String) {
        let own = ownAddress(request, options: options)
        var host = own.host
        if host.hasPrefix("[") {
            host = String(host.prefix { $0 != "]" }.dropFirst())
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return ("\(own.scheme)://\(own.host)", host.lowercased())
    }

    struct PasskeyCreateOptions: Encodable {
        let flow: String
        let challenge: String
        let rpID: String
        let rpName: String
        let userID: String
        let userName: String
    }

    struct PasskeyGetOptions: Encodable {
        let flow: String
        let challenge: String
        let rpID: String
    }

    /// What `passkey.js` sends back: the flow, and the authenticator's answer in base64url.
    struct PasskeyAnswer: Decodable {
        static let names = ["flow", "id", "clientDataJSON", "attestationObject", "authenticatorData", "signature"]
        let flow: String
        let id: String?
        let clientDataJSON: String
        let attestationObject: String?
        let authenticatorData: String?
        let signature: String?
    }

    struct PasskeyDone: Encodable {
        let location: String
    }
}
