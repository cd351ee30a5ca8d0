#!/usr/bin/env python
"""A move request's route through the project's modules, measured by running one (docs/layout.md).

    .venv/bin/python scripts/route.py [--opponent human|easy] [--all]

In one process, on a throw-away SQLite database: a signed-in player makes a move through the game page (an htmx
POST, as the board sends it) while ``sys.setprofile`` notes every call from one module of the project (games,
players, push, config) into another. Printed: the modules in the order the route first enters them, how many times
each is entered (a call into it from another module: coming back from a callee is not an entry), and the modules
entered more than once with where from. The route counts calls of a module's own functions, not of the methods of
the values it defines (a game row's ``is_finished``, a board's ``cell_name``: reading a value is not a stage of
the way); ``--methods`` counts those too. ``--all`` prints every entry in order.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("games", "players", "push", "config")


def module_of(filename: str) -> str | None:
    try:
        relative = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if relative.parts[0] not in PROJECT or relative.suffix != ".py":
        return None
    parts = list(relative.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="human", choices=("human", "easy"), help="who the mover plays")
    parser.add_argument("--all", action="store_true", help="print every entry in order")
    parser.add_argument("--methods", action="store_true", help="count calls of methods (values) too")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="ttt-route-")
    os.environ.update(DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{folder}/db.sqlite3",
                      DJANGO_SETTINGS_MODULE="config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from games.services import challenge_accept, challenge_create, game_create, move_play
    from players.models import Player

    call_command("migrate", verbosity=0)
    alice = Player.objects.create_user("alice", password="pw-route-1")
    bob = Player.objects.create_user("bob", password="pw-route-1")
    if args.opponent == "human":
        game = challenge_create(player=alice, variant="four", invitee=bob, side="X")
        challenge_accept(game=game, player=bob)
    else:
        game = game_create(player=alice, variant="four", opponent="easy", side="X")
    if args.opponent == "human":  # a game under way (the computer replies inside the warm-up request)
        move_play(game=game.pk, player=alice, move=0)
        move_play(game=game.pk, player=bob, move=5)
    client = Client()
    client.force_login(alice)
    url = f"/games/{game.pk}/move/"
    client.post(url, {"move": "10"}, HTTP_HX_REQUEST="true")  # warm: templates, caches, first queries
    from games.positions import game_position

    if args.opponent == "human":
        state = game_position(game.__class__.objects.get(pk=game.pk)).state
        move_play(game=game.pk, player=bob, move=state.legal_moves()[0])
    state = game_position(game.__class__.objects.get(pk=game.pk)).state
    move = str(state.legal_moves()[-1])

    entries: list[tuple[str, str, str]] = []  # (from module, into module, function)
    modules: dict[object, str | None] = {}

    def profile(frame, event, arg):  # noqa: ANN001, ANN202 - sys.setprofile's signature
        if event != "call":
            return
        code = frame.f_code
        into = modules.get(code)
        if into is None and code not in modules:
            into = modules[code] = module_of(code.co_filename)
        if into is None or (not args.methods and "." in code.co_qualname.replace(".<locals>.", "")):
            return
        caller = frame.f_back
        while caller is not None and module_of(caller.f_code.co_filename) is None:
            caller = caller.f_back  # through Django and the libraries to the project's caller, if any
        came_from = module_of(caller.f_code.co_filename) if caller is not None else "(outside)"
        if came_from != into:
            entries.append((came_from or "(outside)", into, code.co_name))

    sys.setprofile(profile)
    try:
        answer = client.post(url, {"move": move}, HTTP_HX_REQUEST="true")
    finally:
        sys.setprofile(None)
    print(f"POST {url} -> {answer.status_code} ({len(answer.content)} bytes), opponent {args.opponent}")
    counts = Counter(into for _, into, _ in entries)
    first: dict[str, int] = {}
    for index, (_, into, _) in enumerate(entries):
        first.setdefault(into, index)
    print(f"{len(counts)} modules entered, {len(entries)} entries in all:")
    for module in sorted(counts, key=first.__getitem__):
        print(f"  {counts[module]:>4}  {module}")
    again = {module for module, count in counts.items() if count > 1}
    sources: dict[str, Counter] = defaultdict(Counter)
    for came_from, into, function in entries:
        if into in again:
            sources[into][f"{came_from} -> {function}"] += 1
    if again:
        print("entered more than once, from:")
        for module in sorted(again, key=first.__getitem__):
            print(f"  {module}: " + ", ".join(f"{where} x{n}" for where, n in sources[module].most_common(6)))
    if args.all:
        for came_from, into, function in entries:
            print(f"  {came_from} -> {into}.{function}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
