"use strict";
// «Forklar brevet»: once pressed, the button says the explanation is being made (the page
// without script shows the browser's own progress, then the answer); while the page says it is
// being made, the section is fetched again every few seconds and put in place once it is done.
document.addEventListener("DOMContentLoaded", () => {
  const wire = (section) => {
    for (const form of section.querySelectorAll("form.explain-ask")) {
      form.addEventListener("submit", () => {
        form.querySelector("button").disabled = true;
        const status = document.createElement("p");
        status.className = "explain-running";
        status.setAttribute("role", "status");
        status.textContent = form.dataset.status;
        form.after(status);
      });
    }
  };
  const section = document.getElementById("forklaring");
  if (!section) return;
  wire(section);
  if (!section.dataset.running) return;
  let tries = 0;
  const check = async () => {
    tries += 1;
    try {
      const answer = await fetch(window.location.pathname, { credentials: "same-origin" });
      if (answer.ok) {
        const page = new DOMParser().parseFromString(await answer.text(), "text/html");
        const fresh = page.getElementById("forklaring");
        if (fresh && !fresh.dataset.running) {
          const placed = document.importNode(fresh, true);
          section.replaceWith(placed);
          wire(placed);
          return;
        }
      }
    } catch (_) {
      // The server is busy or gone for a moment: the next try may reach it.
    }
    if (tries < 120) setTimeout(check, 5000);
  };
  setTimeout(check, 5000);
});
