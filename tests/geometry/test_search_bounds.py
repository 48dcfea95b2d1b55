"""A path search's work is bounded by its budget, never by the map or the goal.

An untrusted ``ask_path`` runs :func:`geometry.search.cheapest_path`; these check the
bound by counting expanded positions (``SearchStats``), never by timing, and that the
fast steps for one-cell tokens find exactly what the general steps find.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from geometry import (
    DiagonalRule,
    Door,
    SquareGrid,
    StepBlocker,
    TerrainKind,
    TerrainMap,
    TerrainRegion,
    Wall,
    WallSet,
)
from geometry.path import step_blocked
from geometry.search import SearchStats, cheapest_path


def walled_box(x0: float, y0: float, x1: float, y1: float) -> list[Wall]:
    """Four walls closing the rectangle: nothing gets in or out."""
    return [
        Wall((x0, y0), (x1, y0)),
        Wall((x1, y0), (x1, y1)),
        Wall((x1, y1), (x0, y1)),
        Wall((x0, y1), (x0, y0)),
    ]


def enclosed_search(side: int, budget: float) -> SearchStats:
    """Search from (5, 5) for a goal walled in at (20, 20) on a ``side``-square grid."""
    grid = SquareGrid(side, side)
    stats = SearchStats()
    walls = StepBlocker(grid, WallSet(walled_box(18, 18, 23, 23)))
    assert cheapest_path(grid, (5, 5), (20, 20), budget=budget, walls=walls, stats=stats) is None
    return stats


def test_an_unreachable_goal_costs_the_same_on_any_map() -> None:
    small, large = enclosed_search(60, 30.0), enclosed_search(1000, 30.0)
    assert small.expanded == large.expanded
    # Only positions on some path of at most 30 between start and goal are expanded:
    # with the one-diagonal rule that is inside a 31 x 31 square at most.
    assert 0 < large.expanded <= 31 * 31


def test_a_goal_beyond_the_budget_is_refused_before_any_search() -> None:
    grid = SquareGrid(1000, 1000)
    stats = SearchStats()
    assert cheapest_path(grid, (0, 0), (999, 999), budget=6.0, stats=stats) is None
    assert stats.expanded == 0


def test_the_expansion_cap_holds_whatever_the_budget() -> None:
    grid = SquareGrid(1000, 1000)
    walls = StepBlocker(grid, WallSet(walled_box(500, 500, 503, 503)))
    stats = SearchStats()
    found = cheapest_path(grid, (0, 0), (501, 501), walls=walls, max_expansions=500, stats=stats)
    assert found is None
    assert stats.expanded == 500


def test_the_budget_bound_keeps_the_cheapest_path() -> None:
    # Pruning by lower bound must never lose a path that fits the budget exactly.
    grid = SquareGrid(20, 20)
    walls = WallSet([Wall((5, 0), (5, 8))])
    around = cheapest_path(grid, (2, 2), (8, 2), walls=walls)
    assert around is not None
    found = cheapest_path(grid, (2, 2), (8, 2), walls=walls, budget=around[1])
    assert found == around
    assert around[1] > 6  # the wall makes it longer than the open-ground bound
    assert cheapest_path(grid, (2, 2), (8, 2), walls=walls, budget=around[1] - 0.5) is None


coords = st.tuples(st.integers(0, 11), st.integers(0, 11))
wall_strategy = st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12), st.integers(0, 12)),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(
    start=coords,
    goal=coords,
    walls=wall_strategy,
    mud=st.one_of(st.none(), st.tuples(st.integers(0, 10), st.integers(0, 10))),
    rule=st.sampled_from(list(DiagonalRule)),
    enemies=st.frozensets(coords, max_size=8),
    budget=st.one_of(st.just(float("inf")), st.floats(0, 30)),
)
def test_fast_steps_find_what_the_general_steps_find(
    start: tuple[int, int],
    goal: tuple[int, int],
    walls: list[tuple[int, int, int, int]],
    mud: tuple[int, int] | None,
    rule: DiagonalRule,
    enemies: frozenset[tuple[int, int]],
    budget: float,
) -> None:
    # A WallSet takes the general steps, its StepBlocker the fast ones: the same
    # search must come out the same, path and cost, tie-breaks included.
    grid = SquareGrid(12, 12, diagonal=rule)
    wall_set = WallSet([Wall((a, b), (c, d)) for a, b, c, d in walls if (a, b) != (c, d)])
    terrain = None
    if mud is not None:
        region = TerrainRegion(box(mud[0], mud[1], mud[0] + 3, mud[1] + 2), TerrainKind.DIFFICULT)
        terrain = TerrainMap([region], grid=grid)
    impassable = enemies - {start}
    general = cheapest_path(
        grid, start, goal, budget=budget, walls=wall_set, terrain=terrain, impassable=impassable
    )
    fast = cheapest_path(
        grid,
        start,
        goal,
        budget=budget,
        walls=StepBlocker(grid, wall_set),
        terrain=terrain,
        impassable=impassable,
    )
    assert fast == general


@settings(max_examples=120, deadline=None)
@given(
    walls=st.lists(
        st.tuples(
            st.floats(0, 12, allow_nan=False),
            st.floats(0, 12, allow_nan=False),
            st.floats(0, 12, allow_nan=False),
            st.floats(0, 12, allow_nan=False),
        ),
        min_size=1,
        max_size=6,
    ),
    rule=st.sampled_from(list(DiagonalRule)),
    toggles=st.lists(st.integers(0, 5), max_size=3),
)
def test_the_step_blocker_agrees_with_the_step_rule(
    walls: list[tuple[float, float, float, float]],
    rule: DiagonalRule,
    toggles: list[int],
) -> None:
    # Rasters on square grids, the per-step rule of geometry.path for reference: every
    # step of the grid, with doors (every other barrier) opened and closed again.
    grid = SquareGrid(10, 10, diagonal=rule)
    barriers: dict[str, Wall | Door] = {}
    for i, (a, b, c, d) in enumerate(walls):
        if (a, b) != (c, d):
            barriers[str(i)] = Door((a, b), (c, d)) if i % 2 else Wall((a, b), (c, d))
    wall_set = WallSet(barriers)
    blocker = StepBlocker(grid, wall_set)
    doors = [wid for wid, b in barriers.items() if isinstance(b, Door)]
    for toggle in [None, *toggles]:
        if toggle is not None and doors:
            door = doors[toggle % len(doors)]
            barrier = wall_set.get(door)
            assert isinstance(barrier, Door)
            wall_set.set_door(door, not barrier.is_open)
            blocker.refresh([door])
        for a in grid.cells():
            for b in grid.neighbours(a):
                # Each step is judged from its smaller end and holds both ways (the
                # per-step rule can differ by direction where a segment only touches a
                # wall's end: the blocker has always read it from the smaller end).
                first, second = min(a, b), max(a, b)
                expected = step_blocked(grid, wall_set, first, second)
                assert blocker.blocked(a, b) == expected, (a, b)
