"""Arena pairing (games.arena.pairing): neighbours in the standings, no rematch in a row while another is free."""

from __future__ import annotations

from games.arena.pairing import Entrant, pair, sides


def ids(pairs):
    return [tuple(sorted((x.id, o.id))) for x, o in pairs]


def test_the_first_round_pairs_neighbours_by_rating():
    free = [Entrant(id=i, score=0, rating=r, joined=i) for i, r in enumerate([1500, 1900, 1300, 1850, 1520, 1310])]
    assert sorted(ids(pair(free))) == sorted([(1, 3), (0, 4), (2, 5)])


def test_later_rounds_pair_by_score_then_rating():
    free = [Entrant(1, 10, 1500), Entrant(2, 0, 2000), Entrant(3, 8, 1400), Entrant(4, 1, 1000)]
    assert ids(pair(free)) == [(1, 3), (2, 4)]


def test_never_the_same_opponent_twice_in_a_row_while_another_is_free():
    a, b, c = Entrant(1, 4, 1500, last_opponent=2), Entrant(2, 4, 1490, last_opponent=1), Entrant(3, 0, 1400)
    assert ids(pair([a, b, c])) == [(1, 3)]  # b waits for the next one
    assert ids(pair([a, b])) == [(1, 2)]  # but two alone play again rather than wait


def test_a_player_is_in_one_pair_at_most_and_an_odd_one_waits():
    free = [Entrant(i, i % 3, 1500 + i) for i in range(1, 12)]
    pairs = pair(free)
    seen = [p for pair_ in ids(pairs) for p in pair_]
    assert len(pairs) == 5 and len(seen) == len(set(seen))


def test_sides_balance_who_had_x():
    had_x, had_o = Entrant(1, 0, 1500, xs=2, os=1), Entrant(2, 0, 1400, xs=1, os=2)
    x, o = sides(had_x, had_o)
    assert (x.id, o.id) == (2, 1)
    fresh_high, fresh_low = Entrant(1, 0, 1500), Entrant(2, 0, 1400)
    assert sides(fresh_high, fresh_low)[0].id == 1
