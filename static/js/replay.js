// The replay's keys, as its buttons: Left and Right step back and forward, Home and End go to the start
// and the end. Not while typing in a field, and not with a modifier (the browser's own shortcuts).
// Keys pressed faster than the answers come count from the step asked for, not from the one still shown
// (three quick Lefts from move 69 end on 66): one request at a time, and the next asks for the latest target.
(function () {
  "use strict";
  var target = null;  // the step asked for while an answer is on its way
  var busy = false;

  function shown() {
    var replay = document.getElementById("replay");
    if (!replay || !replay.dataset.url) return null;
    return { ply: Number(replay.dataset.ply), total: Number(replay.dataset.total), url: replay.dataset.url };
  }

  function fetchTarget() {
    var now = shown();
    if (!now || busy || target === null) return;
    if (target === now.ply) {
      target = null;
      return;
    }
    busy = true;
    window.htmx.ajax("GET", now.url + "?ply=" + target, { target: "#replay", swap: "outerHTML" });
  }

  function done() {
    if (!busy) return;
    busy = false;
    fetchTarget();
  }
  document.addEventListener("htmx:afterSettle", done);
  document.addEventListener("htmx:responseError", function () { busy = false; target = null; });
  document.addEventListener("htmx:sendError", function () { busy = false; target = null; });

  var STEPS = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var step = STEPS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable]")) return;
    var now = shown();
    if (!now) return;
    var from = target !== null ? target : now.ply;
    var to = step === "first" ? 0 : step === "last" ? now.total : Math.max(0, Math.min(now.total, from + step));
    event.preventDefault();
    if (to === from) return;  // already there (or on the way)
    if (!window.htmx) {
      window.location.href = now.url + "?ply=" + to;
      return;
    }
    target = to;
    fetchTarget();
  });
})();

// The move list keeps the step shown in view: on phones it is a short scrolling box that opens at its
// latest moves, so an early step's row would be out of sight. Only the box scrolls, never the page.
(function () {
  "use strict";
  function showCurrentRow() {
    var row = document.querySelector("#replay .move-list .current");
    var box = row && row.closest(".moves-scroll");
    if (!box) return;
    var head = box.querySelector("thead");
    var top = box.getBoundingClientRect().top + (head ? head.getBoundingClientRect().height : 0);
    var bottom = box.getBoundingClientRect().bottom;
    var rect = row.getBoundingClientRect();
    if (rect.top < top) box.scrollTop -= top - rect.top;
    else if (rect.bottom > bottom) box.scrollTop += rect.bottom - bottom;
  }
  document.addEventListener("DOMContentLoaded", showCurrentRow);
  document.addEventListener("htmx:afterSettle", showCurrentRow);
})();
