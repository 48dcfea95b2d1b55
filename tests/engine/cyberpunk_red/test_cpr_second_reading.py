"""Seed 001 read again, through the engine's commands: the held shot at the doorway, jumps
over gaps, and what ``ask_options`` offers once no attack can be made.

Hold Action: "Declare an action and the moment it triggers: 'I shoot as soon as he leans
out'"; "Holding means saying in advance what you'll do, to whom and when: 'after Gina's
turn' or 'when the door opens.'"  Movement: "Swimming, climbing, running jump: 2 meters
per 1 meter"; "Standing jump: Half as far as a running jump".  What you can do in a turn:
"you can't fire two ROF 1 weapons with one Action"; the Action is for "a shot, a blow".
"""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Encounter, GridSpec, LoadScene, Move, Scene, StartCombat, TerrainSpec
from engine.commands import Act, AnswerPrompt
from engine.errors import CommandRejected
from engine.model import WallSpec
from tests.engine.cyberpunk_red.helpers import cpr
from tests.engine.cyberpunk_red.test_cpr_engine import SEED, act, done, started, street
from tests.engine.helpers import kinds, refused

# -- Hold Action: the shot is taken as he steps into the doorway ---------------------

# A wall down x = 22 m (between columns 10 and 11) with a doorway at row 2 (y 4-6 m):
# the doorway square (11, 2) is seen from Rex at (2, 6); the square before it, (12, 2),
# is behind the wall.
WALL = (
    WallSpec("north", (22.0, 0.0), (22.0, 4.0)),
    WallSpec("south", (22.0, 6.0), (22.0, 20.0)),
)
DOORWAY = [[11, 2]]


def walled() -> Encounter:
    s = street()
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(s.grid, s.tokens, WALL, s.terrain)))
    encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    done(encounter)  # Gina
    done(encounter)  # the boss
    return encounter


def goon_at(encounter: Encounter) -> tuple[int, int]:
    scene = encounter.state.scene
    assert scene is not None
    goon = scene.token("goon")
    assert goon is not None
    return goon.cell


def test_a_shot_held_for_the_doorway_is_taken_with_him_in_the_doorway() -> None:
    encounter = walled()
    act(encounter, "rex", "hold_action", action="attack", trigger="enters", area=DOORWAY,
        params={"target": "goon", "weapon": "rifle", "base": 11})  # fmt: skip
    done(encounter)  # Rex
    events = encounter.apply(Move("gm", "goon", ((12, 2), (11, 2), (10, 2))))
    # His move pauses as he steps into the doorway, not on the square before it.
    assert events[-2].kind == "move_interrupted" and events[-2].at == (11, 2)
    assert goon_at(encounter) == (11, 2)
    events = encounter.apply(AnswerPrompt("gm", events[-1].prompt, True))
    # From (12, 2) Rex could not see him: the shot would be lost.  It is taken with him
    # in the doorway.
    assert kinds(events)[-3:] == ["cpr_held_fired", "dice_rolled", "cpr_attack"]
    assert events[-3].at == (11, 2)
    assert events[-1].held and events[-1].attacker == "rex" and events[-1].target == "goon"
    events = done(encounter)  # Rex's interruption ends: the goon's move goes on
    assert events[-1].kind == "move_completed" and events[-1].at == (10, 2)


def test_a_held_knife_blow_reaches_him_once_he_is_in_the_doorway() -> None:
    # The goon (acting first) holds a knife blow for Gina stepping into the doorway
    # beside him, (7, 2); the square before it, (6, 2), is beyond a knife's 2 m reach.
    tokens = (
        cpr("goon", 8, 2, ref=20, weapon__knife=2, melee__knife=True, hand__right="knife"),
        cpr("gina", 3, 2, ref=1, move=4),
    )
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 6, cell_size=2.0), tokens)))
    encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    act(encounter, "goon", "hold_action", action="attack", trigger="enters", area=[[7, 2]],
        params={"target": "gina", "weapon": "knife"})  # fmt: skip
    done(encounter)  # the goon
    events = encounter.apply(Move("gm", "gina", ((4, 2), (5, 2), (6, 2), (7, 2))))
    assert events[-2].kind == "move_interrupted" and events[-2].at == (7, 2)
    events = encounter.apply(AnswerPrompt("gm", events[-1].prompt, True))
    assert "cpr_held_lost" not in kinds(events) and kinds(events)[-1] == "cpr_attack"
    assert next(e for e in events if e.kind == "cpr_held_fired").at == (7, 2)
    events = done(encounter)  # the goon's interruption ends: Gina's move was over there
    assert events[-1].kind == "move_completed" and events[-1].at == (7, 2)


# -- jumps: only the squares jumped over are the jump --------------------------------

# Rooftops: a gap two squares wide (columns 4 and 5), another one wide (column 9).
GAPS = (
    TerrainSpec("gap", ((8.0, 0.0), (12.0, 0.0), (12.0, 20.0), (8.0, 20.0))),
    TerrainSpec("gap", ((18.0, 0.0), (20.0, 0.0), (20.0, 20.0), (18.0, 20.0))),
)


def rooftops(x: int, *, move: int = 6, **stats: Any) -> Encounter:
    """Gina (MOVE 6: 12 m a Move Action; ``jump`` defaults to MOVE metres) at (x, 4)."""
    tokens = (cpr("gina", x, 4, ref=9, move=move, **stats), cpr("rex", 14, 8, ref=1))
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(16, 10, cell_size=2.0), tokens, (), GAPS)))
    encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    return encounter


@pytest.mark.parametrize("mode", ["jump", "walk"])
def test_a_running_jump_over_a_two_square_gap_costs_1_2_2_1_squares(mode: str) -> None:
    encounter = rooftops(2)
    events = encounter.apply(Move("gm", "gina", ((3, 4), (4, 4), (5, 4), (6, 4)), mode))
    # A square of run-up, the two gap squares at 2 m per 1 m, the landing: 6 squares.
    assert events[-1].kind == "move_completed" and events[-1].cost == 2.0 * (1 + 2 + 2 + 1)
    assert encounter.options("gina").movement_left == 0.0


def test_a_standing_jump_over_a_one_square_gap_is_a_2_m_jump() -> None:
    encounter = rooftops(8)  # on the edge of the one-square gap
    # jump 6: a standing jump reaches 3 m; the gap is 2 m, the landing no part of it.
    events = encounter.apply(Move("gm", "gina", ((9, 4), (10, 4)), "standing_jump"))
    assert events[-1].kind == "move_completed" and events[-1].cost == 2.0 * 4 + 2.0


def test_a_standing_jump_over_the_two_square_gap_falls_short() -> None:
    encounter = rooftops(3)
    message = refused(
        encounter, Move("gm", "gina", ((4, 4), (5, 4), (6, 4)), "standing_jump"), "illegal_action"
    )
    assert "a standing jump reaches 3 m, not 4 m" in message


def test_a_gap_walked_over_is_a_running_jump_capped_by_the_jump_stat() -> None:
    encounter = rooftops(3, jump=2)
    message = refused(encounter, Move("gm", "gina", ((4, 4), (5, 4), (6, 4))), "illegal_action")
    assert "a jump reaches 2 m, not 4 m" in message


def test_a_jump_the_map_does_not_show_lands_on_the_last_square() -> None:
    encounter = started()  # Gina: MOVE 4 (8 m), jump 4 m running, 2 m standing
    events = encounter.apply(Move("gm", "gina", ((3, 4), (4, 4)), "jump"))
    assert events[-1].cost == 2.0 * 2 + 2.0  # over (3, 4), landing on (4, 4)
    refused(encounter, Move("gm", "gina", ((3, 3), (4, 3)), "standing_jump"), "over_budget")
    message = refused(
        started(), Move("gm", "gina", ((3, 4), (4, 4), (5, 4)), "standing_jump"), "illegal_action"
    )
    assert "a standing jump reaches 2 m, not 4 m" in message


# -- no attack offered when none can be made -----------------------------------------


def test_after_a_rof_1_shot_and_a_full_move_only_free_actions_and_the_turn_end_remain() -> None:
    encounter = started()
    done(encounter)  # Gina
    done(encounter)  # the boss
    act(encounter, "rex", "attack", target="boss", weapon="rifle", base=12)  # ROF 1
    # Still beside the car: a punch at it is an attack he can make.
    assert "attack" in encounter.options("rex").available
    encounter.apply(Move("gm", "rex", ((3, 6), (4, 6), (5, 6), (6, 6), (7, 6))))  # MOVE 5
    options = encounter.options("rex")
    # Free actions he can take: dropping the rifle; nothing to take (nothing else is
    # carried, none on the floor), so take_weapon is not offered either.
    assert set(options.available) == {"drop_weapon", "end_phase"}
    assert "no weapon to take" in dict(options.refused)["take_weapon"]
    assert "nothing to attack" in dict(options.refused)["attack"]
    refused(encounter, Act("gm", "rex", "attack", {"target": "boss"}), "illegal_action")
    refused(encounter, Act("gm", "rex", "attack", {"target": "boss", "weapon": "rifle"}),
            "illegal_action")  # fmt: skip


spots = st.tuples(st.integers(0, 11), st.integers(0, 7))


@settings(max_examples=40, deadline=None)
@given(
    rex=spots,
    others=st.lists(spots, min_size=1, max_size=3),
    weapon=st.sampled_from(["rifle", "pistol", "knife", None]),
    shot_first=st.booleans(),
    wall=st.booleans(),
)
def test_attack_is_offered_exactly_when_some_attack_would_be_taken(
    rex: tuple[int, int],
    others: list[tuple[int, int]],
    weapon: str | None,
    shot_first: bool,
    wall: bool,
) -> None:
    # The option is the attack's own check over every target and weapon (fists too),
    # not a second copy of it: whatever the positions, walls and what was already done.
    taken = {rex}
    tokens = [
        cpr("rex", *rex, ref=20, weapon__rifle=1, weapon__pistol=2, weapon__knife=2,
            melee__knife=True, **({"hand__right": weapon} if weapon else {}))
    ]  # fmt: skip
    for i, spot in enumerate(others):
        if spot not in taken:
            taken.add(spot)
            tokens.append(cpr(f"t{i}", *spot, ref=1))
    walls = (WallSpec("w", (12.0, 0.0), (12.0, 16.0)),) if wall else ()
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 8, cell_size=2.0), tuple(tokens), walls)))
    encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    names = [t.id for t in tokens[1:]]
    weapons = [w for w in ("rifle", "pistol", "knife") if w == weapon] + ["unarmed"]
    if shot_first:
        for target, w in product(names, weapons):
            try:
                act(encounter, "rex", "attack", target=target, weapon=w)
                break
            except CommandRejected:
                continue
    offered = "attack" in encounter.options("rex").available
    possible = False
    for target, w in product(names, weapons):
        try:
            act(encounter, "rex", "attack", target=target, weapon=w)
        except CommandRejected:
            continue
        possible = True
        break
    assert offered == possible
