"use strict";
// Small helps on every page: "Kopier tekst" and "Kopier" (shown only where the clipboard works),
// a notice that only confirms something steps back after a while (notices that carry an undo
// or a secret stay until the user moves on), and the filters unfolded on a wide screen.
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
});
