"""The JSON API under ``/api/`` (django-ninja): the same services as the web pages, as JSON.

One ``Router`` per concern, mounted by ``config/api.py``:

- ``catalogue``: variants and strategies (public), who you are, the leaderboard;
- ``games``: your games, starting one, reading one, resigning, again, play on;
- ``moves``: a move (by number or cell name) and the computer's move;
- ``offers``: draws, rematches, claiming the win;
- ``challenges``: the lobby, accepting, cancelling, declining;
- ``assists``: hints, takebacks, analysis;
- ``bots``: an account becoming a bot, a bot's moves and other actions in its games;
- ``streams``: the bot API's streams (newline-delimited JSON): an account's events, a game's changes, with
  ``feeds`` (what each line says).

Beside them: ``auth`` (personal token or session), ``schemas`` (the shapes, also the OpenAPI document),
``answers`` (loading the caller's game, a game as JSON from their point of view) and ``errors`` (every
refusal as JSON, from ``games.edge.http_errors``). The API builds on the services, the selectors and ``games.pov``;
it never imports the web. The reference is ``docs/api.md``.
"""
