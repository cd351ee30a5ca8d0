// Getting a player's attention (base.html loads it for signed-in players; no inline script, all data-* driven):
// - Sounds (static/sounds/*.wav, made by scripts/make_sounds.py): "move" when a game's #play shows more moves
//   than before (the player's own or the opponent's), "end" when it turns finished, "challenge" when the
//   navigation's count of challenges for you, or the lobby's list of challenges, grows; "lowtime" when the
//   player's own clock runs low (clock.js says "clock-low"). Only after a change, never on a page load. <body data-sound="on|off"> is the player's setting (Player.sound); each sound played bumps
//   <body data-sound-count> and sets data-last-sound, so a test can tell that one was played.
// - The mute toggle ([data-sound-form], templates/players/_sound_toggle.html) posts the setting without leaving
//   the page, so it follows the player to every browser; without JavaScript the form posts and comes back.
// - Notifications: [data-notify-me] ("Notify me", game pages of a seated player) is shown where the browser can
//   notify and has not been told yes or no; the permission is asked only on its click, never on load. Once
//   granted, a background tab whose #play turns to data-your-turn shows a notification "Your turn".
// The tab's title ("Your turn · Game 12 · ...") is the server's: every #play answer carries it.
(function () {
  "use strict";
  const body = document.body;
  if (!body) {
    return;
  }

  // --- sounds -------------------------------------------------------------------------------------------
  function play(name) {
    if (body.dataset.sound !== "on") {
      return;
    }
    body.dataset.soundCount = String(Number(body.dataset.soundCount || 0) + 1);
    body.dataset.lastSound = name;
    try {
      const audio = new Audio((body.dataset.soundBase || "/static/sounds/") + name + ".wav");
      const started = audio.play();
      if (started && started.catch) {
        started.catch(function () {}); // a browser that wants a click first: silence, not an error
      }
    } catch (err) {
      // no audio at all: nothing to do
    }
  }

  function snapshot() {
    const board = document.getElementById("play");
    const badge = document.getElementById("challenge-count");
    return {
      game: board ? board.dataset.game : "",
      ply: board ? Number(board.dataset.ply || 0) : 0,
      finished: board ? board.dataset.gameStatus === "finished" : false,
      yourTurn: board ? board.hasAttribute("data-your-turn") : false,
      status: (document.getElementById("status") || {}).textContent || "",
      challenges: (badge ? parseInt(badge.textContent, 10) || 0 : 0) +
        document.querySelectorAll("#challenges-for-me [data-challenge], #open-challenges [data-challenge]").length,
    };
  }

  let before = snapshot();

  // the viewer's own clock ran into its low time (clock.js)
  body.addEventListener("clock-low", function () {
    play("lowtime");
  });

  document.addEventListener("htmx:afterSettle", function () {
    const now = snapshot();
    if (now.game && now.game === before.game) {
      if (now.finished && !before.finished) {
        play("end");
      } else if (now.ply > before.ply) {
        play("move");
      }
      if (now.yourTurn && !before.yourTurn) {
        notifyTurn(now);
      }
    }
    if (now.challenges > before.challenges) {
      play("challenge");
    }
    before = now;
  });

  // --- the mute toggle ----------------------------------------------------------------------------------
  function showSetting(on) {
    body.dataset.sound = on ? "on" : "off";
    document.querySelectorAll("[data-sound-form]").forEach(function (form) {
      form.querySelector('input[name="sound"]').value = on ? "off" : "on"; // what the next click asks for
      form.querySelector("[data-sound-toggle]").setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  document.addEventListener("submit", function (event) {
    const form = event.target.closest && event.target.closest("[data-sound-form]");
    if (!form || !window.fetch) {
      return;
    }
    event.preventDefault();
    const wanted = form.querySelector('input[name="sound"]').value === "on";
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
    }).then(function (response) {
      if (response.ok) {
        showSetting(wanted);
      } else {
        form.submit(); // let the server say what is wrong, as without JavaScript
      }
    }).catch(function () {
      form.submit();
    });
  });

  // --- notifications ------------------------------------------------------------------------------------
  function canNotify() {
    return "Notification" in window;
  }

  function showNotifyButtons() {
    document.querySelectorAll("[data-notify-me]").forEach(function (button) {
      button.hidden = !canNotify() || Notification.permission !== "default";
    });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-notify-me]");
    if (!button || !canNotify()) {
      return;
    }
    const asked = Notification.requestPermission(function () {}); // old browsers answer by callback
    if (asked && asked.then) {
      asked.then(showNotifyButtons, showNotifyButtons);
    } else {
      showNotifyButtons();
    }
  });

  function notifyTurn(now) {
    if (!document.hidden || !canNotify() || Notification.permission !== "granted") {
      return;
    }
    try {
      const note = new Notification("Your turn", { body: now.status.trim(), tag: "game-" + now.game });
      note.onclick = function () {
        window.focus();
        note.close();
      };
      body.dataset.notified = String(Number(body.dataset.notified || 0) + 1);
    } catch (err) {
      // a browser that notifies only from a service worker: the title still says "Your turn"
    }
  }

  showNotifyButtons();
})();
