"""The game pages' views, a module per screen family; thin: parse the request, call a service, render the view.

- ``play``: the game page, a move, the computer's move, the live poll, resigning;
- ``offers``: draws, rematches, claiming the win, Play again;
- ``assists``: takebacks and hints;
- ``challenges``: accepting, cancelling, declining;
- ``replay``: the replay with its analysis, and Play on;
- ``history``: My games with the lobby, and the live parts' polls;
- ``pages``: a new game, the rules, the leaderboard;
- ``analysis``: the analysis board (any position, the computer's best move);
- ``records``: game records out and in;
- ``arenas``: arena tournaments (the lists, an arena's page, joining, withdrawing, the ping, Berserk);
- ``puzzles``: puzzles (the boards, missed wins, the next puzzle, a puzzle's try: moves and hints);
- ``live``: server push (Server-Sent Events) for open pages.
"""
