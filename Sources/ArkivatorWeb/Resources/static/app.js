"use strict";
// Small helps on every page: "Kopier tekst" and "Kopier" (shown only where the clipboard works),
// a notice that only confirms something steps back after a while (notices that carry an undo
// or a secret stay until the user moves on), and the filters unfolded on a wide screen.
// The service worker (sw.js): the app installs, opens the tray without a network, and takes
// files from the phone's share sheet.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
document.addEventListener("DOMContentLoaded", () => {
  const norwegian = document.documentElement.lang === "nb";
  for (const button of document.querySelectorAll("#copy, .copy-token")) {
    if (!navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      const text = document.getElementById(button.dataset.target).textContent;
      await navigator.clipboard.writeText(text);
      button.textContent = norwegian ? "Kopiert" : "Copied";
    });
  }
  for (const notice of document.querySelectorAll(".notice.fades")) {
    setTimeout(() => { notice.hidden = true; }, 5000);
  }
  // Folded on a narrow screen unless filters are set (the page then comes unfolded), also when
  // the screen turns.
  const folds = [...document.querySelectorAll("details.filters-fold")].map(fold => [fold, fold.open]);
  const wide = window.matchMedia("(min-width: 40rem)");
  const fit = () => { for (const [fold, set] of folds) fold.open = wide.matches || set; };
  if (wide.matches) fit();
  wide.addEventListener("change", fit);
  // Many letters at once: how many are ticked, and «Velg alle på siden» without a new page.
  const many = document.querySelector("form.many");
  if (many) {
    const picks = [...document.querySelectorAll("input.pick")];
    const count = many.querySelector(".many-count");
    const tools = many.querySelector("details");
    const show = () => {
      const ticked = picks.filter(box => box.checked).length;
      count.textContent = ticked ? (norwegian ? `(${ticked} valgt)` : `(${ticked} chosen)`) : "";
      if (ticked) tools.open = true;
    };
    for (const box of picks) box.addEventListener("change", show);
    const all = many.querySelector("[data-select-all]");
    all.addEventListener("click", event => {
      event.preventDefault();
      const every = picks.some(box => !box.checked);
      for (const box of picks) box.checked = every;
      all.textContent = every ? (norwegian ? "Velg ingen" : "Choose none") : (norwegian ? "Velg alle på siden" : "Choose all on the page");
      show();
    });
    show();
  }
});
