/* Every page's behaviour (base.html loads it in <head>, before the body, as the inline script it replaces):
 * htmx's error answers, late answers of a game dropped, the keyboard focus after a swap, a form's first error in
 * view, "Who may watch" kept in step with the form, and the data-* driven helpers below (no inline handlers):
 * - data-select-on-focus: an input whose whole text is selected when it takes the focus (a link to share);
 * - data-copy-from="<id>": a button that copies that element's text (an input's value) to the clipboard, and
 *   says data-copied-text on its face once done, when it has one;
 * - data-for-variant / data-for-opponent (the new game form): shown only for the chosen variant / opponents;
 *   data-variant-form: another form (quick pairing's) whose data-for-variant parts follow its variant. */
(function () {
  "use strict";
  // htmx does not swap 4xx answers by default. Ours carry a message retargeted (HX-Retarget)
  // into the page's error element: swap those; anything else shows a short notice instead.
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    // Keep django-htmx's DEBUG error page from replacing the document for these expected answers.
    var xhr = event.detail.xhr;
    if (xhr.status >= 400 && xhr.getResponseHeader("HX-Retarget")) event.stopPropagation();
  }, true);
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status < 400) return;
    if (xhr.getResponseHeader("HX-Retarget")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
      return;
    }
    var box = document.getElementById("game-error") || document.getElementById("flash");
    if (box) {
      box.textContent = xhr.status === 403
        ? "The request was refused (" + xhr.status + "). Reload the page and try again."
        : "Something went wrong (" + xhr.status + "). Reload the page and try again.";
    }
  });
  // A live poll and a move can cross: never let an older state (X-Game-Version) of the same game (X-Game)
  // replace a newer one. Play again brings another game's #play: its versions start afresh.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    var version = xhr.getResponseHeader("X-Game-Version");
    var play = document.getElementById("play");
    if (xhr.status < 400 && version && play && play.dataset.version &&
        xhr.getResponseHeader("X-Game") === play.dataset.game &&
        Number(version) < Number(play.dataset.version)) {
      event.detail.shouldSwap = false;
    }
  });
  // An answer whose asking element an earlier answer has replaced (a live poll crossing a move's answer) has
  // nowhere to go: its target is gone with it, and its out-of-band parts (#players, #announce) would be looked
  // for in the detached part (htmx:oobErrorNoTarget). It is dropped: the answer that replaced it is as new.
  // (htmx fires beforeOnLoad on the asking element itself, so the listener goes there, not on the document.)
  document.addEventListener("htmx:beforeSend", function (event) {
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    function dropIfGone(loaded) {
      if (loaded.detail.xhr !== xhr) return;
      elt.removeEventListener("htmx:beforeOnLoad", dropIfGone);
      if (!elt.isConnected) loaded.preventDefault();
    }
    elt.addEventListener("htmx:beforeOnLoad", dropIfGone);
  });
  // htmx gives the keyboard focus back to the control with the same id after a swap (a replay step, the lobby's
  // lists refreshing: their controls carry ids). When that control is gone (Older on the last page of My
  // games), the focus would drop to the top of the page: it goes to the swapped part instead. The game's board
  // keeps its own focus (board.js).
  var swappedFrom = null;  // the id of the part being swapped, when it held the focus
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var active = document.activeElement;
    swappedFrom = event.detail.shouldSwap && target && target.id && target.id !== "play" && active &&
      active !== document.body && target.contains(active) ? target.id : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var element = swappedFrom && document.getElementById(swappedFrom);
    swappedFrom = null;
    if (!element || (document.activeElement && document.activeElement !== document.body)) return;
    if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus();
  });
  // "Who may watch": the Default choice says what it comes to as the opponent and the invited player change
  // (private for a challenge to a named player, public otherwise), as the server says it on a form sent back.
  function sayDefaultVisibility(event) {
    var form = event.target.form;
    var select = form && form.querySelector("select[data-default-public]");
    if (!select) return;
    var opponent = form.querySelector('[name="opponent"]:checked, input[type="hidden"][name="opponent"]');
    var invite = form.querySelector('[name="invite"]');
    var named = opponent && opponent.value === "human" && invite && invite.value.trim() !== "";
    select.querySelector('option[value=""]').textContent = select.getAttribute(named ? "data-default-private" : "data-default-public");
  }
  // A form sent back with errors focuses its first field in error (the server marks it autofocus); the
  // browser scrolls only the input into view, which can leave the message under it off a phone's screen.
  // Called once the forms show only their variant's fields (syncAll, below): hiding them afterwards would move
  // the field in error out of view again.
  function showFieldInError() {
    var field = document.querySelector(".has-error [autofocus]");
    var box = field && field.closest(".has-error");
    if (!box) return;
    field.focus({ preventScroll: true });
    box.scrollIntoView({ block: "center" });
  }
  document.addEventListener("input", sayDefaultVisibility);
  document.addEventListener("change", sayDefaultVisibility);
  document.addEventListener("htmx:sendError", function () {
    var box = document.getElementById("game-error") || document.getElementById("flash");
    if (box) box.textContent = "The server cannot be reached. Check your connection and try again.";
  });

  document.addEventListener("focusin", function (event) {
    var input = event.target;
    if (input && input.hasAttribute && input.hasAttribute("data-select-on-focus")) input.select();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-from]");
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy-from"));
    if (!source) return;
    var text = "value" in source && typeof source.value === "string" ? source.value : source.textContent;
    if (source.select) source.select();
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText(text).then(function () {
      var done = button.getAttribute("data-copied-text");
      if (done) button.textContent = done;
    }, function () {});
  });

  // The new game form: only the options of the chosen variant (without JavaScript all are shown; the server
  // ignores the others); the invitation belongs to a game against another player, the strategy to one with a
  // computer seat.
  function syncNewGame() {
    var form = document.getElementById("new-game-form");
    if (!form) return;
    var select = form.querySelector('select[name="variant"]');
    if (select) {
      form.querySelectorAll("[data-for-variant]").forEach(function (row) {
        row.hidden = row.getAttribute("data-for-variant") !== select.value;
      });
    }
    var chosen = form.querySelector('input[name="opponent"]:checked');
    form.querySelectorAll("[data-for-opponent]").forEach(function (row) {
      row.hidden = !chosen || row.getAttribute("data-for-opponent").split(" ").indexOf(chosen.value) < 0;
    });
  }
  // Other forms with a variant and its options (quick pairing's, data-variant-form): the same, for the variant.
  function syncVariantForms() {
    document.querySelectorAll("form[data-variant-form]").forEach(function (form) {
      var select = form.querySelector('select[name="variant"]');
      if (!select) return;
      form.querySelectorAll("[data-for-variant]").forEach(function (row) {
        row.hidden = row.getAttribute("data-for-variant") !== select.value;
      });
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.form && event.target.form.id === "new-game-form") syncNewGame();
    if (event.target.form && event.target.form.hasAttribute("data-variant-form")) syncVariantForms();
  });
  document.addEventListener("htmx:afterSwap", syncVariantForms);  // a panel swapped back in with its form
  function syncAll() {
    syncNewGame();
    syncVariantForms();
    showFieldInError();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", syncAll);
  } else {
    syncAll();
  }
})();
