import ArkivatorCore
import ArkivatorLibrary
import HTTPTypes
import Hummingbird

/// Server-made HTML: every value goes through ``escape(_:)``; pages share one shell with the
/// stylesheet and no inline script or style (the Content-Security-Policy allows none).
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A whole page: header with the app's name and, when signed in, the main links and a sign-out button.
    static func page(_ title: String, body: String, context: WebContext, status: HTTPResponse.Status = .ok,
                     head: String = "") -> Response {
        let t = context.language
        var navigation = ""
        if let session = context.session {
            navigation = """
                <nav aria-label="\(t.text("Hovedmeny", "Main menu"))">
                <a href="/">\(t.text("Bibliotek", "Library"))</a>
                <a href="/upload">\(t.text("Last opp", "Upload"))</a>
                <a href="/review">\(t.text("Til gjennomsyn", "To review"))</a>
                <a href="/trash">\(t.text("Papirkurv", "Trash"))</a>
                <a href="/family">\(t.text("Familie", "Family"))</a>
                <a href="/settings">\(t.text("Innstillinger", "Settings"))</a>
                <form method="get" action="/search" role="search" class="inline">
                <label for="q" class="hidden">\(t.text("Søk", "Search"))</label>
                <input id="q" name="q" type="search" placeholder="\(t.text("Søk i brevene", "Search the letters"))">
                <button type="submit">\(t.text("Søk", "Search"))</button></form>
                <form method="post" action="/logout" class="inline">\(csrfField(session))
                <button type="submit">\(t.text("Logg ut", "Sign out"))</button></form>
                </nav>
                """
        }
        let html = """
            <!doctype html>
            <html lang="\(t.code)">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) · Arkivator</title><link rel="stylesheet" href="/static/app.css">
            <script src="/static/app.js" defer></script>
            \(context.session.map { "<meta name=\"csrf-token\" content=\"\(escape($0.csrf))\">" } ?? "")\(head)</head>
            <body><header><a class="brand" href="/">Arkivator</a>\(navigation)</header>
            <main id="main"><h1>\(escape(title))</h1>
            \(body)
            </main></body></html>
            """
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The hidden field every form posts back.
    static func csrfField(_ session: WebSession) -> String {
        "<input type=\"hidden\" name=\"_csrf\" value=\"\(escape(session.csrf))\">"
    }

    /// A paragraph saying what went wrong, announced to screen readers.
    static func problem(_ text: String) -> String {
        "<p class=\"problem\" role=\"alert\">\(escape(text))</p>"
    }
}
