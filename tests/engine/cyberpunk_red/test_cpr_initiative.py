"""Seed 001, *Initiative: who goes first*: "Initiative = REF + d10 ... from highest to
lowest.  Ties reroll until someone comes out on top.  After that the order doesn't
change ... The queue shifts in only two cases: a driver who starts a vehicle moves to its
front ..., and newcomers who join the fight later roll Initiative and take their place."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import CommandRejected
from engine.rulesets.cyberpunk_red.initiative import (
    InitiativeDice,
    newcomer_beats,
    newcomer_score,
    next_in_round,
    roll_queue,
    to_front,
)
from tests.engine.cyberpunk_red.helpers import tray


def test_initiative_is_ref_plus_d10_highest_first() -> None:
    t = tray()
    dice = InitiativeDice(t, {"gina": [3], "rex": [9], "vik": [5]})
    order, scores = roll_queue([("gina", 8), ("rex", 4), ("vik", 7)], dice)
    # Gina 8 + 3 = 11, Rex 4 + 9 = 13, Vik 7 + 5 = 12.
    assert order == ("rex", "vik", "gina")
    assert dict(scores) == {"rex": 13, "vik": 12, "gina": 11}
    assert [(e.purpose, e.results, e.source) for e in t.events] == [
        ("initiative: gina REF 8 + d10", (3,), "table"),
        ("initiative: rex REF 4 + d10", (9,), "table"),
        ("initiative: vik REF 7 + d10", (5,), "table"),
    ]


def test_a_tie_is_rerolled_among_the_tied_only() -> None:
    t = tray()
    # Gina 6 + 6 = 12 and Rex 5 + 7 = 12 tie; Vik 4 + 9 = 13 is alone on top.
    dice = InitiativeDice(t, {"gina": [6, 2], "rex": [7, 8], "vik": [9]})
    order, scores = roll_queue([("gina", 6), ("rex", 5), ("vik", 4)], dice)
    # Rerolls: Gina 6 + 2 = 8, Rex 5 + 8 = 13: Rex comes out on top.
    assert order == ("vik", "rex", "gina")
    assert dict(scores) == {"vik": 13, "rex": 12, "gina": 12}  # the queue score stays
    rerolls = [e.purpose for e in t.events if "reroll" in e.purpose]
    assert rerolls == [
        "initiative reroll, tie at 12: gina REF 6 + d10",
        "initiative reroll, tie at 12: rex REF 5 + d10",
    ]


def test_ties_reroll_until_someone_comes_out_on_top() -> None:
    t = tray()
    # All three at 10; the first reroll puts Ana on top and ties Bo and Cy again.
    dice = InitiativeDice(t, {"ana": [5, 9], "bo": [5, 4, 1], "cy": [5, 4, 6]})
    order, _ = roll_queue([("ana", 5), ("bo", 5), ("cy", 5)], dice)
    assert order == ("ana", "cy", "bo")
    assert len(t.events) == 3 + 3 + 2
    assert dice.unused() == {}


def test_a_table_that_supplies_too_few_dice_for_a_tie_is_refused() -> None:
    dice = InitiativeDice(tray(), {"ana": [5], "bo": [5]})
    with pytest.raises(CommandRejected) as refusal:
        roll_queue([("ana", 5), ("bo", 5)], dice)
    assert refusal.value.code == "bad_rolls"


@given(
    st.integers(min_value=0, max_value=2**40), st.lists(st.integers(1, 8), min_size=2, max_size=9)
)
def test_seeded_queues_run_high_to_low_and_roll_once_plus_rerolls(
    seed: int, refs: list[int]
) -> None:
    t = tray(seed)
    entrants = [(f"c{i}", ref) for i, ref in enumerate(refs)]
    order, scores = roll_queue(entrants, InitiativeDice(t))
    values = [score for _, score in scores]
    assert sorted(order) == sorted(cid for cid, _ in entrants)
    assert values == sorted(values, reverse=True)
    tied = len(values) != len(set(values))
    assert (len(t.events) > len(entrants)) == tied  # a reroll exactly when there was a tie
    # The same seed gives the same queue: a replay reproduces it.
    assert roll_queue(entrants, InitiativeDice(tray(seed)))[0] == order


def test_a_newcomer_rolls_ref_plus_d10() -> None:
    # Its place in the queue, ties rerolled: tests/engine/test_gm_hands.py.
    t = tray()
    score = newcomer_score("nix", 6, InitiativeDice(t, {"nix": [4]}))
    assert score == 10 and [e.purpose for e in t.events] == ["initiative (joins): nix REF 6 + d10"]


def test_a_tied_newcomer_rerolls_against_the_tied_one_until_one_is_on_top() -> None:
    t = tray()
    dice = InitiativeDice(t, {"nix": [3, 9], "rex": [4, 2]})
    # 6 + 3 = 9 against 5 + 4 = 9: tied again; 6 + 9 = 15 against 5 + 2 = 7.
    assert newcomer_beats("nix", 6, "rex", 5, dice, 12)
    assert [e.results for e in t.events] == [(3,), (4,), (9,), (2,)]


def test_a_driver_who_starts_a_vehicle_moves_to_the_front() -> None:
    assert to_front(("rex", "vik", "gina"), "gina") == ("gina", "rex", "vik")


def test_the_round_runs_down_the_queue_once() -> None:
    queue = ("rex", "vik", "gina")
    assert next_in_round(queue, None, ()) == "rex"
    assert next_in_round(queue, "vik", ("rex", "vik")) == "gina"
    assert next_in_round(queue, "gina", queue) is None  # "a new Round starts from the top"


def test_a_driver_moved_to_the_front_does_not_act_twice_in_the_round() -> None:
    queue = to_front(("rex", "vik", "gina", "ash"), "vik")  # Vik started a car on its turn
    assert next_in_round(queue, "vik", ("rex", "vik")) == "gina"


def test_a_newcomer_placed_above_the_turn_waits_for_the_next_round() -> None:
    queue = ("nix", "rex", "vik")  # Nix joined above Rex while Rex was acting
    assert next_in_round(queue, "rex", ("rex",)) == "vik"
    assert next_in_round(queue, None, ()) == "nix"
