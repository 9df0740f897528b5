import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// Settings and status: the upload destination, the upload queue with retry, the language
    /// model switch (with what it means for privacy), and a backup of the library database.
    func addSettingsRoutes(to router: Router<WebContext>) {
        let library = self.library
        router.get("/settings") { _, context -> Response in
            try Self.settingsPage(library, problem: nil, context: context)
        }
        router.post("/settings/destination") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let value = (form["destination"] ?? "").trimmingCharacters(in: .whitespaces)
            if value.isEmpty {
                try library.setSetting(.destination, nil)
            } else {
                do throws(UploadFailure) {
                    let destination = try Destination.parse(value)
                    try? library.setSetting(.destination, destination.description)
                } catch {
                    return try Self.settingsPage(library, problem: error.userMessage.text(in: context.language), context: context,
                                                 status: .badRequest)
                }
            }
            return Response(status: .seeOther, headers: [.location: "/settings"])
        }
        router.post("/settings/llm") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            try library.setSetting(.llmEnabled, form["enabled"] == "true" ? "true" : nil)
            return Response(status: .seeOther, headers: [.location: "/settings"])
        }
        router.post("/settings/queue/{job}/retry") { _, context -> Response in
            _ = try Self.retryUpload(library, context)
            return Response(status: .seeOther, headers: [.location: "/settings"])
        }
        router.post("/settings/queue/retry") { _, _ -> Response in
            _ = try library.retryAllUploads()
            return Response(status: .seeOther, headers: [.location: "/settings"])
        }
        router.post("/settings/tokens") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let made = try library.createAPIToken(name: form["name"] ?? "")
            return try Self.settingsPage(library, problem: nil, newToken: made, context: context)
        }
        router.post("/settings/tokens/{token}/revoke") { _, context -> Response in
            guard let id = context.parameters.get("token", as: Int.self), try library.revokeAPIToken(id) else {
                throw HTTPError(.notFound)
            }
            return Response(status: .seeOther, headers: [.location: "/settings"])
        }
        router.get("/settings/export") { _, _ -> Response in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            headers[.contentDisposition] = "attachment; filename=\"arkivator-eksport.json\""
            return Response(status: .ok, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(try library.allDocuments()))))
        }
        router.get("/settings/backup") { _, _ -> Response in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-kopi-\(UUID().uuidString).sqlite")
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try library.backup(to: file)
            let data = try Data(contentsOf: file)
            var headers = HTTPFields()
            headers[.contentType] = "application/vnd.sqlite3"
            headers[.contentDisposition] = "attachment; filename=\"arkivator-kopi.sqlite\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    static func settingsPage(_ library: Library, problem: String?, newToken: (token: String, row: APIToken)? = nil,
                             context: WebContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let t = context.language
        guard let session = context.session else { throw HTTPError(.unauthorized) }
        let csrf = HTML.csrfField(session)
        let destination = try library.setting(.destination) ?? ""
        let jobs = try library.uploadJobs()
        let states: [UploadJob.State: String] = [.queued: t.text("venter", "waiting"), .uploading: t.text("lastes opp", "uploading"),
                                                 .done: t.text("lastet opp", "uploaded"), .error: t.text("feilet", "failed")]
        let rows = jobs.suffix(100).reversed().map { job -> String in
            let retry = job.state == .error ? """
                <form method="post" action="/settings/queue/\(job.id)/retry" class="inline">\(csrf)
                <button type="submit">\(t.text("Prøv igjen", "Try again"))</button></form>
                """ : ""
            return "<li>\(HTML.escape(job.title)) <span class=\"badge\">\(states[job.state] ?? job.state.rawValue)</span>"
                + (job.lastError.map { " <span class=\"meta\">\(HTML.escape($0))</span>" } ?? "") + retry + "</li>"
        }.joined()
        let tokenRows = try library.apiTokens().map { token in
            """
            <li>\(HTML.escape(token.name)) <span class="meta">\(t.text("laget", "made")) \(HTML.escape(String(token.createdAt.prefix(10))))\
            \(token.lastUsed.map { ", " + t.text("sist brukt", "last used") + " " + HTML.escape(String($0.prefix(10))) } ?? "")</span>
            <form method="post" action="/settings/tokens/\(token.id)/revoke" class="inline">\(csrf)
            <button type="submit">\(t.text("Trekk tilbake", "Revoke"))</button></form></li>
            """
        }
        let tokens = tokenRows.isEmpty ? "" : "<ul>\(tokenRows.joined())</ul>"
        let llmOn = try library.isOn(.llmEnabled)
        let llmURL = try library.setting(.llmURL) ?? ""
        let remote = !llmURL.isEmpty && !["127.0.0.1", "localhost", "[::1]"].contains { llmURL.contains("//" + $0) }
        let privacy = remote ? "<p class=\"problem\">\(t.text("Språkmodellen er på en annen maskin (\(HTML.escape(llmURL))): når den er på, sendes brevteksten dit (fødselsnumre tas alltid bort først).", "The language model is on another machine (\(HTML.escape(llmURL))): when it is on, the letter text is sent there (national ID numbers are always removed first)."))</p>" : ""
        let body = """
            \(problem.map(HTML.problem) ?? "")
            <h2>\(t.text("Opplasting", "Upload"))</h2>
            <form method="post" action="/settings/destination">\(csrf)
            <p><label for="destination">\(t.text("Mål for nye dokumenter (folder:STI, webdav:URL eller rclone:REMOTE:STI; tomt = av)", "Where new documents go (folder:PATH, webdav:URL or rclone:REMOTE:PATH; empty = off)"))</label><br>
            <input id="destination" name="destination" value="\(HTML.escape(destination))" size="50"></p>
            <p><button type="submit">\(t.text("Lagre", "Save"))</button></p></form>
            <h3>\(t.text("Kø", "Queue"))</h3>
            \(jobs.isEmpty ? "<p>\(t.text("Køen er tom.", "The queue is empty."))</p>" : "<ol class=\"documents\">\(rows)</ol>")
            \(jobs.contains { $0.state == .error } ? "<form method=\"post\" action=\"/settings/queue/retry\">\(csrf)<button type=\"submit\">\(t.text("Prøv alle feilede igjen", "Try every failed one again"))</button></form>" : "")
            <h2>\(t.text("Språkmodell", "Language model"))</h2>
            \(privacy)
            <form method="post" action="/settings/llm">\(csrf)
            <p><label><input type="checkbox" name="enabled" value="true"\(llmOn ? " checked" : "")> \(t.text("Bruk språkmodellen etter reglene", "Use the language model after the rules"))</label></p>
            <p><button type="submit">\(t.text("Lagre", "Save"))</button></p></form>
            <h2>\(t.text("Enheter (API)", "Devices (API)"))</h2>
            \(newToken.map { made in "<p class=\"notice\" role=\"status\">\(t.text("Nøkkelen for «\(HTML.escape(made.row.name))» vises bare nå; kopier den til enheten:", "The token for “\(HTML.escape(made.row.name))” is shown only now; copy it to the device:")) <code>\(HTML.escape(made.token))</code></p>" } ?? "")
            <p class="meta">\(t.text("Skript og snarveier på mobilen bruker /api/v1 med «Authorization: Bearer NØKKEL».", "Scripts and phone shortcuts use /api/v1 with “Authorization: Bearer TOKEN”."))</p>
            \(tokens)
            <form method="post" action="/settings/tokens">\(csrf)
            <p><label for="token-name">\(t.text("Navn på enheten", "Device name"))</label><br><input id="token-name" name="name" maxlength="100" required>
            <button type="submit">\(t.text("Lag nøkkel", "Make a token"))</button></p></form>
            <h2>\(t.text("Sikkerhetskopi", "Backup"))</h2>
            <p><a href="/settings/backup">\(t.text("Last ned en kopi av biblioteket (database)", "Download a copy of the library (database)"))</a></p>
            <p><a href="/settings/export">\(t.text("Last ned alle brev som JSON (felter og tekst, fødselsnumre skjult)", "Download every letter as JSON (fields and text, national ID numbers hidden)"))</a>
            <span class="meta">\(t.text("Filene selv ligger i arkivmappen og lastes opp til målet over; «arkivator export» tar alt med.", "The files themselves are in the archive folder and uploaded to the destination above; `arkivator export` takes everything."))</span></p>
            """
        return HTML.page(t.text("Innstillinger", "Settings"), body: body, context: context, status: status)
    }
}
