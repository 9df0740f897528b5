"use strict";
// The upload page's tray. Pages taken with the camera or chosen from the phone's pictures and
// files wait here first, as small pictures made in the browser: they can be put in another
// order (dragged by their picture, or moved with the buttons, which say aloud where the page
// went), deleted, taken again, and more can be added. Every change is kept in the browser's own
// store (keep.js) until the server has the pages: a reload finds the tray as it was. Nothing is
// sent from here: upload.js asks `window.arkivatorTray` for the pages in order when "Send" is
// pressed. Without scripts the form's own file fields send the chosen files as they are.
(function () {
  const form = document.getElementById("upload");
  if (!form) return;
  const camera = document.getElementById("camera");
  const chooser = document.getElementById("files");
  const tray = document.getElementById("tray");
  const trayList = document.getElementById("tray-pages");
  const said = document.getElementById("tray-said");
  const problem = document.getElementById("upload-problem");
  const grouping = form.querySelector("fieldset.grouping");
  const submit = form.querySelector("button[type=submit]");
  const norwegian = document.documentElement.lang === "nb";
  const say = (nb, en) => (norwegian ? nb : en);
  form.classList.add("tray-on");

  // The pages in the order they will have, each { key, file, thumb }; key counts up as pages are added.
  let pages = [];
  let added = 0;
  const each = () => form.querySelector('input[name="grouping"]:checked').value === "each";

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function announce(text) {
    said.textContent = "";
    window.setTimeout(() => { said.textContent = text; }, 50);
  }

  function showProblem(text) {
    problem.textContent = text || "";
    problem.hidden = !text;
  }

  const isPDF = (file) => file.type === "application/pdf" || /\.pdf$/i.test(file.name);

  // A small picture of the page, drawn on a canvas so that a large photo is not kept whole
  // (one at a time, decoded at a reduced size where the browser can); a PDF, or a photo this
  // browser cannot draw (HEIC in most), gets a labelled tile instead.
  let drawing = Promise.resolve();
  function thumbnail(page) {
    if (isPDF(page.file) || !window.createImageBitmap) return;
    page.loading = true;
    drawing = drawing.then(() => draw(page));
  }

  async function draw(page) {
    try {
      if (!pages.includes(page)) return;
      // Decoded at a reduced size; where that fails (it now and then does for a large page),
      // decoded whole once more before the page gets a labelled tile.
      const bitmap = await createImageBitmap(page.file, { resizeWidth: 480, resizeQuality: "medium" })
        .catch(() => createImageBitmap(page.file));
      const scale = Math.min(1, 240 / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      // A data: address (the page's policy allows no blob: pictures): a few kB for this size.
      page.thumb = canvas.toDataURL("image/jpeg", 0.8);
    } catch (error) {
      // Not drawable here: a labelled tile instead; the server reads the file itself.
    }
    page.loading = false;
    const tile = trayList.querySelector('li[data-key="' + page.key + '"] .thumb');
    if (tile) tile.replaceChildren(picture(page));
  }

  function picture(page) {
    if (page.thumb) {
      const image = element("img");
      image.src = page.thumb;
      image.alt = "";
      return image;
    }
    if (page.loading) return element("span", null, "thumb-placeholder");
    const label = isPDF(page.file) ? "PDF" : (/\.hei[cf]$/i.test(page.file.name) || /hei[cf]/i.test(page.file.type) ? "HEIC"
      : say("Bilde", "Image"));
    return element("span", label, "thumb-placeholder");
  }

  function forget(page) {
    page.thumb = null;
  }

  // The tray as it stands, kept in the browser until the server has it.
  const keep = window.arkivatorKeep;
  function save() {
    if (keep) keep.savePages(pages);
  }

  function add(fileList) {
    const chosen = Array.from(fileList || []);
    if (chosen.length === 0) return;
    for (const file of chosen) {
      const page = { key: ++added, file };
      pages.push(page);
      thumbnail(page);
    }
    showProblem("");
    render();
    announce(chosen.length === 1 ? say("Side " + pages.length + " er lagt til.", "Page " + pages.length + " added.")
      : say(chosen.length + " sider er lagt til. " + pages.length + " sider i alt.",
            chosen.length + " pages added. " + pages.length + " pages in all."));
  }

  // Draws the tray anew; `focus` names a control to give the focus back to ({ key, action }).
  function render(focus) {
    const active = document.activeElement;
    if (!focus && active && active.dataset && active.dataset.action && trayList.contains(active)) {
      focus = { key: active.closest("li").dataset.key, action: active.dataset.action };
    }
    tray.hidden = pages.length === 0;
    grouping.hidden = pages.length < 2;
    if (restored) save();
    trayList.replaceChildren();
    pages.forEach((page, index) => {
      const item = element("li", null, "tray-page");
      item.dataset.key = page.key;
      const handle = element("div", null, "thumb");
      handle.title = say("Dra for å flytte", "Drag to move");
      handle.appendChild(picture(page));
      handle.addEventListener("pointerdown", (event) => drag(event, item));
      const info = element("div", null, "tray-info");
      info.append(element("strong", say("Side ", "Page ") + (index + 1)), element("span", page.file.name, "meta"));
      const actions = element("div", null, "tray-actions");
      const which = say(" (side " + (index + 1) + ")", " (page " + (index + 1) + ")");
      const button = (text, action, handler, disabled) => {
        const control = element("button", text, action);
        control.type = "button";
        control.dataset.action = action;
        control.appendChild(element("span", which, "hidden"));
        control.disabled = disabled;
        control.addEventListener("click", handler);
        actions.appendChild(control);
        return control;
      };
      button(say("Flytt opp", "Move up"), "up", () => move(page, -1), index === 0);
      button(say("Flytt ned", "Move down"), "down", () => move(page, 1), index === pages.length - 1);
      const retake = element("span", null, "retake");
      const input = element("input");
      input.type = "file";
      input.accept = "image/*,application/pdf";
      input.setAttribute("capture", "environment");
      input.id = "retake-" + page.key;
      input.dataset.action = "retake";
      input.addEventListener("change", () => replace(page, input.files));
      const label = element("label", say("Ta på nytt", "Retake"));
      label.htmlFor = input.id;
      label.appendChild(element("span", which, "hidden"));
      retake.append(input, label);
      actions.appendChild(retake);
      button(say("Slett", "Delete"), "delete", () => remove(page), false).classList.add("danger");
      item.append(handle, info, actions);
      trayList.appendChild(item);
    });
    const count = pages.length;
    // Nothing to send yet: the two controls to add pages are the only large buttons.
    submit.parentElement.hidden = count === 0;
    submit.textContent = count === 0 ? say("Send", "Send")
      : count === 1 ? say("Send 1 side", "Send 1 page")
      : each() ? say("Send " + count + " brev", "Send " + count + " letters")
      : say("Send " + count + " sider som ett brev", "Send " + count + " pages as one letter");
    if (focus) {
      const target = trayList.querySelector('li[data-key="' + focus.key + '"] [data-action="' + focus.action + '"]');
      if (target && !target.disabled) target.focus();
      else if (target) target.parentElement.querySelector("button:not([disabled])").focus();
      else if (focus.fallback) focus.fallback.focus();
    }
  }

  function move(page, step) {
    const from = pages.indexOf(page), to = from + step;
    if (from < 0 || to < 0 || to >= pages.length) return;
    pages.splice(from, 1);
    pages.splice(to, 0, page);
    render({ key: page.key, action: step < 0 ? "up" : "down" });
    announce(say("Siden er flyttet til plass " + (to + 1) + " av " + pages.length + ".",
                 "The page moved to place " + (to + 1) + " of " + pages.length + "."));
  }

  function remove(page) {
    const index = pages.indexOf(page);
    if (index < 0) return;
    pages.splice(index, 1);
    forget(page);
    const next = pages[Math.min(index, pages.length - 1)];
    render(next ? { key: next.key, action: "delete" } : { fallback: camera });
    announce(say("Side " + (index + 1) + " er slettet. " + pages.length + " igjen.",
                 "Page " + (index + 1) + " deleted. " + pages.length + " left."));
  }

  function replace(page, fileList) {
    const file = fileList && fileList[0];
    const index = pages.indexOf(page);
    if (!file || index < 0) return;
    forget(page);
    const fresh = { key: ++added, file };
    pages[index] = fresh;
    thumbnail(fresh);
    render({ key: fresh.key, action: "retake" });
    announce(say("Side " + (index + 1) + " er byttet ut.", "Page " + (index + 1) + " replaced."));
  }

  // Dragging a page by its picture (finger or mouse): the page follows the pointer through the
  // list, and its new place is taken when it is let go.
  function drag(event, item) {
    if (event.button !== 0) return;
    event.preventDefault();
    // Followed on the whole document: the page moves in the list while it is dragged, which
    // would end a capture on its own element.
    const pointer = event.pointerId;
    item.classList.add("dragging");
    const onMove = (moved) => {
      if (moved.pointerId !== pointer) return;
      const under = document.elementFromPoint(moved.clientX, moved.clientY);
      const target = under && under.closest(".tray-page");
      if (!target || target === item || target.parentElement !== trayList) return;
      // Before the page under the pointer when over its first half (left half in a row of
      // pages, upper half in a column), after it otherwise: so the page does not jump to and fro.
      const box = target.getBoundingClientRect(), own = item.getBoundingClientRect();
      const sameRow = box.top < own.bottom && own.top < box.bottom;
      const before = sameRow ? moved.clientX < box.left + box.width / 2 : moved.clientY < box.top + box.height / 2;
      trayList.insertBefore(item, before ? target : target.nextSibling);
    };
    const onUp = (ended) => {
      if (ended.pointerId !== pointer) return;
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      document.removeEventListener("pointercancel", onUp);
      item.classList.remove("dragging");
      const byKey = new Map(pages.map((p) => [String(p.key), p]));
      const before = pages.indexOf(byKey.get(item.dataset.key));
      pages = Array.from(trayList.children).map((li) => byKey.get(li.dataset.key)).filter(Boolean);
      const after = pages.indexOf(byKey.get(item.dataset.key));
      render();
      if (before !== after) {
        announce(say("Siden er flyttet til plass " + (after + 1) + " av " + pages.length + ".",
                     "The page moved to place " + (after + 1) + " of " + pages.length + "."));
      }
    };
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onUp);
    document.addEventListener("pointercancel", onUp);
  }

  for (const input of [camera, chooser]) {
    input.addEventListener("change", () => {
      add(input.files);
      input.value = "";
    });
  }
  form.addEventListener("change", (event) => {
    if (event.target.name === "grouping") render();
  });

  // The pages kept from before a reload come back first, in their order; only then is the tray
  // saved again (an empty tray drawn before they are read must not erase them).
  let restored = false;
  const ready = (keep ? keep.loadPages() : Promise.resolve([])).then((rows) => {
    for (const row of rows || []) {
      const file = new File([row.blob], row.name, { type: row.type });
      const page = { key: row.key, file };
      added = Math.max(added, row.key);
      pages.push(page);
      thumbnail(page);
    }
    restored = true;
    render();
    if (pages.length > 0) {
      announce(pages.length === 1 ? say("1 side fra sist venter fortsatt i brettet.", "1 page from last time still waits in the tray.")
        : say(pages.length + " sider fra sist venter fortsatt i brettet.", pages.length + " pages from last time still wait in the tray."));
    }
  });

  window.arkivatorTray = {
    // The pages in the tray's order; whether each is to be a letter of its own; a problem to show.
    pages: () => pages.slice(),
    each,
    showProblem,
    // Settles when the pages kept from before a reload are back in the tray.
    ready,
    // The pages of `batch` were handed over: they leave the tray (and the browser's store).
    sent(batch) {
      batch.forEach(forget);
      pages = pages.filter((page) => !batch.includes(page));
      render();
    }
  };
  render();
})();
