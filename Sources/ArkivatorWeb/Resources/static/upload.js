"use strict";
// The upload page's sending. Every page in the tray (tray.js) is sent first, each in its own
// request (with progress), numbered in the order it was added; then the upload is handed over
// with the tray's order and the choice of one letter or each its own, which the server checks
// against the pages it got. Leaving the page while pages wait or are being sent asks first.
// Then each letter is followed until it is filed, and what was found (title, person, type,
// date, whether it waits for review) or why it failed is shown.
(function () {
  const form = document.getElementById("upload");
  const tray = window.arkivatorTray;
  if (!form || !tray) return;
  const camera = document.getElementById("camera");
  const submit = form.querySelector("button[type=submit]");
  const list = document.getElementById("progress");
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const norwegian = document.documentElement.lang === "nb";
  const say = (nb, en) => (norwegian ? nb : en);
  // The stages in words, as the page without script names them (strings.json, captureStage_…).
  const stages = JSON.parse(list.dataset.stages || "{}");
  let sending = 0;
  window.addEventListener("beforeunload", (event) => {
    if (sending === 0 && tray.pages().length === 0) return;
    event.preventDefault();
    event.returnValue = "";
  });

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function send(method, url, body, onProgress, type) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open(method, url);
      request.setRequestHeader("X-CSRF-Token", token);
      if (type) request.setRequestHeader("Content-Type", type);
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

  function row(name) {
    const item = element("li");
    item.append(element("strong", name), element("span", ": " + stages.open, "state"));
    list.appendChild(item);
    return item;
  }

  function state(item, text, isProblem) {
    const span = item.querySelector(".state");
    span.textContent = ": " + text;
    span.className = isProblem ? "state problem" : "state";
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
    if (sending) return;
    if (tray.pages().length === 0) {
      tray.showProblem(say("Ta bilde eller velg minst én side først.", "Take a photo or choose at least one page first."));
      camera.focus();
      return;
    }
    tray.showProblem("");
    const each = tray.each();
    const batch = tray.pages();
    // Pages are numbered in the order they were added; the tray's order goes with the hand-over.
    const number = new Map(batch.slice().sort((a, b) => a.key - b.key).map((page, i) => [page.key, i + 1]));
    const order = batch.map((page) => number.get(page.key));
    const rows = each || batch.length === 1 ? batch.map((page) => row(page.file.name))
      : [row(say("Brev med " + batch.length + " sider", "Letter of " + batch.length + " pages"))];
    sending += 1;
    submit.disabled = true;
    let letters = [];
    let failing = -1;
    try {
      // 1. Every page is sent before anything is handed over.
      const upload = await send("POST", "/api/v1/uploads", null);
      for (let i = 0; i < batch.length; i++) {
        failing = i;
        const item = rows.length > 1 ? rows[i] : rows[0];
        await send("PUT", "/api/v1/uploads/" + upload.id + "/pages/" + number.get(batch[i].key), batch[i].file, (share) => {
          const done = rows.length > 1 ? share : (i + share) / batch.length;
          state(item, stages.open + " " + Math.round(done * 100) + " %");
        });
      }
      failing = -1;
      // 2. Then handed over as one letter or each its own: from here on nothing is lost if the page is left.
      const answer = await send("POST", "/api/v1/uploads/" + upload.id + "/done",
                                JSON.stringify({ grouping: each ? "each" : "one", order }), null, "application/json");
      letters = answer.letters || [upload.id];
      rows.forEach((item) => state(item, stages.received));
      tray.sent(batch);
    } catch (error) {
      // The pages stay in the tray, to be sent again; a page refused is named, to be retaken or deleted.
      const page = failing >= 0 && batch.length > 1 ? say("Side " + (failing + 1) + ": ", "Page " + (failing + 1) + ": ") : "";
      rows.forEach((item, i) => state(item, rows.length > 1 && failing >= 0 && i !== failing
        ? say("ikke sendt", "not sent") : page + error.message, true));
      tray.showProblem(page + error.message);
    } finally {
      sending -= 1;
      submit.disabled = false;
    }
    // 3. Followed until filed.
    await Promise.all(letters.map((id, i) => follow(id, rows[Math.min(i, rows.length - 1)])));
  });
})();
