import HTTPTypes
import Hummingbird

/// The stylesheet: readable on a phone and a desktop, dark when the system is, visible focus.
enum StaticFiles {
    static let css = """
        :root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fdfdfb; --muted: #555; --line: #d0d0cc;
                --accent: #0b5cad; --badge: #e8eef7; --problem: #a4000f; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #ececec; --bg: #161616; --muted: #b5b5b5; --line: #3a3a3a; --accent: #8cc4ff;
                  --badge: #23324a; --problem: #ff9a9a; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 17px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        header { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; padding: .75rem 1rem;
                 border-bottom: 1px solid var(--line); }
        header nav { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
        .brand { font-weight: 700; font-size: 1.2rem; }
        main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
        a { color: var(--accent); }
        a:focus, button:focus, input:focus, select:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
        input, select, button { font: inherit; padding: .4rem .6rem; border: 1px solid var(--line);
                                border-radius: .3rem; background: var(--bg); color: var(--fg); }
        button { cursor: pointer; background: var(--badge); }
        form.inline { display: inline-flex; gap: .4rem; align-items: center; margin: 0; }
        .hidden { position: absolute; left: -10000px; }
        .filters { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
        .filters label { display: flex; flex-direction: column; font-size: .9rem; color: var(--muted); }
        ol.documents { list-style: none; padding: 0; }
        ol.documents li { padding: .6rem 0; border-bottom: 1px solid var(--line); }
        .badge { display: inline-block; padding: 0 .5rem; border-radius: 1rem; background: var(--badge); font-size: .85rem; }
        .meta { color: var(--muted); font-size: .9rem; }
        mark { background: #ffe58a; color: #1b1b1b; }
        dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
        dl.fields dt { color: var(--muted); }
        pre.text { white-space: pre-wrap; font: inherit; border: 1px solid var(--line); padding: 1rem; border-radius: .3rem; }
        .problem { color: var(--problem); font-weight: 600; }
        .pager { display: flex; gap: 1rem; margin-top: 1rem; }
        """

    static func stylesheet() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/css; charset=utf-8"
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: css)))
    }
}
