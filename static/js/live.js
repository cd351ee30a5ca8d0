// Server push for the open page (games/web/views/live.py): one EventSource per page, opened on
// <body data-live-url="...">. A notice only says what changed ("game 12", "the lobby", "your badges");
// the elements that show it listen for it and ask for their fragment as before:
//   live-game (detail: the game's id), live-lobby, live-me, live-arena (detail: the arena's id)
//                                                            (hx-trigger="live-game from:body")
//   live-open: everything asks once: the server said it could not replay what the page missed
//              (event "reload"), or the tab came back into view.
// Each notice carries the log's position (its SSE id); a page (re)connecting sends the last one it saw
// (Last-Event-ID, or ?since= with the position the page was rendered at: <body data-live-since>), and the
// server replays what it missed since, so that nothing falls between the render and the stream.
// While the stream is open, the elements' timed polls (data-poll) stand down; when it breaks, they take
// over again until it is back. A tab in the background polls only where the element says so
// (data-poll-hidden: one poll in ten), so that its title can still say "Your turn".
(function () {
  "use strict";
  const body = document.body;
  const url = body && body.dataset.liveUrl;
  let open = false;
  let hiddenTicks = 0;

  const echoes = new Map(); // name -> timer of the notice's echo

  // A notice is handed on at once, and once more a moment later: one that arrives while the element that
  // listens for it is being swapped (the move's own answer) or is still asking would otherwise be lost, and
  // the page would wait for the next change. An echo that finds nothing new costs a 204.
  let leaving = false; // the page is going away (a redirect to the next game): no more asks from it

  function fire(name, detail) {
    if (leaving) {
      return;
    }
    body.dispatchEvent(new CustomEvent(name, { detail: detail }));
    if (name === "live-open") {
      return;
    }
    clearTimeout(echoes.get(name));
    echoes.set(name, setTimeout(function () {
      echoes.delete(name);
      if (!leaving) {
        body.dispatchEvent(new CustomEvent(name, { detail: detail }));
      }
    }, 500));
  }

  // Timed polls: htmx's "every" trigger issues the request with no triggering event.
  let openTicks = 0;
  document.addEventListener("htmx:confirm", function (event) {
    const elt = event.detail.elt;
    if (!elt || !elt.hasAttribute("data-poll") || event.detail.triggeringEvent) {
      return;
    }
    if (open) {
      // pushed notices say when to ask; one tick in ten still asks, as a safety net
      openTicks += 1;
      if (openTicks % 10 !== 0) {
        event.preventDefault();
      }
    } else if (document.hidden) {
      hiddenTicks += 1;
      if (!elt.hasAttribute("data-poll-hidden") || hiddenTicks % 10 !== 0) {
        event.preventDefault();
      }
    }
  });

  window.addEventListener("pagehide", function () {
    leaving = true;
    echoes.forEach(function (timer) { clearTimeout(timer); });
    echoes.clear();
  });
  // Back from the browser's cache (Back): the page is live again.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      leaving = false;
    }
  });

  // Back in view: whatever changed meanwhile shows at once.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      fire("live-open");
    }
  });

  if (!url || !window.EventSource) {
    return; // no push: the timed polls do the work
  }
  let source = null;
  let listening = url;
  let seen = body.dataset.liveSince || ""; // the last position heard (or the page's own)

  function withSince(address) {
    const target = new URL(address, window.location.href);
    if (seen) {
      target.searchParams.set("since", seen);
    } else {
      target.searchParams.delete("since");
    }
    return target.pathname + target.search;
  }

  function connect(address) {
    if (source) {
      source.close();
    }
    open = false;
    listening = address;
    source = new EventSource(withSince(address));
    function heard(event) {
      if (event.lastEventId) {
        seen = event.lastEventId;
      }
    }
    source.addEventListener("open", function (event) {
      heard(event);
      open = true;
      document.documentElement.dataset.live = "on";
    });
    source.addEventListener("reload", function (event) {
      heard(event);
      fire("live-open");
    });
    source.addEventListener("game", function (event) {
      heard(event);
      fire("live-game", event.data);
    });
    source.addEventListener("lobby", function (event) {
      heard(event);
      fire("live-lobby");
    });
    source.addEventListener("me", function (event) {
      heard(event);
      fire("live-me");
    });
    source.addEventListener("arena", function (event) {
      heard(event);
      fire("live-arena", event.data);
    });
    source.addEventListener("error", function () {
      // EventSource reconnects by itself (the server said how soon); meanwhile the polls run again.
      open = false;
      document.documentElement.dataset.live = "off";
      if (source.readyState === EventSource.CLOSED && !leaving) {
        // Refused (a server holding all the streams it may: 503) or failed for good: EventSource gives up, so the
        // page tries again itself, after a while and not all pages at once; it polls meanwhile.
        const retry = Number(body.dataset.liveRetry || 30000);
        const address = listening;
        setTimeout(function () {
          if (listening === address && !leaving) {
            connect(address);
          }
        }, retry * (0.5 + Math.random()));
      }
    });
  }

  // "Play again" and "Rematch" swap another game into the page: listen to that one from then on.
  document.addEventListener("htmx:afterSettle", function () {
    const play = document.getElementById("play");
    if (!play || !play.dataset.game) {
      return;
    }
    const address = new URL(listening, window.location.href);
    if (address.searchParams.get("game") !== play.dataset.game) {
      address.searchParams.set("game", play.dataset.game);
      connect(address.pathname + address.search);
    }
  });

  connect(url);
})();
