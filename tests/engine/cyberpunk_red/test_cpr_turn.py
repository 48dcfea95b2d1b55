"""Seed 001, *What you can do in a turn* and *Movement*: "Turn = 1 Move Action + 1
Action", split "move, shoot, move", ROF 2, Run, "MOVE x 2 meters", the cost table,
prone, armour and Mortally Wounded."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rulesets.cyberpunk_red import economy
from engine.rulesets.cyberpunk_red.movement import (
    MoveRules,
    Square,
    allowance,
    effective_move,
    jump_lengths,
    jumps,
    move_cost,
    move_refusal,
    movement_left,
    step_cost,
)
from engine.rulesets.cyberpunk_red.state import Fighter, Weapon
from geometry import SquareGrid

PISTOL, MACHETE = Weapon("pistol", 2), Weapon("machete", 2, melee=True)
RIFLE, SHOTGUN = Weapon("rifle", 1), Weapon("shotgun", 1)
RULES = MoveRules()


def solo(**kw: object) -> Fighter:
    """A MOVE 4 fighter with a pistol in the right hand and a machete in the left."""
    base = Fighter("gina", ref=8, move=4, jump=4.0, weapons=(MACHETE, PISTOL, RIFLE, SHOTGUN),
                   right="pistol", left="machete")  # fmt: skip
    return replace(base, **kw)  # type: ignore[arg-type]


# -- Move Action ----------------------------------------------------------------------


def test_a_move_action_covers_move_times_two_metres() -> None:
    assert allowance(solo(), RULES) == 8.0


def test_on_a_two_metre_grid_move_squares_diagonals_too() -> None:
    grid = SquareGrid(20, 20, 2.0)
    diagonal = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]
    assert grid.path_cost(diagonal) == 8.0  # MOVE 4: four squares, diagonals count one
    assert move_refusal(solo(), RULES, "walk", grid.path_cost(diagonal)) is None
    fifth = [*diagonal, (5, 5)]
    assert "costs 10 m" in str(move_refusal(solo(), RULES, "walk", grid.path_cost(fifth)))


def test_move_shoot_move_splits_the_move_action_around_the_action() -> None:
    f = economy.spend_movement(solo(), 4.0)  # "run halfway"
    assert economy.attack_refusal(f, "pistol") is None
    f = economy.spend_attack(f, "pistol")  # "shoot"
    assert movement_left(f, RULES) == 4.0  # "run the rest"
    f = economy.spend_movement(f, 4.0)
    assert move_refusal(f, RULES, "walk", 2.0) is not None


def test_any_order_shoot_first_then_move() -> None:
    f = economy.spend_attack(solo(), "pistol")
    assert move_refusal(f, RULES, "walk", 8.0) is None


def test_run_is_a_second_move_action_if_you_already_moved() -> None:
    assert "move first" in str(economy.run_refusal(solo()))
    f = economy.run(economy.spend_movement(solo(), 8.0))
    assert allowance(f, RULES) == 16.0 and movement_left(f, RULES) == 8.0
    assert f.usage.action == "run"
    assert economy.attack_refusal(f, "pistol") is not None  # the Action went on Run
    assert economy.run_refusal(f) == "already ran this turn"


# -- ROF 2 ------------------------------------------------------------------------------


def attacks(f: Fighter, *weapons: str) -> str | None:
    """Attack with each weapon in turn; the first refusal, or None."""
    for weapon in weapons:
        why = economy.attack_refusal(f, weapon)
        if why:
            return why
        f = economy.spend_attack(f, weapon)
    return None


@pytest.mark.parametrize(
    ("hands", "weapons", "refused"),
    [
        # "a weapon with ROF 2 (pistols, knives, fists) splits the Action itself"
        (("pistol", None), ("pistol", "pistol"), None),
        (("pistol", None), ("unarmed", "unarmed"), None),  # fists are ROF 2
        # "a pistol in your left hand and a machete in your right: one attack with each"
        (("pistol", "machete"), ("pistol", "machete"), None),
        # "no more than two attacks a turn"
        (("pistol", "machete"), ("pistol", "machete", "pistol"), "no more than two attacks"),
        (("pistol", None), ("pistol", "pistol", "pistol"), "no more than two attacks"),
        # a ROF 1 weapon is one attack with the Action
        (("rifle", None), ("rifle", "rifle"), "ROF 1"),
        # "you can't fire two ROF 1 weapons with one Action, even if they're in both hands"
        (("rifle", "shotgun"), ("rifle", "shotgun"), "can't fire two ROF 1 weapons"),
        # a ROF 2 weapon and a ROF 1 weapon in the other hand: one attack each
        (("pistol", "rifle"), ("rifle", "pistol"), None),
        # only what is in a hand
        (("pistol", None), ("machete",), "not in a hand"),
    ],
)
def test_rof(
    hands: tuple[str | None, str | None], weapons: tuple[str, ...], refused: str | None
) -> None:
    f = solo(right=hands[0], left=hands[1])
    why = attacks(f, *weapons)
    assert (why is None) if refused is None else (refused in str(why)), why


def test_moving_between_the_two_attacks_of_a_split_action() -> None:
    f = economy.spend_movement(solo(), 2.0)  # "move, shoot, move, shoot, move"
    f = economy.spend_attack(f, "pistol")
    f = economy.spend_movement(f, 2.0)
    assert economy.attack_refusal(f, "pistol") is None
    f = economy.spend_movement(economy.spend_attack(f, "pistol"), 2.0)
    assert movement_left(f, RULES) == 2.0


# -- the cost table ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "terrain", "metres", "cost"),
    [
        ("walk", 1.0, 2.0, 2.0),  # walking or running: 1 meter per 1 meter
        ("swim", 1.0, 2.0, 4.0),  # swimming: 2 meters per 1 meter
        ("walk", 2.0, 2.0, 4.0),  # a square of water costs 2 per 1 whatever the mode
        ("climb", 1.0, 2.0, 4.0),  # climbing: 2 per 1
        ("jump", 1.0, 2.0, 4.0),  # running jump: 2 per 1
        ("standing_jump", 1.0, 2.0, 8.0),  # "half as far as a running jump"
        ("standing_jump", 2.0, 2.0, 8.0),  # a gap jumped standing
    ],
)
def test_cost_table(mode: str, terrain: float, metres: float, cost: float) -> None:
    assert step_cost(metres, terrain, mode) == cost


def test_swimming_halves_the_distance_of_a_move_action() -> None:
    grid = SquareGrid(20, 20, 2.0)
    path = [(0, 0), (1, 0), (2, 0)]  # 4 m of water
    cost = sum(step_cost(grid.step_cost(a, b), 2.0, "swim") for a, b in pairwise(path))
    assert cost == 8.0 and move_refusal(solo(), RULES, "swim", cost) is None


def test_jump_distances_come_from_the_token() -> None:
    f = solo(jump=4.0)
    assert move_refusal(f, RULES, "jump", 8.0, [4.0]) is None
    assert "reaches 4 m" in str(move_refusal(f, RULES, "jump", 8.0, [6.0]))
    # a standing jump reaches half as far: 2 m
    assert "reaches 2 m" in str(move_refusal(f, RULES, "standing_jump", 8.0, [4.0]))
    assert move_refusal(f, RULES, "standing_jump", 8.0, [2.0]) is None


# "Swimming, climbing, running jump: 2 meters per 1 meter"; "Standing jump: half as far
# as a running jump".  The jump is the squares jumped over; 2 m squares.
RUN_UP, GAP, LAND = Square(2.0), Square(2.0, 2.0, gap=True), Square(2.0)


@pytest.mark.parametrize("mode", ["walk", "jump"])
def test_a_running_jump_over_a_two_square_gap_costs_only_the_gap_double(mode: str) -> None:
    squares = [RUN_UP, GAP, GAP, LAND]
    assert move_cost(squares, mode) == 2.0 * (1 + 2 + 2 + 1)  # 6 squares, either way
    assert jump_lengths(squares, mode) == [4.0]


def test_a_standing_jump_over_a_one_square_gap_reaches_past_it() -> None:
    squares = [GAP, LAND]
    assert jump_lengths(squares, "standing_jump") == [2.0]  # the landing is no part of it
    assert move_cost(squares, "standing_jump") == 2.0 * 4 + 2.0
    f = solo(move=6, jump=6.0)  # 12 m a Move Action; a standing jump reaches 3 m
    assert move_refusal(f, RULES, "standing_jump", 10.0, [2.0]) is None
    assert "reaches 3 m, not 4 m" in str(move_refusal(f, RULES, "standing_jump", 10.0, [4.0]))


def test_a_jump_with_no_gap_drawn_takes_off_at_the_start_and_lands_on_the_last_square() -> None:
    flat = [RUN_UP, RUN_UP, LAND]
    assert [list(r) for r in jumps(flat, "jump")] == [[0, 1]]
    assert move_cost(flat, "jump") == 2.0 * (2 + 2 + 1)
    assert jumps(flat, "walk") == [] and move_cost(flat, "walk") == 6.0
    assert jumps([LAND], "jump") == [] and move_cost([LAND], "jump") == 2.0  # a step


def test_two_gaps_are_two_jumps() -> None:
    squares = [GAP, LAND, GAP, GAP, LAND]
    assert jump_lengths(squares, "walk") == [2.0, 4.0]
    assert move_cost(squares, "standing_jump") == 2.0 * (4 + 1 + 4 + 4 + 1)


def test_you_cant_move_while_prone() -> None:
    why = move_refusal(solo(prone=True), RULES, "walk", 2.0)
    assert why is not None and "Get Up" in why
    assert economy.run_refusal(economy.spend_movement(solo(prone=True), 0.5)) is not None


# -- what lowers MOVE -------------------------------------------------------------------


def test_armor_with_a_penalty_lowers_move() -> None:
    assert effective_move(solo(armor_penalty=2), RULES) == 2
    assert allowance(solo(armor_penalty=2), RULES) == 4.0


def test_mortally_wounded_lowers_move_by_the_core_books_six_to_at_least_one() -> None:
    assert effective_move(solo(move=8, mortally_wounded=True), RULES) == 2
    assert effective_move(solo(move=4, mortally_wounded=True), RULES) == 1
    assert effective_move(solo(move=0, mortally_wounded=True), RULES) == 0  # never raised


def test_the_table_sets_the_mortally_wounded_figures() -> None:
    house = MoveRules(mortally_wounded_move=2, mortally_wounded_floor=0)
    assert effective_move(solo(move=4, mortally_wounded=True), house) == 2
    assert effective_move(solo(move=6, armor_penalty=4, mortally_wounded=True), house) == 0


WEAPONS = {"pistol": 2, "machete": 2, "rifle": 1, "shotgun": 1, "unarmed": 2}


@given(
    right=st.sampled_from([None, "pistol", "machete", "rifle", "shotgun"]),
    left=st.sampled_from([None, "pistol", "machete", "rifle", "shotgun"]),
    tries=st.lists(st.sampled_from(sorted(WEAPONS)), max_size=6),
)
def test_whatever_is_tried_the_turn_keeps_the_rof_rules(
    right: str | None, left: str | None, tries: list[str]
) -> None:
    if right is not None and right == left:
        left = None
    f = solo(right=right, left=left)
    for weapon in tries:
        if economy.attack_refusal(f, weapon) is None:
            f = economy.spend_attack(f, weapon)
    made = f.usage.attacks
    assert len(made) <= 2  # "no more than two attacks a turn"
    assert all(w == "unarmed" or w in (right, left) for w in made)  # only what is in hand
    if len(made) == 2:
        a, b = made
        assert not (WEAPONS[a] == 1 and WEAPONS[b] == 1)  # never two ROF 1 attacks
        assert a != b or WEAPONS[a] == 2  # the same weapon twice only at ROF 2


# A gap square costs a running jump's 2 per 1 on the map, as the scene prices it.
squares_st = st.lists(
    st.one_of(
        st.builds(Square, st.just(2.0), st.sampled_from([1.0, 2.0])),
        st.just(Square(2.0, 2.0, gap=True)),
    ),
    min_size=1,
    max_size=10,
)


@given(squares_st.filter(lambda squares: any(s.gap for s in squares)))
def test_a_drawn_gap_costs_the_same_sent_as_a_jump_or_walked(squares: list[Square]) -> None:
    assert move_cost(squares, "jump") == move_cost(squares, "walk")
    assert jump_lengths(squares, "jump") == jump_lengths(squares, "walk")
    jumped = {i for run in jumps(squares, "jump") for i in run}
    assert jumped == {i for i, s in enumerate(squares) if s.gap}  # only the gap squares


@given(squares_st, st.sampled_from(["jump", "standing_jump"]))
def test_a_jump_never_costs_less_than_walking_the_same_squares(
    squares: list[Square], mode: str
) -> None:
    walked = sum(s.metres * s.terrain for s in squares)
    assert walked <= move_cost(squares, mode) <= move_cost(squares, "standing_jump")
    if len(squares) > 1 and not any(s.gap for s in squares):
        # No gap drawn: off at the start, down on the last square, nothing else.
        assert [list(r) for r in jumps(squares, mode)] == [list(range(len(squares) - 1))]
