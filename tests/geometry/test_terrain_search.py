"""Terrain costs (Cyberpunk RED, seed 001) and cheapest paths within a budget."""

from __future__ import annotations

import pytest
from shapely.geometry import box

from geometry import (
    CostRule,
    DiagonalRule,
    GeometryError,
    SquareGrid,
    TerrainKind,
    TerrainMap,
    TerrainRegion,
    Wall,
    WallSet,
    jump_cost,
    validate_path,
)
from geometry.search import cheapest_path, reachable


@pytest.mark.parametrize(
    ("kind", "per_metre"),
    [
        (TerrainKind.NORMAL, 1),  # walking or running: 1 m per 1 m
        (TerrainKind.WATER, 2),  # swimming: 2 m per 1 m
        (TerrainKind.CLIMBABLE, 2),  # climbing: 2 m per 1 m
        (TerrainKind.GAP, 2),  # running jump: 2 m per 1 m
    ],
)
def test_cyberpunk_red_costs(kind: TerrainKind, per_metre: float) -> None:
    assert CostRule.cyberpunk_red().multiplier(kind) == per_metre


def test_standing_jump_goes_half_as_far() -> None:
    assert jump_cost(2.0) == 4.0
    assert jump_cost(1.0, running=False) == jump_cost(2.0, running=True)
    assert CostRule.cyberpunk_red(standing_jump=True).multiplier(TerrainKind.GAP) == 4
    with pytest.raises(GeometryError, match="negative"):
        jump_cost(-1)


def test_cheapest_path_goes_around_walls_and_difficult_terrain() -> None:
    grid = SquareGrid(10, 10)
    walls = WallSet([Wall((5, 0), (5, 8))])  # a wall with a gap at the bottom
    found = cheapest_path(grid, (2, 2), (8, 2), walls=walls)
    assert found is not None
    path, cost = found
    assert validate_path(grid, path, walls=walls) == cost
    assert any(c[1] >= 8 for c in path)
    assert cheapest_path(grid, (2, 2), (8, 2), walls=walls, budget=6) is None


def test_cheapest_path_avoids_enemies_and_prices_terrain() -> None:
    grid = SquareGrid(7, 3)
    mud = TerrainMap([TerrainRegion(box(2, 0, 5, 3), TerrainKind.DIFFICULT)], grid=grid)
    direct = cheapest_path(grid, (0, 1), (6, 1), terrain=mud)
    assert direct is not None and direct[1] == 1 + 3 * 2 + 2  # three muddy squares cost double
    blocked = cheapest_path(grid, (0, 1), (6, 1), impassable=frozenset({(3, 0), (3, 1), (3, 2)}))
    assert blocked is None
    assert cheapest_path(grid, (0, 1), (6, 1), occupied=frozenset({(6, 1)})) is None


def test_alternating_diagonals_search_tracks_parity() -> None:
    grid = SquareGrid(10, 10, 5.0, "ft", DiagonalRule.ALTERNATING)
    found = cheapest_path(grid, (0, 0), (4, 4))
    assert found is not None and found[1] == 30  # 5 + 10 + 5 + 10
    spots = reachable(grid, (5, 5), 10.0)
    assert (7, 6) in spots and (7, 7) not in spots


def test_large_token_path_and_budget() -> None:
    grid = SquareGrid(8, 8)
    found = cheapest_path(grid, (0, 0), (5, 5), size=2, budget=5)
    assert found is not None and found[1] == 5
    assert all(len(grid.footprint(p, 2)) == 4 for p in found[0])
