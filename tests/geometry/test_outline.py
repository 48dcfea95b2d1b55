"""``geometry.outline``: the rings around a set of cells, filled even-odd, cover exactly
the union of the cells' own polygons, on square grids and every hex layout."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import union_all
from shapely.geometry import Polygon

from geometry.grid import Grid
from geometry.hexgrid import HexGrid, HexOrientation, HexParity
from geometry.outline import outline
from geometry.square import SquareGrid

GRIDS: list[Grid] = [
    SquareGrid(12, 12, 1.5),
    *(
        HexGrid(12, 12, 2.0, "m", orientation, parity)
        for orientation in HexOrientation
        for parity in HexParity
    ),
]
CELLS = st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), min_size=1, max_size=60)


def even_odd(rings: tuple[tuple[tuple[float, float], ...], ...]) -> Polygon:
    """What an even-odd fill of ``rings`` covers."""
    shape = Polygon()
    for ring in rings:
        shape = shape.symmetric_difference(Polygon(ring))
    return shape


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: getattr(g, "orientation", "square"))
@settings(max_examples=60, deadline=None)
@given(cells=CELLS)
def test_the_rings_cover_exactly_the_cells(grid: Grid, cells: set[tuple[int, int]]) -> None:
    rings = outline(grid, cells)
    union = union_all([grid.cell_polygon(c) for c in cells])
    assert even_odd(rings).symmetric_difference(union).area < 1e-9
    for ring in rings:
        assert len(ring) >= 3 and len(set(ring)) >= 3


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        # one square: its four corners
        ({(2, 3)}, [[(3.0, 4.5), (4.5, 4.5), (4.5, 6.0), (3.0, 6.0)]]),
        # a row of three: still four corners, no vertex where cells meet
        ({(0, 0), (1, 0), (2, 0)}, [[(0.0, 0.0), (4.5, 0.0), (4.5, 1.5), (0.0, 1.5)]]),
        # a ring of eight around a hole: an outer ring and the hole's
        (
            {(c, r) for c in range(3) for r in range(3)} - {(1, 1)},
            [
                [(0.0, 0.0), (4.5, 0.0), (4.5, 4.5), (0.0, 4.5)],
                [(1.5, 1.5), (3.0, 1.5), (3.0, 3.0), (1.5, 3.0)],
            ],
        ),
        # two squares touching at a corner only: two squares' worth of area
        ({(0, 0), (1, 1)}, None),
    ],
)
def test_square_outlines(
    cells: set[tuple[int, int]], expected: list[list[tuple[float, float]]] | None
) -> None:
    grid = SquareGrid(6, 6, 1.5)
    rings = outline(grid, cells)
    assert even_odd(rings).area == pytest.approx(len(cells) * 1.5**2)
    if expected is not None:
        assert sorted(sorted(r) for r in rings) == sorted(sorted(r) for r in expected)


def test_no_cells_no_rings() -> None:
    assert outline(SquareGrid(3, 3), set()) == ()
