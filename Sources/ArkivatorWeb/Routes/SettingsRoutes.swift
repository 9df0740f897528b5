import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import ArkivatorSync
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// Settings: where copies go (checked when saved), the upload queue with why it waits and
    /// "Prøv igjen", the language model, device tokens, a backup and an export.
    func addSettingsRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, household = self.household
        pages.get("/settings") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            var page = SettingsPage()
            if query.value("lagret") != nil { page.notice = context.text("Lagret.", "Saved.") }
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
                _ = try await household.change(.destination, to: value, for: .web)
            } catch {
                var page = SettingsPage()
                page.problem = WebError.from(error).message.text(in: context.language)
                page.destinationTyped = (kind, form.value("folder") ?? "", form.value("webdav") ?? "", form.value("rclone") ?? "")
                return try await Self.settingsPage(household, store, templates, page, context: context, status: .badRequest)
            }
            return Self.redirect("/settings?lagret=1#upload")
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
            let made = try await store.write { try $0.createAPIToken(name: name) }
            var page = SettingsPage()
            page.newToken = (made.token, made.row.name)
            return try await Self.settingsPage(household, store, templates, page, context: context)
        }
        pages.post("/settings/tokens/{token}/revoke") { _, context -> Response in
            guard let id = context.parameters.get("token", as: Int.self), try await store.write({ try $0.revokeAPIToken(id) }) else {
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

    /// What the settings page shows beside the stored settings.
    struct SettingsPage {
        var notice: String?
        var problem: String?
        var newToken: (token: String, name: String)?
        /// What was typed in the destination form when it was refused (kind, folder, webdav, rclone).
        var destinationTyped: (String, String, String, String)?
    }

    static func settingsPage(_ household: Household, _ store: AsyncLibrary, _ templates: Templates, _ page: SettingsPage, context: WebContext,
                             status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await household.currentSettings()
        let uploads = UploadState(try await household.uploads.state())
        let (made, folders) = try await store.read { library in
            (try library.apiTokens(), [library.location.directory.path, library.defaultArchiveRoot.path])
        }
        let stored = (destination: settings.destination?.description ?? settings.unreadableDestination, uploads: uploads, tokens: made,
                      llmURL: settings.languageModel.url?.absoluteString, llmEnabled: settings.languageModel.enabled,
                      allowRemote: settings.languageModel.allowRemote)
        let words = Words(templates, context)
        var model: [String: Any] = [:]
        if let notice = page.notice { model["notice"] = notice }
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
            let made = String(token.createdAt.prefix(10))
            let used = token.lastUsed.map { words.text("laget \(made), sist brukt \($0.prefix(10))", "made \(made), last used \($0.prefix(10))") }
                ?? words.text("laget \(made), ikke brukt ennå", "made \(made), not used yet")
            return ["id": token.id, "name": token.name, "used": used]
        }
        model["tokens"] = tokens
        model["hasTokens"] = !tokens.isEmpty
        return templates.page("settings", title: words["settings"], model: model, context: context, status: status, section: "settings")
    }
}
