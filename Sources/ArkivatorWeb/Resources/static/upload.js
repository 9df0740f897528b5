"use strict";
// The upload page: every chosen file is sent first, each page in its own request (with
// progress), and only when the whole batch has arrived is each letter handed to the inbox; so
// leaving the page half-way loses nothing that was said to be received. Leaving while files are
// still being sent asks first. Then each letter is followed until it is filed, and what was found
// (title, person, type, date, whether it waits for review) or why it failed is shown.
(function () {
  const form = document.getElementById("upload");
  if (!form) return;
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
  let sending = 0;
  window.addEventListener("beforeunload", (event) => {
    if (sending === 0) return;
    event.preventDefault();
    event.returnValue = "";
  });

  function send(method, url, body, onProgress) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open(method, url);
      request.setRequestHeader("X-CSRF-Token", token);
      if (onProgress) request.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      request.onload = () => {
        let answer = {};
        try { answer = JSON.parse(request.responseText); } catch (e) { answer = {}; }
        if (request.status >= 200 && request.status < 300) resolve(answer);
        else reject(new Error(answer.message || say("Opplastingen feilet. Prøv igjen.", "The upload failed. Try again.")));
      };
      request.onerror = () => reject(new Error(say("Fikk ikke kontakt med Arkivator. Sjekk nettet og prøv igjen.",
                                                   "Could not reach Arkivator. Check the network and try again.")));
      request.send(body);
    });
  }

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function row(name) {
    const item = element("li");
    item.append(element("strong", name), element("span", ": " + stages.open, "state"));
    list.appendChild(item);
    return item;
  }

  function state(item, text, problem) {
    const span = item.querySelector(".state");
    span.textContent = ": " + text;
    span.className = problem ? "state problem" : "state";
  }

  // What was found: the title as a link, then person, type and date, and review when it waits.
  function found(item, status) {
    const title = element("a", status.title || say("Åpne", "Open"));
    title.href = "/documents/" + status.document;
    const line = element("div", [status.person, status.typeLabel, status.date].filter(Boolean).join(" · "), "meta");
    state(item, stages[status.status] || status.status);
    item.append(" ", title, line);
    if (status.needsReview) {
      const review = element("a", say("til gjennomsyn", "to review"));
      review.href = "/review";
      const note = element("div", say("Noe var usikkert: ", "Something was uncertain: "), "meta");
      note.appendChild(review);
      item.appendChild(note);
    }
  }

  async function follow(id, item) {
    for (;;) {
      let status;
      try {
        status = await send("GET", "/api/v1/uploads/" + id);
      } catch (error) {
        await new Promise((r) => setTimeout(r, 3000));
        continue;
      }
      const final = ["done", "duplicate"].includes(status.status) || (status.status === "failed" && status.message);
      if (status.document && final) return found(item, status);
      state(item, (stages[status.status] || status.status) + (status.message ? " – " + status.message : ""),
            status.status === "failed");
      if (final) return;
      await new Promise((r) => setTimeout(r, 1500));
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const files = Array.from(document.getElementById("files").files);
    if (files.length === 0) return;
    const each = form.querySelector('input[name="grouping"]:checked').value === "each";
    const groups = each ? files.map((f) => [f]) : [files];
    form.reset();
    const received = [];
    sending += 1;
    try {
      // 1. Every file of the batch is sent before any letter is handed over.
      for (const group of groups) {
        const item = row(group.map((f) => f.name).join(", "));
        try {
          const upload = await send("POST", "/api/v1/uploads", null);
          for (let i = 0; i < group.length; i++) {
            await send("PUT", "/api/v1/uploads/" + upload.id + "/pages/" + (i + 1), group[i], (share) => {
              state(item, stages.open + " " + Math.round(((i + share) / group.length) * 100) + " %");
            });
          }
          received.push({ id: upload.id, item });
        } catch (error) {
          state(item, error.message, true);
        }
      }
      // 2. Then each is handed to the inbox: from here on nothing is lost if the page is left.
      for (const letter of received) {
        try {
          await send("POST", "/api/v1/uploads/" + letter.id + "/done", null);
          state(letter.item, stages.received);
          letter.handed = true;
        } catch (error) {
          state(letter.item, error.message, true);
        }
      }
    } finally {
      sending -= 1;
    }
    // 3. Followed until filed.
    await Promise.all(received.filter((l) => l.handed).map((l) => follow(l.id, l.item)));
  });
})();
