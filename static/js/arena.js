// Arena pages (templates/games/arena.html, arenas.html): counts down each [data-countdown] element from its
// data-ms (the time left when the server drew it) and, when one reaches zero, tells the page ("arena-tick" on
// <body>), whose live part asks the server again: the arena has started, or ended. The server decides; the page
// only asks. Driven by data-* only (no inline scripts: the Content-Security-Policy).
(function () {
  "use strict";
  const seen = new WeakMap(); // element -> {start, fired}

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function format(ms) {
    const seconds = Math.max(0, Math.ceil(ms / 1000));
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds % 60) : minutes + ":" + pad(seconds % 60);
  }

  function tick() {
    const now = performance.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      let state = seen.get(el);
      if (!state) {
        state = { start: now, fired: false };
        seen.set(el, state);
      }
      const left = Number(el.dataset.ms) - (now - state.start);
      const text = format(left);
      if (el.textContent !== text) {
        el.textContent = text;
      }
      if (left <= 0 && !state.fired) {
        state.fired = true;
        // a moment after zero, so that the server's clock has passed it too
        setTimeout(function () {
          document.body.dispatchEvent(new CustomEvent("arena-tick"));
        }, 700);
      }
    });
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();
