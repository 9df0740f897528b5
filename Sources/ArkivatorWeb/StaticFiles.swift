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
        .notice { padding: .6rem 1rem; border: 1px solid var(--line); border-radius: .3rem; background: var(--badge); }
        mark.low { background: #ffd0a8; }
        .pages img { max-width: 100%; height: auto; border: 1px solid var(--line); }
        details { margin: 1rem 0; }
        @media (min-width: 60rem) {
          main:has(.review) { max-width: 90rem; }
          .review { display: grid; grid-template-columns: 24rem 1fr; gap: 2rem; align-items: start; } }
        h1 { font-size: clamp(1.3rem, 4.5vw, 2rem); overflow-wrap: anywhere; }
        img { max-width: 100%; height: auto; }
        input, select { max-width: 100%; }
        pre.text { overflow-wrap: anywhere; }
        dl.fields dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
        main { overflow-wrap: break-word; }
        table { border-collapse: collapse; width: 100%; }
        td details { margin: 0 0 .4rem; }
        .notice { margin-bottom: 1rem; }
        /* A phone: the menu in less room, and a table's rows as small cards with their labels. */
        @media (max-width: 40rem) {
          header { gap: .4rem; padding: .5rem .75rem; }
          header nav { gap: .3rem .9rem; }
          header form[role=search] input { width: 10rem; }
          table, tbody, tr, td { display: block; }
          thead { position: absolute; left: -10000px; }
          tr { padding: .5rem 0; border-bottom: 1px solid var(--line); }
          td { border: 0; padding: .15rem 0; }
          td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); } }
        th, td { text-align: left; padding: .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        """

    /// One of the files above, cached for an hour (they change only with the program).
    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type + "; charset=utf-8"
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension StaticFiles {
    /// The upload page's script: each chosen file is sent as one page (with progress), the
    /// upload is handed to the inbox, and its way through the stages is shown until it is filed.
    static let uploadScript = """
        "use strict";
        (function () {
          const form = document.getElementById("upload");
          const list = document.getElementById("progress");
          const token = document.querySelector('meta[name="csrf-token"]').content;
          const norwegian = document.documentElement.lang === "nb";
          const say = (nb, en) => (norwegian ? nb : en);
          const stages = {
            open: say("sender", "sending"), received: say("mottatt", "received"), recognised: say("lest", "read"),
            classified: say("klassifisert", "classified"), written: say("skrevet", "written"),
            indexed: say("arkivert", "filed"), done: say("arkivert", "filed"),
            duplicate: say("fantes fra før", "already in the library"), failed: say("feilet", "failed")
          };
          function send(method, url, body, onProgress) {
            return new Promise((resolve, reject) => {
              const request = new XMLHttpRequest();
              request.open(method, url);
              request.setRequestHeader("X-CSRF-Token", token);
              if (onProgress) request.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
              request.onload = () => {
                let answer = {};
                try { answer = JSON.parse(request.responseText); } catch (e) {}
                if (request.status >= 200 && request.status < 300) resolve(answer);
                else reject(new Error(answer.message || say("Opplastingen feilet.", "The upload failed.")));
              };
              request.onerror = () => reject(new Error(say("Ingen forbindelse med Arkivator.", "No connection to Arkivator.")));
              request.send(body);
            });
          }
          function row(name) {
            const item = document.createElement("li");
            item.textContent = name + ": " + stages.open;
            list.appendChild(item);
            return item;
          }
          async function follow(id, item, name) {
            for (;;) {
              const status = await send("GET", "/api/v1/uploads/" + id);
              const label = stages[status.status] || status.status;
              item.textContent = name + ": " + label + (status.message ? " – " + status.message : "");
              if (status.document) {
                const link = document.createElement("a");
                link.href = "/documents/" + status.document;
                link.textContent = " " + say("Åpne", "Open");
                item.appendChild(link);
              }
              if (["done", "duplicate", "failed"].includes(status.status) && !(status.status === "failed" && !status.message)) return;
              await new Promise((r) => setTimeout(r, 1500));
            }
          }
          async function upload(files) {
            const name = files.map((f) => f.name).join(", ");
            const item = row(name);
            try {
              const upload = await send("POST", "/api/v1/uploads", null);
              for (let i = 0; i < files.length; i++) {
                await send("PUT", "/api/v1/uploads/" + upload.id + "/pages/" + (i + 1), files[i], (share) => {
                  item.textContent = name + ": " + stages.open + " " + Math.round(((i + share) / files.length) * 100) + " %";
                });
              }
              await send("POST", "/api/v1/uploads/" + upload.id + "/done", null);
              await follow(upload.id, item, name);
            } catch (error) {
              item.textContent = name + ": " + error.message;
              item.className = "problem";
            }
          }
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            const files = Array.from(document.getElementById("files").files);
            if (files.length === 0) return;
            const each = form.querySelector('input[name="grouping"]:checked').value === "each";
            const groups = each ? files.map((f) => [f]) : [files];
            form.reset();
            for (const group of groups) await upload(group);
          });
        })();
        """
}

extension StaticFiles {
    /// Small helps on every page: the "Kopier tekst" button (shown only where the clipboard
    /// works), and the undo notice that steps back after five seconds.
    static let appScript = """
        "use strict";
        document.addEventListener("DOMContentLoaded", () => {
          const copy = document.getElementById("copy");
          if (copy && navigator.clipboard) {
            copy.hidden = false;
            copy.addEventListener("click", async () => {
              const text = document.getElementById(copy.dataset.target).textContent;
              await navigator.clipboard.writeText(text);
              copy.textContent = document.documentElement.lang === "nb" ? "Kopiert" : "Copied";
            });
          }
          const notice = document.querySelector(".notice[role=status]");
          if (notice) setTimeout(() => { notice.hidden = true; }, 5000);
        });
        """
}
