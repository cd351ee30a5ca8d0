// Premoves (the player's "Premove" preference, games with a clock: <div id="play" data-premove>). While the
// opponent thinks, the empty cells are not buttons (only cells playable now are); a click on one chooses it as the
// next move: it is ringed, and the note under the board says so. When the opponent's move arrives and the cell can
// still be played, it is played at once, as a click on its button would (board.js does not ask to confirm it);
// otherwise the premove is dropped and the note says why. A second click on the chosen cell cancels it.
// The server knows nothing of it: the move is an ordinary move, sent when it is this player's turn.
(function () {
  "use strict";
  let chosen = null; // {game, cell, name}

  function play() {
    return document.querySelector("#play[data-premove]");
  }

  function say(text) {
    const note = document.querySelector("#play .board-note");
    if (!note) {
      return;
    }
    let said = document.getElementById("premove-note");
    if (!said) {
      said = document.createElement("p");
      said.id = "premove-note";
      said.className = "hint-note";
      note.replaceChildren(said);
    }
    said.textContent = text;
  }

  function ring() {
    document.querySelectorAll("#board .premove").forEach(function (cell) { cell.classList.remove("premove"); });
    const box = play();
    if (!chosen || !box || box.dataset.game !== chosen.game) {
      return;
    }
    const cell = document.querySelector('#board [data-cell="' + chosen.cell + '"]');
    if (cell) {
      cell.classList.add("premove");
      say("Premove: " + chosen.name + ", played as soon as it is your turn. Click it again to cancel.");
    }
  }

  document.addEventListener("click", function (event) {
    const box = play();
    const cell = event.target.closest && event.target.closest('#board span[data-cell][data-mark=""]');
    if (!box || !cell || box.hasAttribute("data-your-turn")) {
      return;
    }
    const name = (cell.getAttribute("aria-label") || "").split(/[ ,(]/)[0] || cell.dataset.cell;
    if (chosen && chosen.game === box.dataset.game && chosen.cell === cell.dataset.cell) {
      chosen = null;
      ring();
      say("Premove cancelled.");
      return;
    }
    chosen = { game: box.dataset.game, cell: cell.dataset.cell, name: name };
    ring();
  });

  // After each answer: play the premove on this player's turn, or keep it ringed while the opponent thinks.
  document.addEventListener("htmx:afterSettle", function () {
    const box = document.getElementById("play");
    if (!chosen || !box || box.dataset.game !== chosen.game) {
      return;
    }
    if (!box.hasAttribute("data-premove")) { // the game is over
      chosen = null;
      return;
    }
    if (!box.hasAttribute("data-your-turn")) {
      ring();
      return;
    }
    const wanted = chosen;
    chosen = null;
    const button = document.querySelector('#board button[data-move="' + wanted.cell + '"]');
    if (!button) {
      say("Premove " + wanted.name + " could not be played there: it is your turn.");
      return;
    }
    button.setAttribute("data-premoved", "");
    button.click();
  });
})();
