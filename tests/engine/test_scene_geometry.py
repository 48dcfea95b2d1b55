"""The engine on real maps: walls, doors, terrain, hex grids, large tokens, diagonal rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    AnswerPrompt,
    CommandRejected,
    Encounter,
    GridSpec,
    LoadScene,
    Move,
    Scene,
    SetDoor,
    StartCombat,
    TerrainSpec,
    WallSpec,
)
from engine.events import DoorChanged, MoveCompleted
from engine.spatial import SpatialCache, build_index
from tests.engine.helpers import kinds, token


def encounter_on(scene: Scene, *, combat: bool = True) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", scene))
    if combat:
        encounter.apply(StartCombat("gm", "hero-supplement", 3))
    return encounter


OGRE = token("ogre", 5, 5, init=1)
HERO = token("hero", 4, 5, owner="alice", init=9)


def test_a_wall_blocks_a_step() -> None:
    # A wall along x = 4 between rows 3 and 8: the hero at (4,5) cannot step west.
    wall = WallSpec("w1", (4.0, 3.0), (4.0, 8.0))
    encounter = encounter_on(Scene(GridSpec(12, 12), (OGRE, HERO), walls=(wall,)))
    before = encounter.state
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(Move("alice", "hero", ((3, 5),)))
    assert refusal.value.code == "illegal_move" and "wall" in refusal.value.message
    assert encounter.state == before


def test_no_threat_through_a_wall() -> None:
    # The ogre at (5,5) and the hero at (4,5) with a wall between them: no attack of
    # opportunity when the hero walks away north.
    wall = WallSpec("w1", (5.0, 3.0), (5.0, 8.0))
    encounter = encounter_on(Scene(GridSpec(12, 12), (OGRE, HERO), walls=(wall,)))
    events = encounter.apply(Move("alice", "hero", ((4, 4), (4, 3))))
    assert kinds(events) == ["move_started", "move_completed"]


def test_a_window_blocks_moving_but_not_threat() -> None:
    window = WallSpec("w1", (5.0, 3.0), (5.0, 8.0), blocks_move=True, blocks_sight=False)
    encounter = encounter_on(Scene(GridSpec(12, 12), (OGRE, HERO), walls=(window,)))
    events = encounter.apply(Move("alice", "hero", ((4, 4), (4, 3))))
    # A wall that blocks movement blocks melee reach too (geometry's rule).
    assert "prompt_opened" not in kinds(events)


def test_doors_open_and_close_and_the_index_follows() -> None:
    door = WallSpec("d1", (4.0, 3.0), (4.0, 8.0), door="closed")
    encounter = encounter_on(Scene(GridSpec(12, 12), (OGRE, HERO), walls=(door,)), combat=False)
    with pytest.raises(CommandRejected):
        encounter.apply(Move("alice", "hero", ((3, 5),)))
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(SetDoor("alice", "d1", True))
    assert refusal.value.code == "gm_only"
    assert encounter.apply(SetDoor("gm", "d1", True)) == [DoorChanged("d1", True)]
    encounter.apply(Move("alice", "hero", ((3, 5),)))
    encounter.apply(SetDoor("gm", "d1", False))
    with pytest.raises(CommandRejected):
        encounter.apply(Move("alice", "hero", ((4, 5),)))
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(SetDoor("gm", "nope", True))
    assert refusal.value.code == "unknown_door"


def test_difficult_terrain_costs_double_under_the_footprint() -> None:
    mud = TerrainSpec("difficult", ((0.0, 0.0), (12.0, 0.0), (12.0, 4.0), (0.0, 4.0)))
    hero = token("hero", 0, 6, owner="alice", init=9, movement=3.0)
    encounter = encounter_on(
        Scene(GridSpec(12, 12), (hero, token("ogre", 11, 11, init=1)), terrain=(mud,))
    )
    # Two steps into the mud (rows 4 and 5 are dry; row 3 is mud): 1 + 1 + 2 = 4 m.
    events = encounter.apply(Move("alice", "hero", ((0, 5), (0, 4), (0, 3))))
    done = events[-1]
    assert isinstance(done, MoveCompleted) and done.cost == 4.0 and done.movement_left == 2.0


def test_impassable_terrain_refuses_the_move() -> None:
    pit = TerrainSpec("impassable", ((3.0, 3.0), (4.0, 3.0), (4.0, 4.0), (3.0, 4.0)))
    encounter = encounter_on(
        Scene(GridSpec(8, 8), (token("hero", 2, 3, owner="alice", init=9),), terrain=(pit,))
    )
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(Move("alice", "hero", ((3, 3),)))
    assert refusal.value.code == "illegal_move"


@pytest.mark.parametrize(
    ("diagonal", "cost"),
    [
        ("one", 3.0),  # every diagonal one square (Hero supplement, Cyberpunk RED)
        ("alternating", 4.0),  # 1-2-1
        ("euclidean", pytest.approx(3 * 2**0.5)),  # exact length
    ],
)
def test_diagonal_rules_price_three_diagonal_steps(diagonal: str, cost: object) -> None:
    hero = token("hero", 0, 0, owner="alice", init=9)
    encounter = encounter_on(
        Scene(GridSpec(10, 10, diagonal=diagonal), (hero, token("ogre", 9, 9, init=1)))
    )
    done = encounter.apply(Move("alice", "hero", ((1, 1), (2, 2), (3, 3))))[-1]
    assert isinstance(done, MoveCompleted) and done.cost == cost


def test_no_diagonals_refuses_a_diagonal_step() -> None:
    hero = token("hero", 0, 0, owner="alice", init=9)
    encounter = encounter_on(Scene(GridSpec(10, 10, diagonal="none"), (hero,)))
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(Move("alice", "hero", ((1, 1),)))
    assert refusal.value.code == "illegal_move"


@pytest.mark.parametrize("kind", ["hex_pointy", "hex_flat"])
def test_attacks_of_opportunity_on_hex_grids(kind: str) -> None:
    ogre = token("ogre", 5, 5, init=1)
    grid = GridSpec(12, 12, kind=kind)
    neighbour = sorted(grid.build().neighbours((5, 5)))[0]
    away = next(
        c for c in grid.build().neighbours(neighbour) if grid.build().distance(c, (5, 5)) == 2
    )
    hero = token("hero", neighbour[0], neighbour[1], owner="alice", init=9)
    encounter = encounter_on(Scene(grid, (ogre, hero)))
    events = encounter.apply(Move("alice", "hero", (away,)))
    assert kinds(events) == ["move_started", "move_interrupted", "prompt_opened"]
    events = encounter.apply(AnswerPrompt("gm", "p1", False))
    assert isinstance(events[-1], MoveCompleted) and events[-1].at == away


def test_a_large_token_provokes_when_any_of_its_squares_leaves_reach() -> None:
    # A 2x2 troll at (5,4)-(6,5) beside the ogre at (4,4): its west column is threatened.
    troll = token("troll", 5, 4, owner="alice", init=9, size=2)
    encounter = encounter_on(Scene(GridSpec(14, 14), (token("ogre", 4, 4, init=1), troll)))
    events = encounter.apply(Move("alice", "troll", ((6, 4), (7, 4))))
    assert "prompt_opened" in kinds(events)


tokens_positions = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 11), st.integers(0, 11)), max_size=12
)


@settings(max_examples=40, deadline=None)
@given(moves=tokens_positions, doors=st.lists(st.booleans(), max_size=6))
def test_the_incremental_index_always_equals_a_fresh_one(
    moves: list[tuple[int, int, int]], doors: list[bool]
) -> None:
    tokens = (
        token("a", 0, 0, reach=2.0),
        token("b", 6, 6, owner="alice"),
        token("c", 11, 0, size=1),
    )
    door = WallSpec("d", (6.0, 0.0), (6.0, 12.0), door="closed")
    scene = Scene(GridSpec(12, 12), tokens, walls=(door,))
    cache = SpatialCache()
    for step, (which, x, y) in enumerate(moves):
        moved = scene.tokens[which].moved_to((x, y))
        scene = scene.with_token(moved)
        # Tokens may share a cell here: the engine does so for a mover paused in an
        # ally's square, and the index must then list them as a fresh one does.
        if step < len(doors):
            scene = scene.with_wall(
                WallSpec("d", (6.0, 0.0), (6.0, 12.0), door="open" if doors[step] else "closed")
            )
        cached, fresh = cache.index(scene), build_index(scene)
        for t in scene.tokens:
            assert cached.threatened(t.id) == fresh.threatened(t.id)
        for cell in ((x, y) for x in range(12) for y in range(12)):
            assert cached.occupants(cell) == fresh.occupants(cell)
            assert cached.areas_at(cell) == fresh.areas_at(cell)


def test_the_cache_survives_two_tokens_trading_places() -> None:
    a, b = token("a", 1, 1), token("b", 2, 1, owner="alice")
    scene = Scene(GridSpec(6, 6), (a, b))
    cache = SpatialCache()
    cache.index(scene)
    swapped = scene.with_token(a.moved_to((2, 1))).with_token(b.moved_to((1, 1)))
    index = cache.index(swapped)
    assert index.occupant((2, 1)) == "a" and index.occupant((1, 1)) == "b"


def test_the_cheapest_path_goes_around_walls_and_enemies_within_the_budget() -> None:
    # A wall along x = 5 from y = 0 to 8 and an enemy at (3, 9): the way round is south.
    wall = WallSpec("w1", (5.0, 0.0), (5.0, 8.0))
    hero = token("hero", 3, 4, owner="alice", init=9, movement=6.0)
    encounter = encounter_on(
        Scene(GridSpec(12, 12), (hero, token("ogre", 4, 9, init=1)), walls=(wall,))
    )
    before = encounter.state
    plan = encounter.plan_path("hero", (7, 4), "alice")
    assert plan.reason is None and plan.budget == 12.0
    assert plan.path[-1] == (7, 4) and all(cell != (4, 9) for cell in plan.path)
    assert plan.cost == len(plan.path)  # every step one square, diagonals too
    events = encounter.apply(Move("alice", "hero", plan.path))  # the plan is a legal move
    if kinds(events)[-1] == "prompt_opened":  # it passes the ogre's reach: let it go
        events = encounter.apply(AnswerPrompt("gm", "p1", False))
    assert isinstance(events[-1], MoveCompleted) and events[-1].at == (7, 4)
    assert encounter.state != before
    short = encounter_on(
        Scene(
            GridSpec(12, 12),
            (token("hero", 3, 4, owner="alice", init=9, movement=2.0),),
            walls=(wall,),
        )
    )
    plan = short.plan_path("hero", (7, 4), "alice")
    assert plan.path == () and plan.reason == "no open path within 4 m"
    assert short.plan_path("hero", (7, 4), "bob").reason == "'bob' does not control token 'hero'"
