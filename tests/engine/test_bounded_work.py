"""Every question and move costs at most what it can legitimately need.

``plan_path`` refuses a goal off the grid or beyond the budget before it searches, and
searches no farther than the budget (outside combat :data:`FREE_PATH_CELLS` cells);
``move_points`` checks the turn, each waypoint against the grid and the traced length
before it traces anything.  None of this is timed: the refusals say which check
answered, and a refusal that comes before the work is one that cannot cost it.
"""

from __future__ import annotations

import pytest

import protocol
from engine import (
    Encounter,
    GridSpec,
    LoadScene,
    MovePoints,
    Scene,
    StartCombat,
    VttSpec,
    WallSpec,
)
from engine.commands import MAX_PATH
from engine.handlers import MAX_MOVE_STEPS
from engine.options import FREE_PATH_CELLS
from engine.scene_checks import MAX_CELLS_NEAR_WALLS, MAX_REACH_CELLS
from tests.engine.helpers import refused, token

FAR = 2e8  # pixels: the waypoints of the probe that blocked the event loop for 4.9 s


def box_walls(x0: float, y0: float, x1: float, y1: float) -> tuple[WallSpec, ...]:
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return tuple(WallSpec(f"w{i}", corners[i], corners[(i + 1) % 4]) for i in range(len(corners)))


def big_table(*, combat: bool, hero_first: bool = False) -> Encounter:
    """A 1000 x 1000 grid in Foundry pixels (100 px cells), a hero at (5, 5) moving 6 m,
    an ogre far away (acting first unless ``hero_first``), and a walled-in room at
    (20..23, 20..23)."""
    encounter = Encounter()
    grid = GridSpec(1000, 1000, vtt=VttSpec("foundry", 100))
    hero = token("hero", 5, 5, owner="alice", init=30 if hero_first else 9, movement=6.0)
    ogre = token("ogre", 900, 900, init=20)
    encounter.apply(LoadScene("gm", Scene(grid, (hero, ogre), box_walls(20, 20, 24, 24))))
    if combat:
        encounter.apply(StartCombat("gm", "hero-supplement", 1))
    return encounter


def test_a_goal_beyond_the_search_limit_is_refused_before_searching() -> None:
    plan = big_table(combat=False).plan_path("hero", (999, 999), "alice")
    assert plan.path == ()
    assert plan.budget is None  # outside combat the token has no budget of its own
    assert plan.reason == (
        f"(999, 999) is at least 994 m away: no path within the search limit of "
        f"{FREE_PATH_CELLS} m outside combat"
    )


def test_an_unreachable_goal_within_reach_is_searched_within_the_limit() -> None:
    plan = big_table(combat=False).plan_path("hero", (21, 21), "alice")
    assert plan.path == ()
    assert (
        plan.reason == f"no open path within the search limit of {FREE_PATH_CELLS} m outside combat"
    )


def test_in_combat_the_search_is_bounded_by_the_movement_left() -> None:
    encounter = big_table(combat=True, hero_first=True)
    plan = encounter.plan_path("hero", (18, 5), "alice")
    assert plan.budget == 12.0  # two move actions of 6 m each
    assert plan.reason == "(18, 5) is at least 13 m away: no path within 12 m"
    reachable = encounter.plan_path("hero", (17, 5), "alice")
    assert reachable.reason is None and reachable.cost == 12.0


def test_a_goal_off_the_grid_is_refused_before_searching() -> None:
    plan = big_table(combat=False).plan_path("hero", (5000, 5), "alice")
    assert plan.path == () and plan.reason is not None and "off" in plan.reason


def test_far_waypoints_out_of_turn_are_refused_by_the_turn() -> None:
    encounter = big_table(combat=True)  # the ogre acts first
    far = MovePoints("alice", "hero", ((FAR, FAR), (-FAR, -FAR), (FAR, -FAR)))
    refused(encounter, far, "not_your_turn")


def test_far_waypoints_are_refused_against_the_grid() -> None:
    encounter = big_table(combat=False)
    message = refused(
        encounter, MovePoints("alice", "hero", ((600.0, 500.0), (FAR, FAR))), "illegal_move"
    )
    assert message == (
        "points[1] (2e+08, 2e+08) puts 'hero' at (2000000, 2000000), off the 1000x1000 grid"
    )
    # Someone else's token is refused before its points are looked at.
    refused(encounter, MovePoints("bob", "hero", ((FAR, FAR),)), "not_your_token")


def test_a_traced_path_longer_than_a_move_may_be_is_refused_before_tracing() -> None:
    encounter = big_table(combat=False)
    # Three legs across the whole map: 994 + 994 + 999 steps, all on the grid.
    points = ((99_900.0, 500.0), (99_900.0, 99_900.0), (0.0, 99_900.0))
    message = refused(encounter, MovePoints("alice", "hero", points), "illegal_move")
    assert message == f"the points make a path of 2987 steps; a move takes at most {MAX_MOVE_STEPS}"


def test_the_engine_and_the_protocol_agree_on_the_longest_move() -> None:
    assert MAX_MOVE_STEPS == protocol.threat.MAX_PATH == MAX_PATH


@pytest.mark.parametrize("side", [40, 1000])
def test_a_legal_long_drag_still_moves(side: int) -> None:
    encounter = Encounter()
    grid = GridSpec(side, side, vtt=VttSpec("foundry", 100))
    encounter.apply(LoadScene("gm", Scene(grid, (token("hero", 0, 0, owner="alice"),))))
    events = encounter.apply(MovePoints("alice", "hero", ((3_900.0, 0.0), (3_900.0, 3_900.0))))
    assert events[-1].at == (39, 39)  # type: ignore[attr-defined]


def test_walls_reaching_too_much_of_a_huge_map_are_refused_at_load() -> None:
    grid = GridSpec(1000, 1000)
    hero = token("hero", 5, 5, owner="alice")
    # Ten walls across the map (a single diagonal one would count its whole box).
    long_walls = tuple(
        WallSpec(f"w{i}", (40.0 + 9 * i, 30.0), (40.0 + 9 * i, 990.0)) for i in range(10)
    )
    message = refused(Encounter(), LoadScene("gm", Scene(grid, (hero,), long_walls)), "bad_scene")
    assert message.startswith("the walls reach ") and f"{MAX_CELLS_NEAR_WALLS:,}" in message
    diagonal = (WallSpec("d", (0.0, 0.0), (999.0, 999.0)),)
    refused(Encounter(), LoadScene("gm", Scene(grid, (hero,), diagonal)), "bad_scene")


def test_a_map_walled_everywhere_still_loads() -> None:
    # A 100 x 100 map with a wall along every fifth grid line, both ways.
    grid = GridSpec(100, 100)
    walls = tuple(
        WallSpec(f"{axis}{i}", (5.0 * i, 0.0), (5.0 * i, 100.0))
        if axis == "v"
        else WallSpec(f"{axis}{i}", (0.0, 5.0 * i), (100.0, 5.0 * i))
        for axis in ("v", "h")
        for i in range(1, 20)
    )
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(grid, (token("hero", 1, 1, owner="alice"),), walls)))
    assert encounter.plan_path("hero", (3, 3), "alice").cost == 2.0


@pytest.mark.parametrize(
    ("tokens", "reach", "loads"),
    [
        (1, 1e6, False),  # one token whose reach spans the whole map and far beyond it
        (200, 7.0, True),  # 200 x 15 x 15 = 45,000 cells: under the limit ...
        (230, 7.0, False),  # ... and past it: 51,750
        (2000, 2.0, True),  # 2,000 tokens with two squares of reach: 50,000, allowed
    ],
)
def test_the_tokens_reach_is_bounded_at_load(tokens: int, reach: float, loads: bool) -> None:
    # The index works out each token's reach area when first asked: a scene of long
    # reaches would make that one question unbounded.
    grid = GridSpec(1000, 1000)
    placed = tuple(
        token(f"t{i}", (i * 7) % 1000, i * 7 // 1000, reach=reach) for i in range(tokens)
    )
    command = LoadScene("gm", Scene(grid, placed))
    if loads:
        encounter = Encounter()
        encounter.apply(command)
        assert encounter.state.scene is not None and len(encounter.state.scene.tokens) == tokens
        return
    message = refused(Encounter(), command, "bad_scene")
    assert message.startswith("the tokens' reach spans ") and f"{MAX_REACH_CELLS:,}" in message
