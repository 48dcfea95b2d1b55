"""Flights on a grid (engine.grid_flight): a move whose ``elevations`` change the token's
height pays its steps in three dimensions, passes over tokens below it and pauses where
it leaves a square threatened at the height it flies at."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import AnswerPrompt, Encounter, LoadScene, Move, StartCombat
from engine.events import MoveCompleted, MoveInterrupted, PromptOpened
from engine.model import Combatant, GridSpec, Scene, TerrainSpec
from tests.engine.helpers import kinds, refused, token
from tests.engine.test_gridless import to_turn_of


def flier(tid: str, x: int, y: int, up: float = 0.0, **kw: object) -> Combatant:
    """A hero's token with Flight 10 at ``up`` metres."""
    return replace(
        token(tid, x, y, owner="alice", init=5, extra={"flight": 10.0}, **kw), elevation=up
    )  # type: ignore[arg-type]


def grid_fight(
    *tokens: Combatant,
    ruleset: str = "hero-supplement",
    diagonal: str = "one",
    terrain: tuple[TerrainSpec, ...] = (),
) -> Encounter:
    encounter = Encounter()
    grid = GridSpec(20, 20, diagonal=diagonal)
    encounter.apply(LoadScene("gm", Scene(grid, tuple(tokens), terrain=terrain)))
    encounter.apply(StartCombat("gm", ruleset, 7, None))
    return encounter


def ogre(x: int = 5, y: int = 5) -> Combatant:
    return token("ogre", x, y, init=20)


def _let_pass(encounter: Encounter, move: Move) -> tuple[MoveInterrupted, MoveCompleted]:
    """Apply ``move``, which provokes; the GM lets it pass: where it paused and ended."""
    events = encounter.apply(move)
    interrupted = next(e for e in events if isinstance(e, MoveInterrupted))
    prompt = next(e for e in events if isinstance(e, PromptOpened))
    events = encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    return interrupted, next(e for e in events if isinstance(e, MoveCompleted))


def test_a_flight_pauses_where_it_leaves_a_square_threatened_at_its_height() -> None:
    # Down from 3 m to 1 m beside the ogre: (6, 4) one layer up is max(1, 1, 1) = 1
    # square from the ogre's (5, 5), inside its 1 m reach; (7, 4) two layers up is not.
    encounter = grid_fight(ogre(), flier("hero", 8, 5, 3.0))
    to_turn_of(encounter, "hero")
    path, heights = ((7, 4), (6, 4), (7, 3)), (2.0, 1.0, 1.0)
    exits, _ = encounter.path_exits("hero", path, None, "alice", elevations=heights)
    assert [(e.by, e.step, e.at) for e in exits] == [("ogre", 2, (6, 4))]
    interrupted, completed = _let_pass(encounter, Move("alice", "hero", path, elevations=heights))
    assert (interrupted.at, interrupted.elevation) == ((6, 4), 1.0)
    # Each step is one square under "one" (its largest offset): 3 m in all.
    assert (completed.at, completed.cost, completed.elevation) == ((7, 3), 3.0, 1.0)
    scene = encounter.state.scene
    assert scene is not None and scene.token("hero").elevation == 1.0  # type: ignore[union-attr]


def test_the_same_cells_walked_on_the_ground_provoke_where_the_flight_does_not() -> None:
    path = ((6, 4), (7, 4))  # from beside the ogre, along its threatened squares
    for up, provokes in ((0.0, True), (2.0, False)):
        encounter = grid_fight(ogre(), flier("hero", 6, 5, up))
        to_turn_of(encounter, "hero")
        events = encounter.apply(Move("alice", "hero", path, elevations=(up + 0.5, up)))
        assert ("prompt_opened" in kinds(events)) is provokes


def test_changing_layer_over_the_same_threatened_squares_leaves_them() -> None:
    # A size-2 flier covering (6, 5)-(7, 6) rises a layer while sliding one square:
    # every square it covered at the ground is left at that height, so the move provokes
    # on the first step even though it still covers (7, 5) and (7, 6).
    big = flier("roc", 6, 5, 0.0, size=2)
    encounter = grid_fight(ogre(), big)
    to_turn_of(encounter, "roc")
    exits, _ = encounter.path_exits("roc", ((7, 5),), None, "alice", elevations=(3.0,))
    assert [(e.by, e.step) for e in exits] == [("ogre", 0)]


def test_a_flier_passes_over_an_enemy_and_not_through_it() -> None:
    encounter = grid_fight(ogre(), flier("hero", 3, 5, 2.0))
    to_turn_of(encounter, "hero")
    low = Move("alice", "hero", ((4, 5), (5, 5), (6, 5)), elevations=(1.0, 0.5, 1.0))
    assert "enemy 'ogre'" in refused(encounter, low, "illegal_move")
    high = Move("alice", "hero", ((4, 5), (5, 5), (6, 5), (7, 5)), elevations=(2.0,) * 4)
    assert "move_started" in kinds(encounter.apply(high))


def test_a_flight_may_end_above_a_token_but_not_on_it() -> None:
    encounter = grid_fight(ogre(9, 9), flier("hero", 3, 5, 2.0), token("ally", 5, 5, owner="alice"))
    to_turn_of(encounter, "hero")
    on = Move("alice", "hero", ((4, 5), (5, 5)), elevations=(1.0, 0.0))
    assert "ends on" in refused(encounter, on, "illegal_move")
    above = Move("alice", "hero", ((4, 5), (5, 5)), elevations=(1.0, 1.0))
    events = encounter.apply(above)
    assert events[-1].kind == "move_completed"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("diagonal", "cost"),
    [
        ("one", 3.0),  # each (1, 1, 1) step is one square
        ("alternating", 5.0),  # 3 + floor((0 + 3 x 1.5) / 2): Foundry's 5-10-5 in 3D
        ("approximate", 5.25),  # 1.75 a cube diagonal
        ("rectilinear", 9.0),  # every offset counts
    ],
)
def test_a_flight_costs_its_steps_in_three_dimensions(diagonal: str, cost: float) -> None:
    hero = flier("hero", 2, 2, 0.0, movement=12.0)
    encounter = grid_fight(ogre(18, 18), hero, diagonal=diagonal)
    to_turn_of(encounter, "hero")
    path, heights = ((3, 3), (4, 4), (5, 5)), (1.0, 2.0, 3.0)
    events = encounter.apply(Move("alice", "hero", path, elevations=heights))
    completed = events[-1]
    assert isinstance(completed, MoveCompleted)
    assert (completed.at, completed.cost, completed.elevation) == ((5, 5), pytest.approx(cost), 3.0)


def test_terrain_prices_the_steps_on_the_ground_only() -> None:
    mud = (TerrainSpec("difficult", ((3.0, 0.0), (6.0, 0.0), (6.0, 10.0), (3.0, 10.0))),)
    encounter = grid_fight(ogre(18, 18), flier("hero", 2, 5, 0.0), terrain=mud)
    to_turn_of(encounter, "hero")
    path = ((3, 5), (4, 5), (5, 5))
    events = encounter.apply(Move("alice", "hero", path, elevations=(0.0, 1.0, 1.0)))
    # Onto the mud at the ground (2 m), then over it a layer up (1 m each).
    assert events[-1].cost == pytest.approx(4.0)  # type: ignore[attr-defined]


def test_a_token_its_game_gives_no_flight_stays_on_the_ground() -> None:
    walker = token("walker", 3, 3, owner="alice", init=5)
    encounter = grid_fight(ogre(18, 18), walker)
    to_turn_of(encounter, "walker")
    message = refused(
        encounter, Move("alice", "walker", ((4, 3),), elevations=(2.0,)), "illegal_move"
    )
    assert "no Flight" in message
    assert "cells: one each" in refused(
        encounter, Move("alice", "walker", ((4, 3), (5, 3)), elevations=(0.0,)), "illegal_move"
    )
    events = encounter.apply(Move("alice", "walker", ((4, 3),), elevations=(0.0,)))
    assert events[-1].kind == "move_completed"  # type: ignore[attr-defined]


def test_cyberpunk_red_climbs_on_a_grid_at_two_metres_a_metre() -> None:
    rex = replace(token("rex", 2, 2, owner="bob", reach=2.0), stats=(("move", 4), ("ref", 8)))
    goon = replace(token("goon", 15, 15), stats=(("move", 3), ("ref", 3)))
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(20, 20, 2.0), (rex, goon))))
    encounter.apply(StartCombat("gm", "cyberpunk-red", 7, None))
    to_turn_of(encounter, "rex")
    climb = Move("bob", "rex", ((2, 3),), elevations=(2.0,))
    assert "climb" in refused(encounter, climb, "illegal_move")
    events = encounter.apply(Move("bob", "rex", ((2, 3),), "climb", elevations=(2.0,)))
    completed = next(e for e in events if isinstance(e, MoveCompleted))
    # One square across and one layer up is one 2 m square under "one": 4 m climbing.
    assert (completed.cost, completed.elevation) == (4.0, 2.0)


def test_a_gridless_flight_flies_over_the_terrain_a_walk_pays_for() -> None:
    from tests.engine.test_gridless import at

    mud = TerrainSpec("difficult", ((6.0, 0.0), (12.0, 0.0), (12.0, 12.0), (6.0, 12.0)))
    hero = at(flier("hero", 0, 0, 0.0, movement=12.0), 5.5, 5.5)
    grid = GridSpec(20, 20, kind="gridless")
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(grid, (at(ogre(), 18.5, 18.5), hero), terrain=(mud,))))
    encounter.apply(StartCombat("gm", "hero-supplement", 7, None))
    to_turn_of(encounter, "hero")
    # Up 1 m to (6.5, 5.5), then 3 m at 1 m high over the mud, then down onto it.
    path, heights = ((6.5, 5.5), (9.5, 5.5), (10.5, 5.5)), (1.0, 1.0, 0.0)
    events = encounter.apply(Move("alice", "hero", path, elevations=heights))
    completed = events[-1]
    assert isinstance(completed, MoveCompleted)
    assert completed.cost == pytest.approx(2 * 2**0.5 + 3.0)


def test_a_flier_rises_in_place_and_leaves_the_threatened_square_doing_so() -> None:
    # Beside the ogre at the ground, straight up 2 m: it leaves (6, 5) at the ground
    # (threatened) on the first step and pays 2 squares of height.
    encounter = grid_fight(ogre(), flier("hero", 6, 5, 0.0))
    to_turn_of(encounter, "hero")
    up = Move("alice", "hero", ((6, 5), (7, 5)), elevations=(2.0, 2.0))
    interrupted, completed = _let_pass(encounter, up)
    assert (interrupted.at, interrupted.elevation) == ((6, 5), 0.0)
    assert (completed.at, completed.cost, completed.elevation) == ((7, 5), 3.0, 2.0)


def test_a_step_that_goes_nowhere_is_refused() -> None:
    encounter = grid_fight(ogre(18, 18), flier("hero", 6, 5, 1.0))
    to_turn_of(encounter, "hero")
    nowhere = Move("alice", "hero", ((6, 5),), elevations=(1.0,))
    # Level all along it is no flight: a walk, whose steps go to adjacent cells.
    assert "not between adjacent cells" in refused(encounter, nowhere, "illegal_move")
    still = Move("alice", "hero", ((7, 5), (7, 5)), elevations=(2.0, 2.0))
    assert "goes nowhere" in refused(encounter, still, "illegal_move")
    up = encounter.apply(Move("alice", "hero", ((6, 5),), elevations=(4.0,)))
    assert up[-1] == MoveCompleted("hero", (6, 5), 3.0, up[-1].movement_left, 4.0)  # type: ignore[union-attr]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11), st.integers(0, 3)), max_size=12),
    st.lists(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (0, 0)]),
             min_size=1, max_size=8),
    st.lists(st.integers(0, 4), min_size=8, max_size=8),
)  # fmt: skip
def test_the_walks_exits_name_every_threatener_a_flight_leaves(
    others: list[tuple[int, int, int]], steps: list[tuple[int, int]], layers: list[int]
) -> None:
    # Whoever threatens a square the flight leaves is among the exits of the same cells
    # walked on the ground (the index's one-pass scan): asking only them gives what
    # asking every area of every cell gives.
    from engine.grid_flight import cells_crossed, flight_exits, resolve_flight
    from engine.spatial import SpatialCache

    tokens = [flier("hero", 6, 6)]
    taken = {(6, 6)}
    for i, (x, y, up) in enumerate(others):
        if (x, y) not in taken:
            taken.add((x, y))
            reach = 2.0 if i % 3 == 0 else 1.0
            tokens.append(replace(token(f"t{i}", x, y, reach=reach), elevation=float(up)))
    cells, heights = [(6, 6)], [0.0]
    for (dx, dy), k in zip(steps, layers, strict=False):
        x, y = cells[-1][0] + dx, cells[-1][1] + dy
        if not (0 <= x < 12 and 0 <= y < 12) or ((dx, dy) == (0, 0) and k == heights[-1]):
            continue
        cells.append((x, y))
        heights.append(float(k))
    assume(len(cells) > 1)
    scene = Scene(GridSpec(12, 12), tuple(tokens))
    spatial = SpatialCache()
    index = spatial.index(scene)
    _, crossed = cells_crossed(tuple(cells), heights)
    walked = (
        index.resolve_move("hero", crossed, crossings=False).exits if len(crossed) > 1 else None
    )
    up, hero = spatial.elevations(scene), tokens[0]
    problem, hinted = resolve_flight(index, scene, hero, tuple(cells), heights, up, True, walked)
    assume(problem is None and hinted is not None)
    assert hinted.exits == flight_exits(index, up, hero, cells, heights)


def test_a_climb_within_its_layer_does_not_leave_the_square() -> None:
    # Beside the ogre, up half a metre on the spot (still the ground's 1 m layer), then
    # on: only the step off the square provokes, where the flier then is.
    encounter = grid_fight(ogre(), flier("hero", 6, 5, 0.0))
    to_turn_of(encounter, "hero")
    exits, _ = encounter.path_exits("hero", ((6, 5), (7, 5)), None, "alice", elevations=(0.5, 0.5))
    assert [(e.by, e.step, e.at) for e in exits] == [("ogre", 1, (6, 5))]
