// The game page's clocks (templates/games/game.html#clock). The server is the only clock: each clock element
// says how much time its side had left when the server drew it (data-ms), whether that time runs (data-running)
// and when it is low (data-low-ms). This script counts the running one down smoothly from the moment the element
// arrived; every htmx answer (a move, a live update) brings new elements, and so the server's figures again.
// The time for a first move under the board ([data-countdown]) is counted down the same way.
// When a running clock reaches zero the page asks the server at once (the live path: the #poll element listens
// for "live-game"), so that the end on time shows without waiting; the server decides, the page only asks.
// When the viewer's own clock ([data-own]) runs into its low time while the page is open, <body> hears
// "clock-low" once (attention.js sounds it); once more only after the clock was above it again (an increment).
// A clock already low when the page opens is not sounded: no sound on a page load.
// The ticking number is not read out (role="timer", aria-live="off"); the result is, by the status line.
(function () {
  "use strict";
  const TICK_MS = 100;
  const ASK_AGAIN_MS = 1500; // at zero, while the server has not answered with the end, ask again this often
  const ASK_AT_MOST = 6;
  const seen = new WeakMap(); // element -> {start: performance.now() when first seen, asked: n, lastAsk}
  const warned = new Map(); // "game:side" -> whether it is low and was sounded (or was low when first seen)

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  // The same words as games.pov.clock_text: "1:05:00", "2:59", "0:09.4" under ten seconds, "2d 3h" from a day on.
  function format(ms) {
    ms = Math.max(0, Math.floor(ms));
    if (ms >= 86400000) {
      return Math.floor(ms / 86400000) + "d " + Math.floor((ms % 86400000) / 3600000) + "h";
    }
    if (ms < 10000) {
      return "0:0" + Math.floor(ms / 1000) + "." + Math.floor((ms % 1000) / 100);
    }
    const seconds = Math.floor(ms / 1000);
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds % 60) : minutes + ":" + pad(seconds % 60);
  }

  function ask() {
    document.body.dispatchEvent(new CustomEvent("live-game", { detail: "clock" }));
  }

  function warnLow(el, low) {
    if (!el.hasAttribute("data-own")) {
      return;
    }
    const play = document.getElementById("play");
    const key = (play ? play.dataset.game : "") + ":" + el.dataset.side;
    if (!warned.has(key)) {
      warned.set(key, low); // first seen: low already means nothing to announce now
    } else if (!low) {
      warned.set(key, false);
    } else if (!warned.get(key)) {
      warned.set(key, true);
      document.body.dispatchEvent(new CustomEvent("clock-low", { detail: el.dataset.side }));
    }
  }

  function tick() {
    const now = performance.now();
    document.querySelectorAll("[data-clock][data-running], [data-countdown][data-running]").forEach(function (el) {
      let state = seen.get(el);
      if (!state) {
        state = { start: now, asked: 0, lastAsk: 0 };
        seen.set(el, state);
      }
      const left = Number(el.dataset.ms) - (now - state.start);
      const text = format(left);
      if (el.textContent !== text) {
        el.textContent = text;
      }
      const low = left < Number(el.dataset.lowMs || 10000);
      el.classList.toggle("clock-low", low);
      warnLow(el, low);
      if (left <= 0 && state.asked < ASK_AT_MOST && now - state.lastAsk >= ASK_AGAIN_MS) {
        state.asked += 1;
        state.lastAsk = now;
        el.dataset.flagged = "";
        ask();
      }
    });
  }

  setInterval(tick, TICK_MS);
  document.addEventListener("DOMContentLoaded", tick);
  // a swap brings the server's figures: show them counted from now at once, not a tick later
  document.addEventListener("htmx:afterSettle", tick);
})();
