"use strict";
// The sheet's outline on each page's photo as taken: four corner handles to drag (mouse, pen,
// touch) or move with the arrow keys (Shift: finer), "Drei 90°" to turn, and the numbers of the
// form kept in step, so "Bruk" sends what is shown. Without this script the form's numbers and
// turn can be typed in.
document.addEventListener("DOMContentLoaded", () => {
  const norwegian = document.documentElement.lang === "nb";
  for (const form of document.querySelectorAll("form.recrop")) {
    const width = Number(form.dataset.width), height = Number(form.dataset.height);
    const photo = form.querySelector(".recrop-photo");
    const polygon = form.querySelector("polygon");
    const handles = [...form.querySelectorAll(".handle")];
    const turnSelect = form.querySelector("select[name=turn]");
    const turnNow = form.querySelector(".turn-now");
    const turnButton = form.querySelector(".turn-button");
    if (!width || !height || handles.length !== 4) continue;
    const points = handles.map((handle) => [Number(handle.dataset.x), Number(handle.dataset.y)]);
    const field = (name) => form.querySelector(`input[name=${name}]`);

    const draw = () => {
      points.forEach(([x, y], index) => {
        const handle = handles[index];
        handle.style.left = `${(x / width) * 100}%`;
        handle.style.top = `${(y / height) * 100}%`;
        field(`x${index + 1}`).value = Math.round(x);
        field(`y${index + 1}`).value = Math.round(y);
      });
      polygon.setAttribute("points", points.map(([x, y]) => `${x},${y}`).join(" "));
    };
    const place = (index, x, y) => {
      points[index] = [Math.min(width, Math.max(0, x)), Math.min(height, Math.max(0, y))];
      draw();
    };

    // The handles show once the photo is there: a lazy photo not loaded yet has no size, and
    // the four would stand on top of each other.
    const image = photo.querySelector("img");
    const show = () => { for (const handle of handles) handle.hidden = false; };
    if (!image || (image.complete && image.naturalWidth)) show();
    else image.addEventListener("load", show, { once: true });
    handles.forEach((handle, index) => {
      handle.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        handle.setPointerCapture(event.pointerId);
        handle.focus();
      });
      handle.addEventListener("pointermove", (event) => {
        if (!handle.hasPointerCapture(event.pointerId)) return;
        const box = photo.getBoundingClientRect();
        place(index, ((event.clientX - box.left) / box.width) * width, ((event.clientY - box.top) / box.height) * height);
      });
      handle.addEventListener("keydown", (event) => {
        const step = Math.max(width, height) / (event.shiftKey ? 500 : 100);
        const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
        const move = moves[event.key];
        if (!move) return;
        event.preventDefault();
        place(index, points[index][0] + move[0], points[index][1] + move[1]);
      });
    });
    for (const [index] of points.entries()) {
      for (const axis of ["x", "y"]) {
        field(`${axis}${index + 1}`).addEventListener("change", (event) => {
          const value = Number(event.target.value);
          if (Number.isFinite(value)) {
            place(index, axis === "x" ? value : points[index][0], axis === "y" ? value : points[index][1]);
          }
        });
      }
    }
    turnButton.hidden = false;
    turnButton.addEventListener("click", () => {
      turnSelect.value = String((Number(turnSelect.value) + 90) % 360);
      turnNow.textContent = turnSelect.value;
    });
    turnSelect.addEventListener("change", () => { turnNow.textContent = turnSelect.value; });
    form.addEventListener("submit", (event) => {
      const button = event.submitter;
      // The page is read again on the server (a few seconds): say so, and send it once.
      setTimeout(() => {
        for (const each of form.querySelectorAll("button")) each.disabled = true;
        if (button) button.textContent = norwegian ? "Leser siden på nytt …" : "Reading the page again …";
      }, 0);
    });
    draw();
  }
});
