"""Paths: validation, waypoints, first exits and swept-footprint crossings."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import union_all
from shapely.geometry import LineString

from geometry import (
    CrossingKind,
    DiagonalRule,
    GeometryError,
    HexGrid,
    SquareGrid,
    Wall,
    WallSet,
    crossings,
    first_exits,
    threatened_cells,
    trace_waypoints,
    validate_path,
)
from geometry.terrain import CostRule, TerrainKind, TerrainMap, TerrainRegion

Cell = tuple[int, int]
LEAVE, ENTER = CrossingKind.LEAVE, CrossingKind.ENTER


def pillar(x: int, y: int) -> list[Wall]:
    return [
        Wall((x, y), (x + 1, y)),
        Wall((x + 1, y), (x + 1, y + 1)),
        Wall((x + 1, y + 1), (x, y + 1)),
        Wall((x, y + 1), (x, y)),
    ]


def test_validate_path_keeps_the_original_contract() -> None:
    grid = SquareGrid(10, 10)
    assert validate_path(grid, [(0, 0), (1, 1), (2, 1)]) == 2.0
    with pytest.raises(GeometryError, match=r"\(10, 0\)"):
        validate_path(grid, [(9, 0), (10, 0)])
    with pytest.raises(GeometryError, match="not between adjacent"):
        validate_path(grid, [(0, 0), (2, 0)])
    with pytest.raises(GeometryError, match="start cell"):
        validate_path(grid, [(0, 0)])


def test_first_exits_keeps_the_original_contract() -> None:
    grid = SquareGrid(10, 10)
    area = threatened_cells(grid, (3, 3), 1, 1.0)
    exits = first_exits(grid, [(2, 2), (2, 3), (1, 3)], {"orc": area, "none": frozenset()})
    assert [(e.area_id, e.step, e.cell, e.point) for e in exits] == [("orc", 0, (2, 2), (2.5, 3.0))]


@pytest.mark.parametrize(
    ("path", "walls", "message"),
    [
        ([(0, 0), (1, 0)], [Wall((1, 0), (1, 1))], "step 0"),  # straight through a wall
        ([(0, 0), (1, 1)], pillar(1, 0) + pillar(0, 1), "step 0"),  # squeeze between pillars
        ([(0, 0), (0, 1), (1, 1)], [Wall((1, 1), (1, 2))], "step 1"),  # second step blocked
    ],
)
def test_validate_path_refuses_walls(path: list[Cell], walls: list[Wall], message: str) -> None:
    with pytest.raises(GeometryError, match=message):
        validate_path(SquareGrid(5, 5), path, walls=WallSet(walls))


def test_three_by_three_token_moving_diagonally_past_a_pillar() -> None:
    grid = SquareGrid(12, 12)
    walls = WallSet(pillar(5, 5))
    # the token's bottom-right cell grazes the pillar's corner: allowed
    assert validate_path(grid, [(1, 1), (2, 2)], walls=walls, size=3) == 1.0
    # one further and its corner cell would step into the pillar
    with pytest.raises(GeometryError, match="blocked"):
        validate_path(grid, [(1, 1), (2, 2), (3, 3)], walls=walls, size=3)
    # sliding past it diagonally on the other side touches only the corner
    assert validate_path(grid, [(6, 1), (7, 2)], walls=walls, size=3) == 1.0


def test_terrain_under_the_whole_footprint() -> None:
    grid = SquareGrid(10, 10, 2.0)
    from shapely.geometry import box

    water = TerrainRegion(box(6, 0, 8, 20), TerrainKind.WATER)  # the column x=3
    terrain = TerrainMap([water], CostRule.cyberpunk_red(), grid)
    # one-square mover: only the step into the river costs double (swim, 2 m per 1 m)
    assert validate_path(grid, [(1, 0), (2, 0), (3, 0), (4, 0)], terrain=terrain) == 2 + 4 + 2
    # a 2x2 mover with one column in the water swims on that step too
    assert validate_path(grid, [(0, 0), (1, 0), (2, 0)], terrain=terrain, size=2) == 2 + 4


def test_ends_on_a_legal_cell() -> None:
    grid = SquareGrid(5, 5)
    with pytest.raises(GeometryError, match="occupied"):
        validate_path(grid, [(0, 0), (1, 0)], occupied=frozenset({(1, 0)}))
    with pytest.raises(GeometryError, match="off the"):
        validate_path(grid, [(3, 3), (4, 4)], size=2)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # leaves and re-enters the same threatened area
        (
            [(4, 4), (5, 4), (5, 3), (5, 2), (5, 1), (4, 1), (3, 1), (3, 2)],
            [("ogre", LEAVE, 0), ("ogre", ENTER, 6)],
        ),
        # passes right through: enter then leave, although it ends outside
        (
            [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2)],
            [("ogre", ENTER, 1), ("ogre", LEAVE, 4)],
        ),
        # grazes a threatened corner: the diagonal step passes the point (2, 2) only
        ([(0, 3), (1, 2), (2, 1), (3, 0)], []),
        # steps into a threatened corner cell and straight back out
        ([(1, 1), (2, 2), (1, 1)], [("ogre", ENTER, 0), ("ogre", LEAVE, 1)]),
    ],
)
def test_crossings_edge_cases(
    path: list[Cell], expected: list[tuple[str, CrossingKind, int]]
) -> None:
    grid = SquareGrid(8, 8)
    area = threatened_cells(grid, (3, 3), 1, 1.0)  # the ogre at (3, 3): cells 2..4 x 2..4
    got = [(c.area_id, c.kind, c.step) for c in crossings(grid, path, {"ogre": area})]
    assert got == expected


def test_crossing_point_is_where_the_swept_footprint_meets_the_area() -> None:
    # The footprint centre crosses the area grown by (size - 1) / 2 cells at the midpoint.
    grid = SquareGrid(20, 20)
    area = threatened_cells(grid, (10, 10), 1, 1.0)
    for size in (1, 2, 3):
        path = trace_waypoints(grid, [(2, 3), (15, 12), (14, 2)])
        found = crossings(grid, path, {"a": area}, size=size)
        assert found
        grown = union_all([grid.cell_polygon(c) for c in area]).buffer(
            (size - 1) / 2, join_style="mitre"
        )
        for c in found:
            a = grid.footprint_center(path[c.step], size)
            b = grid.footprint_center(path[c.step + 1], size)
            hit = LineString([a, b]).intersection(grown.boundary)
            assert hit.distance(__import__("shapely").Point(c.point)) < 1e-9


@settings(max_examples=50, deadline=None)
@given(
    waypoints=st.lists(st.tuples(st.integers(0, 19), st.integers(0, 19)), min_size=2, max_size=5),
    rule=st.sampled_from(list(DiagonalRule)),
)
def test_traced_waypoints_are_adjacent_steps(waypoints: list[Cell], rule: DiagonalRule) -> None:
    grid = SquareGrid(20, 20, diagonal=rule)
    path = trace_waypoints(grid, waypoints)
    assert all(grid.adjacent(a, b) for a, b in pairwise(path) if a != b)
    for w in waypoints:
        assert w in path
    hexes = HexGrid(20, 20)
    hpath = trace_waypoints(hexes, waypoints)
    assert all(hexes.adjacent(a, b) for a, b in pairwise(hpath) if a != b)


def test_first_exits_with_a_large_mover() -> None:
    grid = SquareGrid(10, 10)
    area = frozenset({(4, 4)})
    exits = first_exits(grid, [(3, 3), (2, 3)], {"a": area}, size=2)
    assert [(e.step, e.cell, e.point) for e in exits] == [(0, (4, 4), (3.5, 4.0))]
