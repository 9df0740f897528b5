import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import ArkivatorSync
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// Settings: where copies go (checked when saved; a new destination gets the whole archive),
    /// how far the copy has come, «Sjekk kopien» and «Rett opp kopien», the upload queue with why
    /// it waits and "Prøv igjen", the language model, device tokens, a backup and an export.
    func addSettingsRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, household = self.household
        pages.get("/settings") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            var page = SettingsPage()
            switch query.value("lagret") {
            case nil: break
            case "kopi": page.copyNotice = .newDestination
            case "sted": page.copyNotice = .saved
            default: page.notice = context.text("Lagret.", "Saved.")
            }
            switch query.value("rettet") {
            case nil: break
            case "lik": page.copyNotice = .alreadyInLine
            case let letters?: page.copyNotice = .repairing(Int(letters) ?? 0)
            }
            return try await Self.settingsPage(household, store, templates, page, context: context)
        }
        pages.post("/settings/destination") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let kind = form.value("kind") ?? "off"
            let value: String? = switch kind {
            case "folder": form.value("folder").map { "folder:" + $0 }
            case "webdav": form.value("webdav").map { "webdav:" + $0 }
            case "rclone": form.value("rclone").map { "rclone:" + $0 }
            default: nil
            }
            do {
                if kind != "off", value == nil {
                    throw WebError(.badRequest, code: "badDestination", nb: "Skriv hvor kopiene skal, i feltet under valget du gjorde.",
                                   en: "Write where the copies go, in the field under the choice you made.")
                }
                let before = try await household.currentSettings().destination?.description
                let change = try await household.change(.destination, to: value, for: .web)
                // A new destination has every letter queued for it (the library does that when it is
                // set): the background loop starts on them now.
                household.uploads.wake()
                let isNew = change.stored != nil && change.stored != before
                return Self.redirect(isNew ? "/settings?lagret=kopi#upload" : "/settings?lagret=sted#upload")
            } catch {
                var page = SettingsPage()
                page.problem = WebError.from(error).message.text(in: context.language)
                page.destinationTyped = (kind, form.value("folder") ?? "", form.value("webdav") ?? "", form.value("rclone") ?? "")
                return try await Self.settingsPage(household, store, templates, page, context: context, status: .badRequest)
            }
        }
        // «Sjekk kopien»: lists the destination and compares it with the archive, and shows what
        // differs (run afresh each time: the answer is the destination as it is now).
        pages.post("/settings/copy/check") { _, context -> Response in
            var page = SettingsPage()
            do {
                page.check = try await MirrorCheck.run(store: household.store, environment: household.environment)
            } catch {
                page.copyProblem = WebError.from(error).message.text(in: context.language)
                return try await Self.settingsPage(household, store, templates, page, context: context,
                                                   status: Self.checkStatus(error))
            }
            return try await Self.settingsPage(household, store, templates, page, context: context)
        }
        // «Rett opp kopien»: checks again (the destination may have changed since the page was
        // shown), queues each letter out of line and wakes the background loop.
        pages.post("/settings/copy/repair") { _, context -> Response in
            do {
                let check = try await MirrorCheck.run(store: household.store, environment: household.environment)
                if check.isInLine { return Self.redirect("/settings?rettet=lik#upload") }
                let letters = try await check.queueRepairs(store: household.store)
                household.uploads.wake()
                return Self.redirect("/settings?rettet=\(letters)#upload")
            } catch {
                var page = SettingsPage()
                page.copyProblem = WebError.from(error).message.text(in: context.language)
                return try await Self.settingsPage(household, store, templates, page, context: context,
                                                   status: Self.checkStatus(error))
            }
        }
        pages.post("/settings/adresse") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let address = (form.value("address") ?? "").trimmingCharacters(in: .whitespaces)
            do {
                _ = try await household.change(.webAddress, to: address.isEmpty ? nil : address, for: .web)
            } catch {
                var page = SettingsPage()
                page.problem = WebError.from(error).message.text(in: context.language)
                return try await Self.settingsPage(household, store, templates, page, context: context, status: .badRequest)
            }
            return Self.redirect("/settings?lagret=1#adresse")
        }
        pages.post("/settings/llm") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            do {
                try await Self.saveLanguageModel(url: form.value("url"), allowRemote: form.isTicked("allowRemote"),
                                                 enabled: form.isTicked("enabled"), household: household)
            } catch {
                var page = SettingsPage()
                page.problem = WebError.from(error).message.text(in: context.language)
                return try await Self.settingsPage(household, store, templates, page, context: context, status: .badRequest)
            }
            return Self.redirect("/settings?lagret=1")
        }
        pages.post("/settings/queue/{job}/retry") { _, context -> Response in
            guard let job = context.parameters.get("job", as: Int.self) else { throw WebError.notFound }
            try await household.uploads.retry(job)
            return Self.redirect("/settings#upload")
        }
        pages.post("/settings/queue/retry") { request, _ -> Response in
            try await household.uploads.retryAll()
            // Back where the button was: the library's notice, or Settings.
            let back = request.headers[.referer].flatMap(URL.init(string:))?.path == "/" ? "/" : "/settings#upload"
            return Self.redirect(back)
        }
        pages.post("/settings/tokens") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let name = form.value("name") ?? ""
            guard !name.isEmpty else { throw WebError.badField("name") }
            let made = try await store.write { try $0.accounts.createAPIToken(name: name) }
            var page = SettingsPage()
            page.newToken = (made.token, made.row.name)
            return try await Self.settingsPage(household, store, templates, page, context: context)
        }
        pages.post("/settings/tokens/{token}/revoke") { _, context -> Response in
            guard let id = context.parameters.get("token", as: Int.self), try await store.write({ try $0.accounts.revokeAPIToken(id) }) else {
                throw WebError.notFound
            }
            return Self.redirect("/settings?lagret=1")
        }
        pages.get("/settings/export") { _, _ -> Response in
            let file = try await store.read { library -> URL in
                let file = Self.temporaryFile(library, suffix: ".json")
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                // Private from the first byte (the letters' text is in it), and whole or not at all;
                // every fødselsnummer masked, as in the command line's export.
                try AtomicFile.write(Array(try encoder.encode(try library.allDocuments().map(\.masked))), to: file, mode: 0o600)
                return file
            }
            return try await Self.attachment(file, name: "arkivator-eksport.json", type: "application/json; charset=utf-8")
        }
        pages.get("/settings/backup") { _, _ -> Response in
            // From a snapshot, on a thread for long file work: pages and filing go on meanwhile.
            let file = try await store.backupSnapshot()
            return try await Self.attachment(file, name: "arkivator-kopi.sqlite", type: "application/vnd.sqlite3")
        }
    }

    /// A private file for one answer, in the library folder: removed once sent, or, if the
    /// answer never went out, when the library is next opened alone (as a backup snapshot is).
    static func temporaryFile(_ library: Library, suffix: String) -> URL {
        library.location.directory.appendingPathComponent(Library.snapshotPrefix + UUID().uuidString + suffix)
    }

    /// A file made for this answer, streamed as a download and removed once sent.
    static func attachment(_ file: URL, name: String, type: String) async throws -> Response {
        guard let (body, _) = try await FileStream.body(file, removeAfter: true) else { throw HTTPError(.internalServerError) }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The language model's three settings, each checked as the command line checks it: the
    /// address first when turning on, the switch first when turning off.
    static func saveLanguageModel(url: String?, allowRemote: Bool, enabled: Bool, household: Household) async throws {
        if !enabled { _ = try await household.change(.llmEnabled, to: "false", for: .web) }
        _ = try await household.change(.llmURL, to: url, for: .web)
        _ = try await household.change(.llmAllowRemote, to: allowRemote ? "true" : "false", for: .web)
        if enabled { _ = try await household.change(.llmEnabled, to: "true", for: .web) }
    }

    /// A check that could not be made: no destination set is the form's fault; anything else
    /// (the destination not answering, a file that cannot be read) is not.
    static func checkStatus(_ error: any Error) -> HTTPResponse.Status {
        if let failure = error as? UploadFailure { return failure.kind == .badDestination ? .badRequest : .serviceUnavailable }
        return WebError.from(error).status
    }

    /// What the copy section says at its top after a change there.
    enum CopyNotice {
        /// A new destination was saved: the whole archive is on its way there.
        case newDestination
        /// The destination was saved unchanged, or turned off.
        case saved
        /// «Rett opp kopien» queued this many letters.
        case repairing(Int)
        /// «Rett opp kopien» found the copy in line already.
        case alreadyInLine
    }

    /// What the settings page shows beside the stored settings.
    struct SettingsPage {
        var notice: String?
        /// Shown under the copy section's heading (where a save there lands).
        var copyNotice: CopyNotice?
        /// A check or repair of the copy that could not be made, in words.
        var copyProblem: String?
        /// The result of «Sjekk kopien».
        var check: MirrorCheck?
        var problem: String?
        var newToken: (token: String, name: String)?
        /// What was typed in the destination form when it was refused (kind, folder, webdav, rclone).
        var destinationTyped: (String, String, String, String)?
    }

    static func settingsPage(_ household: Household, _ store: AsyncLibrary, _ templates: Templates, _ page: SettingsPage, context: WebContext,
                             status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await household.currentSettings()
        let uploads = UploadState(try await household.uploads.state())
        let (made, folders, counts) = try await store.read { library in
            (try library.accounts.apiTokens(), [library.location.directory.path, library.defaultArchiveRoot.path], try library.uploads.copyCounts())
        }
        let stored = (destination: settings.destination?.description ?? settings.unreadableDestination, uploads: uploads, tokens: made,
                      llmURL: settings.languageModel.url?.absoluteString, llmEnabled: settings.languageModel.enabled,
                      allowRemote: settings.languageModel.allowRemote)
        let words = Words(templates, context)
        var model: [String: Any] = [:]
        if let notice = page.notice { model["notice"] = notice }
        let address = try await store.read { try $0.setting(.webAddress) }
        model["webAddress"] = ["value": address ?? "", "local": address.map { LocalAddress.isLocal(urlString: $0) } ?? false]
        if let problem = page.problem { model["problem"] = problem }
        let destination = stored.destination ?? ""
        let colon = destination.firstIndex(of: ":")
        var kind = colon.map { String(destination[..<$0]) } ?? "off"
        let rest = colon.map { String(destination[destination.index(after: $0)...]) } ?? ""
        var values = (folder: kind == "folder" ? rest : "", webdav: kind == "webdav" ? rest : "", rclone: kind == "rclone" ? rest : "")
        if let typed = page.destinationTyped {
            kind = typed.0
            values = (typed.1, typed.2, typed.3)
        }
        model["destination"] = ["off": kind == "off", "folder": kind == "folder", "webdav": kind == "webdav", "rclone": kind == "rclone",
                                "folderValue": values.folder, "webdavValue": values.webdav, "rcloneValue": values.rclone] as [String: Any]
        model["queue"] = stored.uploads.model(words, hiding: folders)
        let progress = stored.uploads.copyProgress(counts, words)
        if let progress { model["copy"] = progress }
        if let notice = page.copyNotice {
            model["copyNotice"] = Self.copyNotice(notice, progress: progress, words: words)
        }
        if let problem = page.copyProblem { model["copyProblem"] = problem }
        if let check = page.check {
            let waiting = (counts[.waiting] ?? 0) + (counts[.stale] ?? 0)
            model["check"] = MirrorCheckView(check: check).model(words, waiting: waiting)
        }
        var llm: [String: Any] = ["url": stored.llmURL ?? "", "enabled": stored.llmEnabled, "allowRemote": stored.allowRemote,
                                  "configured": stored.llmURL != nil]
        if let text = stored.llmURL, let url = URL(string: text), !LocalAddress.isLocal(url: url) {
            llm["remoteWarning"] = words.text(
                "Språkmodellen er på en annen maskin (\(url.host ?? text)): når den er på, sendes brevteksten dit (fødselsnumre tas alltid bort først).",
                "The language model is on another machine (\(url.host ?? text)): when it is on, the letter text is sent there (national ID numbers are always removed first).")
        }
        model["llm"] = llm
        if let made = page.newToken {
            model["newToken"] = ["token": made.token, "shownOnce": words.text(
                "Nøkkelen for «\(made.name)» vises bare nå. Kopier den til enheten før du går videre.",
                "The token for “\(made.name)” is shown only now. Copy it to the device before you move on.")]
        }
        let tokens: [[String: Any]] = stored.tokens.map { token in
            let made = words.date(String(token.createdAt.prefix(10)))
            let used = token.lastUsed.map { words.text("laget \(made), sist brukt \(words.date(String($0.prefix(10))))",
                                                       "made \(made), last used \($0.prefix(10))") }
                ?? words.text("laget \(made), ikke brukt ennå", "made \(made), not used yet")
            return ["id": token.id, "name": token.name, "used": used]
        }
        model["tokens"] = tokens
        model["hasTokens"] = !tokens.isEmpty
        return templates.page("settings", title: words["settings"], model: model, context: context, status: status, section: "settings")
    }

    /// The copy section's notice, in words; the progress itself stands under it.
    static func copyNotice(_ notice: CopyNotice, progress: [String: Any]?, words: Words) -> String {
        let name = progress?["destination"] as? String
        let total = progress?["total"] as? Int ?? 0
        switch notice {
        case .newDestination:
            // With no letters yet the progress line under it says what happens from now on.
            guard let name, total > 0 else { return words.text("Lagret.", "Saved.") }
            return words.text("Lagret. Hele arkivet (\(total) brev) kopieres nå til \(name) i bakgrunnen.",
                              "Saved. The whole archive (\(total) \(total == 1 ? "letter" : "letters")) is being copied to \(name) in the background.")
        case .saved:
            return words.text("Lagret.", "Saved.")
        case .repairing(let letters):
            if letters == 0 {
                return words.text("Kopien rettes opp: filer Arkivator har lagt der som arkivet ikke har lenger, fjernes i bakgrunnen.",
                                  "The copy is being repaired: files Arkivator put there that the archive no longer has are removed in the background.")
            }
            return words.text("Kopien rettes opp: \(letters) brev kopieres på nytt i bakgrunnen. Trykk «Sjekk kopien» igjen når alle er kopiert.",
                              "The copy is being repaired: \(letters) \(letters == 1 ? "letter is" : "letters are") copied again in the background. Press «Check the copy» again once all are copied.")
        case .alreadyInLine:
            return words.text("Kopien er allerede lik arkivet; ingenting å rette opp.", "The copy already matches the archive; nothing to repair.")
        }
    }
}
