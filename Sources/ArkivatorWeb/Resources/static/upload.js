"use strict";
// The upload page's sending. Every page in the tray (tray.js) is sent first, each in its own
// request (with progress), numbered in the order it was added; then the upload is handed over
// with the tray's order, which the server checks against the pages it got. «Hvert sitt brev»
// sends each page as an upload of its own, so one file refused stops no other. How far a send
// has come is kept in the browser (keep.js): a cut connection waits and goes on, and a reload
// goes on where it stopped, never sending an acknowledged page twice. Leaving the page while
// pages wait or are being sent asks first.
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
  const keep = window.arkivatorKeep;
  let sending = 0;
  // Where the browser keeps the tray, leaving loses nothing; elsewhere it asks first.
  window.addEventListener("beforeunload", (event) => {
    if (window.indexedDB || (sending === 0 && tray.pages().length === 0)) return;
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
        if (request.status >= 200 && request.status < 300) return resolve(answer);
        const refused = new Error(answer.message || say("Opplastingen feilet. Prøv igjen.", "The upload failed. Try again."));
        refused.status = request.status;
        reject(refused);
      };
      request.onerror = () => {
        const cut = new Error(say("Fikk ikke kontakt med Arkivator. Sjekk nettet og prøv igjen.",
                                  "Could not reach Arkivator. Check the network and try again."));
        cut.network = true;
        reject(cut);
      };
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
    // The day as the page's reader reads it: 01.12.2025 in Bokmål (the answer gives 2025-12-01).
    const day = status.date && norwegian ? status.date.replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$3.$2.$1") : status.date;
    const line = element("div", [status.person, status.typeLabel, day].filter(Boolean).join(" · "), "meta");
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

  // A request that the network cut is tried again once the browser is back online (a refusal
  // from the server is not); each try waits a little longer, and the row says it waits.
  async function patiently(attempt, item) {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!error.network || tries >= 60) throw error;
        if (item) state(item, say("venter på nett …", "waiting for the network …"));
        await new Promise((r) => setTimeout(r, Math.min(10000, 1000 * (tries + 1))));
        if (!navigator.onLine) await new Promise((r) => window.addEventListener("online", r, { once: true }));
      }
    }
  }

  // Sends `pages` (tray order) as one upload: each page once (the numbers in the order they were
  // added); a page the server acknowledged before a reload is not sent again. `record` is where
  // the send is kept (keep.js) under the first page's key.
  async function sendUpload(pages, grouping, item, record) {
    const number = new Map(pages.slice().sort((a, b) => a.key - b.key).map((page, i) => [page.key, i + 1]));
    const order = pages.map((page) => number.get(page.key));
    const mark = pages[0].key;
    let kept = record.uploads[mark];
    let restarted = false;
    for (;;) {
      if (!kept) {
        const upload = await patiently(() => send("POST", "/api/v1/uploads", null), item);
        kept = record.uploads[mark] = { id: upload.id, acknowledged: [] };
        if (keep) await keep.saveSend(record);
      }
      try {
        for (let i = 0; i < pages.length; i++) {
          const n = number.get(pages[i].key);
          if (kept.acknowledged.includes(n)) continue;
          try {
            await patiently(() => send("PUT", "/api/v1/uploads/" + kept.id + "/pages/" + n, pages[i].file, (share) => {
              state(item, stages.open + " " + Math.round(((pages.length > 1 ? i : 0) + share) / (pages.length > 1 ? pages.length : 1) * 100) + " %");
            }), item);
          } catch (error) {
            // The page refused is named by its place in the tray, to be retaken or deleted.
            if (pages.length > 1 && !error.network && error.status !== 404) {
              error.message = say("Side " + (i + 1) + ": ", "Page " + (i + 1) + ": ") + error.message;
            }
            throw error;
          }
          kept.acknowledged.push(n);
          if (keep) await keep.saveSend(record);
        }
        const answer = await patiently(() => send("POST", "/api/v1/uploads/" + kept.id + "/done",
                                                  JSON.stringify({ grouping, order }), null, "application/json"), item);
        return answer.letters || [kept.id];
      } catch (error) {
        // An upload the server no longer holds (left a day, or handed over already): start anew.
        if (error.status !== 404 || restarted) throw error;
        restarted = true;
        kept = null;
        delete record.uploads[mark];
      }
    }
  }

  async function sendTray(resuming) {
    if (sending) return;
    const batch = tray.pages();
    if (batch.length === 0) {
      if (!resuming) {
        tray.showProblem(say("Ta bilde eller velg minst én side først.", "Take a photo or choose at least one page first."));
        camera.focus();
      }
      return;
    }
    tray.showProblem("");
    const each = tray.each();
    const record = (keep && (await keep.loadSend())) || { uploads: {} };
    record.uploads = record.uploads || {};
    record.each = each;
    // The pages this send is for: after a reload it goes on only for these, never for pages added since.
    record.batch = batch.map((page) => page.key);
    if (keep) await keep.saveSend(record);
    sending += 1;
    submit.disabled = true;
    const followed = [];
    try {
      if (each) {
        // «Hvert sitt brev»: each page an upload of its own, judged on its own: one refused
        // (not a picture or PDF) stays in the tray with why, and the others go on.
        let refused = null;
        for (const page of batch) {
          const item = row(page.file.name);
          try {
            const letters = await sendUpload([page], "one", item, record);
            state(item, stages.received);
            tray.sent([page]);
            letters.forEach((id) => followed.push([id, item]));
          } catch (error) {
            state(item, error.message, true);
            refused = refused || page.file.name + ": " + error.message;
          }
        }
        if (refused) tray.showProblem(refused);
      } else {
        const item = batch.length === 1 ? row(batch[0].file.name)
          : row(say("Brev med " + batch.length + " sider", "Letter of " + batch.length + " pages"));
        try {
          const letters = await sendUpload(batch, "one", item, record);
          state(item, stages.received);
          tray.sent(batch);
          letters.forEach((id) => followed.push([id, item]));
        } catch (error) {
          // The pages stay in the tray, to be sent again; the page refused is named.
          state(item, error.message, true);
          tray.showProblem(error.message);
        }
      }
      if (keep && tray.pages().length === 0) await keep.clearSend();
    } finally {
      sending -= 1;
      submit.disabled = false;
    }
    // Followed until filed.
    await Promise.all(followed.map(([id, item]) => follow(id, item)));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sendTray(false);
  });

  // A send a reload (or a closed tab) cut off goes on by itself once the tray is back.
  if (keep) {
    tray.ready.then(() => keep.loadSend()).then((record) => {
      const pages = tray.pages();
      if (record && record.uploads && Object.keys(record.uploads).length > 0 && pages.length > 0
          && pages.every((page) => (record.batch || []).includes(page.key))) sendTray(true);
    });
  }
})();
