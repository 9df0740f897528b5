"use strict";
// The timeline's view for printing: "Skriv ut" opens the browser's print dialog (without
// JavaScript the button stays hidden, and the browser's own Print prints the same page).
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll(".timeline-print-button")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
});
