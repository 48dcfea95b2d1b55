"""3D distance with elevation: Foundry v13's ruler on squares and hexes, straight line
gridless; at equal elevation every rule is the 2D distance (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import DiagonalRule, HexGrid, SquareGrid, threatened_cells
from geometry.elevation import (
    cell_distance_3d,
    flight_step_costs,
    gridless_distance,
    layer,
    threatened_at,
)

RULES = list(DiagonalRule)
coords = st.integers(0, 29)


@pytest.mark.parametrize(
    ("rule", "offset", "expected"),
    [
        # Foundry's worked values, in cells: (dx, dy, dk) sorted a >= b >= c.
        (DiagonalRule.ONE, (3, 1, 2), 3),  # EQUIDISTANT: the largest offset
        (DiagonalRule.APPROXIMATE, (3, 1, 2), 3 + 0.5 * 1 + 0.75 * 1),  # a, b - c, c
        (DiagonalRule.RECTILINEAR, (3, 1, 2), 6),
        (DiagonalRule.NONE, (3, 1, 2), 6),  # ILLEGAL: every axis step counted
        (DiagonalRule.ALTERNATING, (1, 1, 1), 1),  # one cube diagonal: 1.5 diagonals, floor 0
        (DiagonalRule.ALTERNATING, (2, 2, 2), 3),  # two: 3 diagonals counted, one "2"
        (DiagonalRule.ALTERNATING, (0, 0, 5), 5),  # straight up: no diagonal at all
        (DiagonalRule.ALTERNATING_2, (1, 1, 1), 2),  # the first diagonal already costs 2
        (DiagonalRule.ALTERNATING_2, (2, 0, 1), 3),
        (DiagonalRule.EUCLIDEAN, (2, 1, 2), 3),  # the straight line (README: reach)
    ],
)
def test_square_3d_foundry_rule(
    rule: DiagonalRule, offset: tuple[int, int, int], expected: float
) -> None:
    grid = SquareGrid(30, 30, 1.5, diagonal=rule)
    dx, dy, dk = offset
    got = cell_distance_3d(grid, (0, 0), (dx, dy), 0.0, dk * 1.5)
    assert got == pytest.approx(expected * 1.5)


def test_layer_floors_like_foundry() -> None:
    # Foundry floors elevation / distance with a 1e-8 nudge: 5 ft on 5 ft cells is layer 1,
    # 4.99 ft still the ground layer, a hair under 5 from rounding counts as 5.
    assert layer(5.0, 5.0) == 1
    assert layer(4.99, 5.0) == 0
    assert layer(5.0 - 1e-9, 5.0) == 1
    assert layer(-0.5, 5.0) == -1


def test_hex_3d_foundry_rule() -> None:
    grid = HexGrid(20, 20, 2.0)
    # 3 hexes away and 1 layer up: EQUIDISTANT max(3, 1) = 3; approximate 3.5.
    a, b = (5, 5), (8, 5)
    assert grid.steps(a, b) == 3
    assert cell_distance_3d(grid, a, b, 0.0, 2.0) == 6.0
    assert cell_distance_3d(grid, a, b, 0.0, 2.0, hex_rule=DiagonalRule.APPROXIMATE) == 7.0
    assert cell_distance_3d(grid, a, a, 0.0, 10.0) == 10.0


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(RULES),
    coords,
    coords,
    coords,
    coords,
    st.floats(-50, 50, allow_nan=False),
)
def test_equal_elevation_is_2d(
    rule: DiagonalRule, x0: int, y0: int, x1: int, y1: int, z: float
) -> None:
    grid = SquareGrid(30, 30, 1.0, diagonal=rule)
    assert cell_distance_3d(grid, (x0, y0), (x1, y1), z, z) == pytest.approx(
        grid.distance((x0, y0), (x1, y1))
    )


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(RULES), coords, coords, coords, coords, st.integers(-6, 6))
def test_3d_never_shorter_than_2d(
    rule: DiagonalRule, x0: int, y0: int, x1: int, y1: int, dk: int
) -> None:
    grid = SquareGrid(30, 30, 1.0, diagonal=rule)
    flat = grid.distance((x0, y0), (x1, y1))
    assert cell_distance_3d(grid, (x0, y0), (x1, y1), 0.0, float(dk)) >= flat - 1e-9


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(RULES), st.integers(1, 3), st.sampled_from([1.0, 2.0, 3.0]), st.integers(0, 4)
)
def test_threat_at_height(rule: DiagonalRule, size: int, reach: float, dk: int) -> None:
    grid = SquareGrid(30, 30, 1.0, diagonal=rule)
    origin = (12, 12)
    ground = threatened_cells(grid, origin, size, reach)
    feet = grid.footprint(origin, size)
    # The same elevation: the 2D set, exactly.
    assert threatened_at(grid, feet, ground, reach, 3.0, 3.0) == ground
    high = threatened_at(grid, feet, ground, reach, 0.0, float(dk))
    assert high <= ground
    for cell in ground:
        nearest = min(cell_distance_3d(grid, f, cell, 0.0, float(dk)) for f in feet)
        assert (cell in high) == (nearest - 0.5 < reach)


def test_flying_hero_out_of_ogre_reach() -> None:
    # The case: a hero 10 m above an ogre with 2 m reach is not threatened.
    grid = SquareGrid(30, 30, 1.0)
    feet = grid.footprint((10, 10), 1)
    ground = threatened_cells(grid, (10, 10), 1, 2.0)
    assert (11, 10) in ground
    assert threatened_at(grid, feet, ground, 2.0, 0.0, 10.0) == frozenset()
    # 2 m up (two layers): the neighbour is 2 squares away, 2 - 0.5 < 2: still in reach;
    # 3 m up it is 3 away, out of reach.
    assert (11, 10) in threatened_at(grid, feet, ground, 2.0, 0.0, 2.0)
    assert threatened_at(grid, feet, ground, 2.0, 0.0, 3.0) == frozenset()


def test_gridless_straight_line() -> None:
    assert gridless_distance((0, 0), (3, 0), 0.0, 4.0) == 5.0
    assert gridless_distance((1, 2), (4, 6), 7.0, 7.0) == math.dist((1, 2), (4, 6))


STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(RULES),
    st.lists(st.sampled_from(STEPS), min_size=1, max_size=12),
    st.floats(-3, 9),
)
def test_a_level_flight_costs_the_walk(
    rule: DiagonalRule, steps: list[tuple[int, int]], up: float
) -> None:
    grid = SquareGrid(30, 30, 1.0, diagonal=rule)
    cells = [(15, 15)]
    for dx, dy in steps:
        nxt = (cells[-1][0] + dx, cells[-1][1] + dy)
        if grid.adjacent(cells[-1], nxt):
            cells.append(nxt)
    costs = flight_step_costs(grid, cells, [up] * len(cells))
    assert sum(costs) == pytest.approx(grid.path_cost(cells))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(RULES),
    st.sampled_from(STEPS),
    st.sampled_from([-2, -1, 1, 2]),
    st.integers(1, 8),
    st.sampled_from([1.0, 1.5]),
)
def test_a_straight_flight_costs_foundrys_3d_distance(
    rule: DiagonalRule, step: tuple[int, int], dk: int, n: int, cell: float
) -> None:
    # n equal steps (dx, dy, dk layers) cost what Foundry's ruler measures end to end.
    grid = SquareGrid(30, 30, cell, diagonal=rule)
    cells = [(10 + step[0] * i, 10 + step[1] * i) for i in range(n + 1)]
    heights = [(20 + dk * i) * cell for i in range(n + 1)]
    total = sum(flight_step_costs(grid, cells, heights))
    end_to_end = cell_distance_3d(grid, cells[0], cells[-1], heights[0], heights[-1])
    assert total == pytest.approx(end_to_end)


def test_a_hex_flight_steps_count_the_larger_offset() -> None:
    grid = HexGrid(10, 10, 1.0)
    cells = [(2, 2), (3, 2), (4, 2)]
    assert flight_step_costs(grid, cells, [0.0, 2.0, 2.5]) == [2.0, 1.0]
