"""Threatened cells: the written rule, monotony in reach, symmetry, walls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import contains_xy

from geometry import (
    DiagonalRule,
    HexGrid,
    HexOrientation,
    HexParity,
    SquareGrid,
    Wall,
    WallSet,
    footprint_cells,
    reach_area,
    threatened_cells,
)
from geometry.reach import footprint_polygon, reach_pairs

Cell = tuple[int, int]


def original_rule(grid: SquareGrid, origin: Cell, size: int, reach: float) -> frozenset[Cell]:
    """The seed implementation: centres strictly inside the footprint grown with mitres."""
    area = (
        footprint_polygon(grid, origin, size).buffer(reach, join_style="mitre")
        if reach
        else (footprint_polygon(grid, origin, size))
    )
    own = footprint_cells(origin, size)
    out = set()
    for x in range(grid.width):
        for y in range(grid.height):
            c = grid.center((x, y))
            if (x, y) not in own and contains_xy(area, c[0], c[1]):
                out.add((x, y))
    return frozenset(out)


@settings(max_examples=60, deadline=None)
@given(
    x=st.integers(0, 11),
    y=st.integers(0, 11),
    size=st.integers(1, 3),
    reach=st.sampled_from([0.0, 0.5, 1.0, 1.5, 1.6, 2.0, 2.4, 3.0]),
    cell_size=st.sampled_from([1.0, 2.0, 1.5]),
)
def test_default_rule_matches_the_original_implementation(
    x: int, y: int, size: int, reach: float, cell_size: float
) -> None:
    grid = SquareGrid(12, 12, cell_size)
    r = reach * cell_size
    assert threatened_cells(grid, (x, y), size, r) == original_rule(grid, (x, y), size, r)


def written_rule(grid: SquareGrid, origin: Cell, size: int, reach: float) -> dict[Cell, set[Cell]]:
    """Rules 1-2 of ``geometry.reach`` cell by cell over the whole grid: each reached
    cell and the footprint cells it is within reach of."""
    own = footprint_cells(origin, size)
    out: dict[Cell, set[Cell]] = {}
    for x in range(grid.width):
        for y in range(grid.height):
            near = {f for f in own if grid.distance(f, (x, y)) - grid.cell_size / 2 < reach}
            if (x, y) not in own and near:
                out[(x, y)] = near
    return out


@settings(max_examples=150, deadline=None)
@given(
    rule=st.sampled_from(list(DiagonalRule)),
    x=st.integers(0, 9),
    y=st.integers(0, 9),
    size=st.integers(1, 3),
    reach=st.floats(0, 4),
    cell_size=st.sampled_from([1.0, 2.0, 1.5]),
)
def test_cached_offsets_match_the_written_rule_everywhere(
    rule: DiagonalRule, x: int, y: int, size: int, reach: float, cell_size: float
) -> None:
    # Square grids work reach out once per (rule, cell size, size, reach) as offsets and
    # translate them; near an edge they are clipped.  Both must equal the rule itself.
    grid = SquareGrid(10, 10, cell_size, diagonal=rule)
    expected = written_rule(grid, (x, y), size, reach * cell_size)
    assert threatened_cells(grid, (x, y), size, reach * cell_size) == frozenset(expected)
    pairs = reach_pairs(grid, (x, y), size, reach * cell_size)
    assert {c: set(near) for c, near in pairs.items()} == expected


@pytest.mark.parametrize("rule", list(DiagonalRule))
@pytest.mark.parametrize("reach", [40.0, 3000.0, 1e9])
def test_a_reach_longer_than_the_map_costs_what_the_map_does(
    rule: DiagonalRule, reach: float
) -> None:
    # Offsets are cached only for areas of a creature's size; a reach of a thousand
    # squares must cost what the 12 x 12 map costs, not what the reach covers.
    grid = SquareGrid(12, 12, diagonal=rule)
    expected = written_rule(grid, (3, 4), 2, reach)
    assert threatened_cells(grid, (3, 4), 2, reach) == frozenset(expected)
    pairs = reach_pairs(grid, (3, 4), 2, reach)
    assert {c: set(near) for c, near in pairs.items()} == expected


@pytest.mark.parametrize(
    ("rule", "reach", "expected_count", "reached", "not_reached"),
    [
        (DiagonalRule.ONE, 1.0, 8, (1, 1), (2, 0)),  # 1 m reach: the eight neighbours
        (DiagonalRule.ONE, 2.0, 24, (2, 2), (3, 0)),  # every diagonal one square: full 5x5
        (DiagonalRule.ALTERNATING, 2.0, 20, (2, 1), (2, 2)),  # d20: far diagonal corner out
        (DiagonalRule.EUCLIDEAN, 2.0, 20, (2, 1), (2, 2)),  # 2.83 - 0.5 > 2
        (DiagonalRule.NONE, 1.0, 4, (1, 0), (1, 1)),  # no diagonals: no diagonal reach
        (DiagonalRule.ONE, 0.0, 0, None, (1, 0)),  # reach 0 threatens nothing
    ],
)
def test_reach_rule_per_diagonal_rule(
    rule: DiagonalRule,
    reach: float,
    expected_count: int,
    reached: Cell | None,
    not_reached: Cell,
) -> None:
    grid = SquareGrid(11, 11, diagonal=rule)
    cells = threatened_cells(grid, (5, 5), 1, reach)
    assert len(cells) == expected_count
    if reached is not None:
        assert (5 + reached[0], 5 + reached[1]) in cells
    assert (5 + not_reached[0], 5 + not_reached[1]) not in cells
    assert (5, 5) not in cells


SQUARE_GRIDS = [SquareGrid(15, 15, 1.0, diagonal=r) for r in DiagonalRule]
HEX_GRIDS = [
    HexGrid(15, 15, 1.0, orientation=o, parity=p) for o in HexOrientation for p in HexParity
]


@pytest.mark.parametrize("grid", SQUARE_GRIDS + HEX_GRIDS, ids=repr)
@given(size=st.sampled_from([1, 2, 3]), r1=st.floats(0, 4), r2=st.floats(0, 4))
@settings(max_examples=40, deadline=None)
def test_threatened_cells_grow_monotonically_with_reach(
    grid: SquareGrid | HexGrid, size: int, r1: float, r2: float
) -> None:
    lo, hi = sorted((r1, r2))
    assert threatened_cells(grid, (6, 6), size, lo) <= threatened_cells(grid, (6, 6), size, hi)


@pytest.mark.parametrize("rule", list(DiagonalRule))
@pytest.mark.parametrize("size", [1, 2, 3, 4])
@pytest.mark.parametrize("reach", [1.0, 2.0, 3.0, 2.5])
def test_large_square_token_is_symmetric(rule: DiagonalRule, size: int, reach: float) -> None:
    grid = SquareGrid(20, 20, diagonal=rule)
    origin = (8, 8)
    cells = threatened_cells(grid, origin, size, reach)
    # Reflect about both axes through the footprint's centre and swap the axes.
    c2 = 2 * origin[0] + size - 1
    for x, y in cells:
        assert (c2 - x, y) in cells
        assert (x, c2 - y) in cells
        assert (y, x) in cells
    # every corner of the footprint sees the same shape
    assert len({(x - origin[0], y - origin[1]) for x, y in cells}) == len(cells)


@pytest.mark.parametrize("grid", HEX_GRIDS, ids=repr)
@pytest.mark.parametrize(
    ("size", "reach", "count"), [(1, 1.0, 6), (1, 2.0, 18), (3, 1.0, 12), (2, 1.0, 9)]
)
def test_hex_token_reach_is_symmetric(grid: HexGrid, size: int, reach: float, count: int) -> None:
    origin = (7, 7)
    cells = threatened_cells(grid, origin, size, reach)
    assert len(cells) == count
    q0, r0, s0 = grid.to_cube(origin)
    if size == 2:
        return  # the three-hex token has only the symmetries of a triangle
    rel = {(q - q0, r - r0, s - s0) for q, r, s in (grid.to_cube(c) for c in cells)}
    # rotating by 60 degrees maps (q, r, s) to (-r, -s, -q)
    assert {(-r, -s, -q) for q, r, s in rel} == rel
    assert {(r, q, s) for q, r, s in rel} == rel  # and a reflection


@pytest.mark.parametrize(
    ("wall", "cell", "threatened"),
    [
        # a wall along the token's east edge: the east neighbour is behind it
        (Wall((6.0, 5.0), (6.0, 6.0)), (6, 5), False),
        # a token touching a wall that ends at its corner: north-east still reachable
        (Wall((6.0, 6.0), (6.0, 9.0)), (6, 4), True),
        # a window blocks movement only, but reach too (you cannot strike through it)
        (Wall((6.0, 5.0), (6.0, 6.0), blocks_sight=False), (6, 5), False),
        # a curtain blocks sight only: reach still stops at it
        (Wall((6.0, 5.0), (6.0, 6.0), blocks_move=False), (6, 5), False),
        # a wall that blocks nothing
        (Wall((6.0, 5.0), (6.0, 6.0), False, False), (6, 5), True),
    ],
)
def test_walls_cut_reach(wall: Wall, cell: Cell, threatened: bool) -> None:
    grid = SquareGrid(12, 12)
    cells = threatened_cells(grid, (5, 5), 1, 1.0, walls=WallSet([wall]))
    assert (cell in cells) is threatened


def test_diagonal_reach_squeezing_between_two_pillars_is_blocked() -> None:
    grid = SquareGrid(12, 12)
    pillars = []
    for px, py in ((6, 5), (5, 6)):  # pillars east and south of the token at (5, 5)
        pillars += [
            Wall((px, py), (px + 1, py)),
            Wall((px + 1, py), (px + 1, py + 1)),
            Wall((px + 1, py + 1), (px, py + 1)),
            Wall((px, py + 1), (px, py)),
        ]
    cells = threatened_cells(grid, (5, 5), 1, 1.0, walls=WallSet(pillars))
    assert (6, 6) not in cells
    one = threatened_cells(grid, (5, 5), 1, 1.0, walls=WallSet(pillars[:4]))
    assert (6, 6) in one  # one pillar: the diagonal grazes its corner


def test_reach_area_shapes() -> None:
    grid = SquareGrid(10, 10)
    assert reach_area(grid, (2, 2), 1, 1.0).bounds == (1.0, 1.0, 4.0, 4.0)
    round_grid = SquareGrid(10, 10, diagonal=DiagonalRule.EUCLIDEAN)
    assert reach_area(round_grid, (2, 2), 1, 1.0).area < 9.0
    alt = SquareGrid(10, 10, diagonal=DiagonalRule.ALTERNATING)
    assert reach_area(alt, (4, 4), 1, 2.0).area == 21.0
