"""Random games of every variant and option: record -> text -> record, and position strings at every ply."""

from __future__ import annotations

import itertools
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    PositionError,
    RecordError,
    clean_tag_value,
    get_variant,
    parse_position,
    position_string,
    read_record,
    read_records,
    result_token,
    tag_value_problem,
    write_record,
)
from games.engine.records import RESERVED_TAGS

CHOICES = [
    ("classic", {}), ("four", {}),
    *[("nxn", {"size": n}) for n in range(3, 11)],
    *[("mnk", {"rows": r, "cols": c, "k": k}) for r, c, k in (
        (3, 3, 3), (3, 19, 3), (19, 3, 3), (5, 3, 5), (4, 6, 4), (7, 9, 4), (10, 5, 5), (15, 15, 5), (19, 19, 5),
    )],
    ("ultimate", {"closed_boards": False}), ("ultimate", {"closed_boards": True}),
    ("multi", {"random_start": False}), ("multi", {"random_start": True}),
]

TAG_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True).filter(
    lambda name: name not in (*RESERVED_TAGS, "Termination")
)
#: what a tag value may hold: no controls, line or paragraph separators, or marks that change the text's direction
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
TAG_VALUES = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters=BIDI_CONTROLS), max_size=30
)


@st.composite
def games(draw: st.DrawFn) -> tuple:
    key, options = draw(st.sampled_from(CHOICES))
    variant = get_variant(key, **options)
    start = draw(st.integers(0, 8)) if options.get("random_start") else None
    state = variant.new_game() if start is None else variant.new_game(start_board=start)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    stop = draw(st.one_of(st.none(), st.integers(0, variant.cell_count)))  # None: to the end of the game
    states, moves = [state], []
    while not state.is_over and (stop is None or len(moves) < stop):
        moves.append(rng.choice(state.legal_moves()))
        state = state.play(moves[-1])
        states.append(state)
    tags = draw(st.dictionaries(TAG_NAMES, TAG_VALUES, max_size=4))
    result = None
    if not state.is_over and draw(st.booleans()):  # a resignation, a loss on time, an agreed draw...
        result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2"]))
        tags["Termination"] = draw(st.sampled_from(["resignation", "time forfeit", "agreement", "abandoned"]))
    return variant, moves, states, result, tags, start


def same_position(parsed: Any, state: Any) -> None:
    assert parsed == state
    assert parsed.legal_moves() == state.legal_moves()
    assert (parsed.to_move, parsed.is_over, parsed.winner) == (state.to_move, state.is_over, state.winner)
    assert parsed.cells == state.cells
    if state.variant.nested:
        assert parsed.board_winners == state.board_winners
        assert parsed.active_boards == state.active_boards


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), games())
def test_records_and_positions_round_trip(game: tuple, other: tuple) -> None:
    variant, moves, states, result, tags, start = game
    text = write_record(variant, moves, result=result, tags=tags, start_board=start)
    record = read_record(text)
    assert (record.variant, record.options, record.moves) == (variant.key, variant.options, moves)
    assert record.result == (result or result_token(states[-1])) and record.start_board == start
    assert {name: record.tags[name] for name in tags} == tags
    assert record.text() == text
    # position strings at every ply: the same from the record's replay, and back to the same state
    replay = states[0]
    for ply, state in enumerate(states):
        if ply:
            replay = replay.play(record.moves[ply - 1])
        word = position_string(state)
        assert position_string(replay) == word
        parsed = parse_position(word)
        assert position_string(parsed) == word
        same_position(parsed, state)
    assert position_string(record.final) == position_string(states[-1])
    # two games in one text
    second = write_record(other[0], other[1], result=other[3], tags=other[4], start_board=other[5])
    both = list(read_records(text + "\n" + second))
    assert [(r.variant, r.moves, r.result) for r in both] == [
        (record.variant, record.moves, record.result), (other[0].key, other[1], read_record(second).result),
    ]


def test_every_classic_position_is_accepted_exactly_when_a_game_reaches_it() -> None:
    """All 3**9 fillings of the classic board: from_position accepts the 5,478 that games reach (RULES.md's
    figure), with the same end and winner, and refuses every other one."""
    variant = get_variant("classic")
    reached: dict[tuple, Any] = {}
    frontier = [variant.new_game()]
    while frontier:
        following = []
        for state in frontier:
            if state.cells in reached:
                continue
            reached[state.cells] = state
            following += [state.play(m) for m in state.legal_moves()]
        frontier = following
    assert len(reached) == 5478
    accepted = 0
    for cells in itertools.product(("X", "O", None), repeat=9):
        try:
            built = variant.from_position(cells)
        except PositionError:
            assert cells not in reached, cells
            continue
        accepted += 1
        state = reached[cells]
        assert (built.is_over, built.winner, built.to_move) == (state.is_over, state.winner, state.to_move)
        assert position_string(parse_position(position_string(built))) == position_string(state)
    assert accepted == 5478


ANY_VALUE = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20) | st.text(
    st.sampled_from(["a", " ", "\\", '"', "\t", "\x1b", "\x7f", "\x85", "\u2028", "\u2029", "\u202e", "\u2066",
                     "\u200f", "\u061c", "é", "\u200d"]), max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(ANY_VALUE)
def test_reader_and_writer_take_the_same_tag_values(value: str) -> None:
    """One rule (tag_value_problem) for both: a value the writer writes is read back as it was, a value the
    writer refuses the reader refuses too (written by hand), and clean_tag_value makes any value one both take."""
    classic = get_variant("classic")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    by_hand = f'[Variant "classic"]\n[X "{escaped}"]\n[Result "*"]\n\n*\n'
    try:
        written = write_record(classic, [], tags={"X": value})
    except RecordError:
        assert tag_value_problem(value) is not None
        try:
            read_record(by_hand)
        except RecordError:
            pass
        else:
            raise AssertionError(f"the reader took {value!r}, which the writer refuses")
    else:
        assert tag_value_problem(value) is None
        assert written == by_hand and read_record(written).tags["X"] == value
    cleaned = clean_tag_value(value)
    assert tag_value_problem(cleaned) is None and read_record(write_record(classic, [], tags={"X": cleaned}))
