"""Foundry VTT and Owlbear Rodeo hex grids: pixels of hex centres and round trips."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import GeometryError, HexOrientation, HexParity
from geometry.vtt_coords import FoundryHexScene, OwlbearHexScene

cells = st.tuples(st.integers(-50, 200), st.integers(-50, 200))
sizes = st.sampled_from([50.0, 100.0, 140.0, 73.5])
FOUNDRY_TYPES = [2, 3, 4, 5]


@pytest.mark.parametrize(
    ("grid_type", "orientation", "parity"),
    [
        (2, HexOrientation.POINTY, HexParity.ODD),  # hexOddR
        (3, HexOrientation.POINTY, HexParity.EVEN),  # hexEvenR
        (4, HexOrientation.FLAT, HexParity.ODD),  # hexOddQ
        (5, HexOrientation.FLAT, HexParity.EVEN),  # hexEvenQ
    ],
)
def test_foundry_grid_types(grid_type: int, orientation: HexOrientation, parity: HexParity) -> None:
    grid = FoundryHexScene(grid_type, 100, 5).grid(10, 10)
    assert (grid.orientation, grid.parity, grid.cell_size) == (orientation, parity, 5)


@pytest.mark.parametrize(
    ("grid_type", "cell", "px"),
    [
        # rows (pointy): x = (j + p) * size, y = (0.75 i + 0.5) * size * 2 / sqrt(3)
        (2, (0, 0), (0.0, 100 / math.sqrt(3))),  # odd-r, even row: not pushed
        (2, (0, 1), (50.0, 100 * 1.25 * 2 / math.sqrt(3))),  # odd-r, odd row: pushed
        (3, (0, 0), (50.0, 100 / math.sqrt(3))),  # even-r, even row: pushed
        (3, (2, 1), (200.0, 100 * 1.25 * 2 / math.sqrt(3))),  # even-r, odd row
        # columns (flat): x = (0.75 j + 0.5) * size * 2 / sqrt(3), y = (i + p) * size
        (4, (1, 0), (100 * 1.25 * 2 / math.sqrt(3), 50.0)),  # odd-q, odd column: pushed
        (5, (0, 3), (100 / math.sqrt(3), 350.0)),  # even-q, even column: pushed
    ],
)
def test_foundry_centre_pixels(
    grid_type: int, cell: tuple[int, int], px: tuple[float, float]
) -> None:
    assert FoundryHexScene(grid_type, 100, 5).center_px(cell) == pytest.approx(px)


@pytest.mark.parametrize("grid_type", FOUNDRY_TYPES)
@given(cell=cells, size=sizes)
def test_foundry_cell_to_pixels_to_cell(grid_type: int, cell: tuple[int, int], size: float) -> None:
    scene = FoundryHexScene(grid_type, size, 1.5)
    grid = scene.grid(1, 1)
    x, y = scene.center_px(cell)
    assert scene.cell_at_px(x, y) == cell
    assert scene.token_cell(*scene.token_xy(cell)) == cell
    # Foundry's centre pixel is our grid's centre of the same cell.
    assert scene.to_point(x, y) == pytest.approx(grid.center(cell))
    assert scene.from_point(grid.center(cell)) == pytest.approx((x, y))
    # Anywhere well inside the hex (within 0.9 of its inradius) maps to it too.
    for angle in range(0, 360, 45):
        r = 0.45 * size
        a = math.radians(angle)
        assert scene.cell_at_px(x + r * math.cos(a), y + r * math.sin(a)) == cell


@pytest.mark.parametrize("grid_type", FOUNDRY_TYPES)
@given(cell=cells)
def test_foundry_neighbours_are_one_grid_size_apart(grid_type: int, cell: tuple[int, int]) -> None:
    scene = FoundryHexScene(grid_type, 100, 5)
    for n in _all_neighbours(scene, cell):
        assert math.dist(scene.center_px(cell), scene.center_px(n)) == pytest.approx(100)


def _all_neighbours(scene: FoundryHexScene, cell: tuple[int, int]) -> list[tuple[int, int]]:
    grid = scene.grid(1, 1)
    q, r, _ = grid.to_cube(cell)
    steps = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    return [grid.from_cube((q + dq, r + dr, -q - dq - r - dr)) for dq, dr in steps]


@pytest.mark.parametrize("bad", [1, 0, 6, -2])
def test_foundry_non_hex_type_is_refused(bad: int) -> None:
    with pytest.raises(GeometryError, match=f"grid.type {bad}"):
        FoundryHexScene(bad, 100, 5)


@pytest.mark.parametrize("flat", [False, True])
@given(cell=cells, dpi=sizes)
def test_owlbear_cell_to_pixels_to_cell(flat: bool, cell: tuple[int, int], dpi: float) -> None:
    scene = OwlbearHexScene(dpi, 5.0, flat)
    grid = scene.grid(1, 1)
    x, y = scene.item_position(cell)
    assert scene.item_cell(x, y) == cell
    assert scene.from_point(grid.center(cell)) == pytest.approx((x, y), abs=1e-6)
    assert scene.to_point(x, y) == pytest.approx(grid.center(cell))


def test_owlbear_convention_written_down() -> None:
    pointy, flat = OwlbearHexScene(100, 5), OwlbearHexScene(100, 5, flat=True)
    assert pointy.item_position((0, 0)) == (0, 0)
    assert pointy.item_position((0, 1)) == pytest.approx((50, 100 * math.sqrt(3) / 2))
    assert flat.item_position((1, 0)) == pytest.approx((100 * math.sqrt(3) / 2, 50))
