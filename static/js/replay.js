// The replay's keys, as its buttons: Left and Right step back and forward, Home and End go to the start
// and the end. Not while typing in a field, and not with a modifier (the browser's own shortcuts).
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "replay-back", ArrowRight: "replay-forward", Home: "replay-first", End: "replay-last" };

  document.addEventListener("keydown", function (event) {
    var id = KEYS[event.key];
    if (!id || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable]")) return;
    var control = document.getElementById(id);
    if (!control || control.tagName !== "A") return;  // a disabled control is a span: already there
    event.preventDefault();
    // Through htmx itself rather than a click: a link just swapped in may not be wired up yet, and a
    // plain click would then load the whole page.
    if (window.htmx) {
      window.htmx.ajax("GET", control.getAttribute("hx-get"), { target: "#replay", swap: "outerHTML" });
    } else {
      window.location.href = control.href;
    }
  });
})();

// The move list keeps the step shown in view: on phones it is a short scrolling box that opens at its
// latest moves, so an early step's row would be out of sight. Only the box scrolls, never the page.
(function () {
  "use strict";
  function showCurrentRow() {
    var row = document.querySelector("#replay .move-list tr.current");
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
