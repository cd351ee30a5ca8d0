"""Arena tournaments' rules, as lichess plays its arenas: plain Python, no Django.

- ``scoring``: what a game is worth (win 2, draw 1, loss 0; "on fire" after two wins in a row: wins count double
  until a non-win; berserk: +1 for a win of at least ``BERSERK_MIN_MOVES`` of one's own moves);
- ``pairing``: whom a free player plays next (a free player close in the standings, never the same opponent twice
  in a row while another is free; at the start the standings are all 0, so neighbours by rating), and who takes X.

The one writer is ``games.services.arenas`` (joining, pairing, the end) with ``games.services.arena_scores`` (a game
of an arena has ended: its points).
"""

from __future__ import annotations

from datetime import timedelta

#: an arena lasts this many minutes at least and at most
MIN_MINUTES = 10
MAX_MINUTES = 120
#: an arena may be created to start at most this far ahead
MAX_STARTS_IN = timedelta(days=7)
#: a joined player whose page (or API client) has not asked about the arena for this long is not paired
PRESENCE = timedelta(seconds=30)
#: no new games in an arena's last moments: a game paired then could not be played, and would begin after the end
LAST_PAIRING = timedelta(seconds=2)
#: the standings' page size (the arena page and the API)
STANDINGS_PAGE = 20
#: an arena's password, at most this long
MAX_PASSWORD = 100
