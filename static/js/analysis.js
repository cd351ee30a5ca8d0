// The analysis board (templates/games/analysis.html): the computer's best move, once its words arrive in #best
// (<p id="best-move" data-move="...">), is ringed on the board too. A move played on the board swaps the whole
// #analysis, #best with it, so a ring never outlives its position.
(function () {
  "use strict";
  function ringBest() {
    document.querySelectorAll("#board .best").forEach(function (cell) { cell.classList.remove("best"); });
    const best = document.querySelector("#best-move[data-move]");
    const cell = best && document.querySelector('#board [data-cell="' + best.dataset.move + '"]');
    if (cell) {
      cell.classList.add("best");
    }
  }
  document.addEventListener("htmx:afterSettle", ringBest);
  document.addEventListener("DOMContentLoaded", ringBest);
})();
