/* Playing with the keyboard (and a finger). The playable cells are buttons, so Enter plays; this adds:
 * - the board is one Tab stop (a "roving tabindex"): Tab reaches one playable cell (the hint, or the one
 *   last used), the next Tab leaves the board for the buttons, even on a 15 x 15 board;
 * - arrow keys move between playable cells (the nearest one on screen in that direction, so occupied
 *   cells are skipped and nested boards need no special case);
 * - on a phone, a big board's small cells take two taps (mark, then play);
 * - after a move, a computer's reply or a live update swaps the board, the keyboard focus comes back
 *   to the same place on the board (the nearest playable cell; the status line once none is left)
 *   instead of falling back to the top of the page; after Hint, to the suggested cell. Mouse and touch
 *   users are left alone. A click that no pointer made (a screen reader's browse mode, voice or switch
 *   control: its event.detail is 0) counts as the keyboard.
 * - the player's "Confirm moves" preference (<body data-confirm-moves>): "touch" (the default) takes two taps on
 *   small cells on a touch screen only, "always" two clicks, taps or Enters for every move, "never" one;
 * - the move list keeps its newest move in view (its own box scrolls, never the page). */
(function () {
  "use strict";
  var keyboard = false;
  var pending = null;
  var lastSpot = null;
  var ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  var pointer = "mouse";
  document.addEventListener("keydown", function () {
    keyboard = true;
    pointer = "keyboard";  // Enter after a tap plays at once
  }, true);
  document.addEventListener("pointerdown", function (event) {
    keyboard = false;
    pointer = event.pointerType;
  }, true);
  document.addEventListener("click", function (event) {
    if (event.detail === 0) keyboard = true;
  }, true);

  // A finger on cells smaller than a fingertip (a 15 x 15 board on a phone): the first tap marks the cell,
  // a second tap on it plays, so that a near miss costs nothing. Mouse, pen and keyboard play at once, unless the
  // player asked for every move to be confirmed (or for none). A premove (premove.js) is never asked twice.
  var FINGERTIP = 32;  // CSS pixels
  function needsConfirming(button) {
    var wanted = document.body.dataset.confirmMoves || "touch";
    if (wanted === "never" || button.hasAttribute("data-premoved")) return false;
    if (wanted === "always") return true;
    return pointer === "touch" && button.getBoundingClientRect().width < FINGERTIP;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#board button[data-move]");
    if (!button || button.classList.contains("armed") || !needsConfirming(button)) return;
    event.preventDefault();  // no submit: the form's htmx request waits for the second tap
    document.querySelectorAll("#board button.armed").forEach(function (other) {
      other.classList.remove("armed");
      other.removeAttribute("aria-pressed");
    });
    button.classList.add("armed");
    button.setAttribute("aria-pressed", "true");
    // say what the second tap does, in the note line under the board (it never moves the board)
    var note = document.querySelector("#play .board-note");
    if (note) {
      var name = button.dataset.name || button.dataset.move;  // the cell name ("h8"), as the move list says it
      var said = document.getElementById("tap-again");
      if (!said) {
        said = document.createElement("p");
        said.id = "tap-again";
        said.className = "hint-note";
        note.replaceChildren(said);
      }
      var again = pointer === "touch" ? "Tap " + name + " again" : pointer === "keyboard" ? "Press Enter on " + name + " again" : "Click " + name + " again";
      said.textContent = again + " to play it.";
    }
  }, true);

  function center(el) {
    var r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  function playable() {
    return Array.prototype.slice.call(document.querySelectorAll("#board button[data-move]:not([disabled])"));
  }

  // The button nearest to `from` ({x, y}); only those ahead in direction (dx, dy) when one is given,
  // preferring the ones in line with it.
  function nearest(from, buttons, dx, dy, skip) {
    var best = null;
    var bestScore = Infinity;
    buttons.forEach(function (button) {
      if (button === skip) return;
      var c = center(button);
      var vx = c.x - from.x;
      var vy = c.y - from.y;
      var score;
      if (dx || dy) {
        var ahead = vx * dx + vy * dy;
        if (ahead < 1) return;
        score = ahead + 3 * Math.abs(vx * dy - vy * dx);
      } else {
        score = Math.hypot(vx, vy);
      }
      if (score < bestScore) {
        bestScore = score;
        best = button;
      }
    });
    return best;
  }

  // One playable cell takes part in the Tab order (tabindex 0), the others are reached by the arrows.
  function rove(current) {
    var buttons = playable();
    if (!buttons.length) return;
    if (buttons.indexOf(current) < 0) {
      current = document.querySelector("#board button[data-hint]") || nearest(lastSpot || center(buttons[0]), buttons, 0, 0, null);
    }
    buttons.forEach(function (button) { button.tabIndex = button === current ? 0 : -1; });
  }

  document.addEventListener("focusin", function (event) {
    var button = event.target.closest && event.target.closest("#board button[data-move]");
    if (button) {
      lastSpot = center(button);
      rove(button);
    }
  });
  function showNewest() {
    document.querySelectorAll("#play .moves-scroll").forEach(function (box) { box.scrollTop = box.scrollHeight; });
  }
  document.addEventListener("htmx:load", function () { rove(null); showNewest(); });
  document.addEventListener("DOMContentLoaded", showNewest);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { rove(null); });
  } else {
    rove(null);
  }

  document.addEventListener("keydown", function (event) {
    var direction = ARROWS[event.key];
    if (!direction || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var button = event.target.closest && event.target.closest("#board button[data-move]");
    if (!button) return;
    var next = nearest(center(button), playable(), direction[0], direction[1], button);
    event.preventDefault();  // no page scroll either way: the arrows belong to the board here
    if (next) next.focus();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var play = document.getElementById("play");
    var active = document.activeElement;
    if (!event.detail.shouldSwap || !keyboard || !play || !active || !play.contains(active)) return;
    var cell = active.closest("[data-cell]");
    if (cell) lastSpot = center(cell);
    // From the status line (a computer was thinking) back to where the player last was on the board.
    pending = lastSpot ? { x: lastSpot.x, y: lastSpot.y } : { first: true };
    pending.xhr = event.detail.xhr;  // settled by this answer's swap, not by an earlier one still settling
    pending.hint = active.id === "hint-button";
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!pending || event.detail.xhr !== pending.xhr) return;
    var was = pending;
    pending = null;
    var play = document.getElementById("play");
    if (play && play.contains(document.activeElement)) return;  // the swap left the focus where it was
    var buttons = playable();
    var target = null;
    if (buttons.length) {
      target = (was.hint && document.querySelector("#board button[data-hint]")) ||
        (was.first ? buttons[0] : nearest(was, buttons, 0, 0, null));
    } else {
      target = document.getElementById("status");
      if (target) target.setAttribute("tabindex", "-1");
    }
    if (target) target.focus();
  });
})();
