"""The reference bot (issue 33): a program that plays on a site through the bot API, with any of the engine's
strategies or a class of your own. ``python -m games.bot --url ... --token ... --strategy mcts``; docs/bots.md.

- ``client``: the bot API over HTTP (JSON requests, newline-delimited JSON streams), standard library only;
- ``runner``: the bot itself (answers challenges, plays every game it starts, several at once);
- ``__main__``: the command line, and how a strategy is named (an engine strategy, or a class by dotted path).

Like the engine, it imports nothing of Django: it runs wherever the code is, against any site.
"""
