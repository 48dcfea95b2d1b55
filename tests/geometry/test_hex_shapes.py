"""Hex token shapes (bridge and Foundry) and where VTTs put tokens and items.

Foundry references, from its API documentation and type definitions (v13):
``CONST.TOKEN_SHAPES`` (ELLIPSE_1 0, ELLIPSE_2 1, TRAPEZOID_1 2, TRAPEZOID_2 3,
RECTANGLE_1 4, RECTANGLE_2 5); ``TokenHexagonalShapeData`` (``anchor``: "the top-left
grid hex center in the snapped position"; ``offsets`` listed for even and odd rows, so
the shape is rigid); a hex token of size ``n`` spans ``n`` rows (columns) and its
``x``/``y`` is the top-left of its box.  The reference shapes here are built in pixels
from the token's box, independently of ``geometry/hexshapes.py``'s row counts:
RECTANGLE = the hexes lying wholly inside the box (variant 1: the top row flush with
the box's left side; variant 2: the row below it is); ELLIPSE_1 = the hexes whose
centre lies inside the ellipse inscribed in the box, whose widest row is flush with the
box's sides (sizes up to 4; beyond, whole hexes make a ragged ellipse and the bridge
keeps growing one hex a row).

Owlbear references, from the SDK 3.x type definitions: ``Image.grid: {offset: Vector2,
dpi: number}``, ``Item.position``, ``Item.scale``; ``buildImage`` leaves the offset at
(0, 0).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from geometry import GeometryError, HexGrid, HexOrientation, HexParity, HexShape
from geometry.hexshapes import FOUNDRY_DEFAULT_SHAPE, FOUNDRY_TOKEN_SHAPES, row_widths
from geometry.vtt_coords import (
    FoundryHexScene,
    FoundryScene,
    OwlbearImageGrid,
    OwlbearScene,
)

Cell = tuple[int, int]
FOUNDRY_SHAPES = [s for s in HexShape if s is not HexShape.HEXAGON]
SQRT3 = math.sqrt(3)


@pytest.mark.parametrize(
    ("shape", "counts"),
    [
        (HexShape.HEXAGON, {1: 1, 2: 3, 3: 7, 5: 19}),
        (HexShape.RECTANGLE_1, {1: 1, 2: 3, 3: 8, 4: 14}),
        (HexShape.RECTANGLE_2, {1: 1, 2: 3, 3: 7, 4: 14}),
        (HexShape.ELLIPSE_1, {1: 1, 2: 3, 3: 7, 4: 12}),
        (HexShape.ELLIPSE_2, {1: 1, 2: 3, 3: 7, 4: 12}),
        (HexShape.TRAPEZOID_1, {1: 1, 2: 3, 3: 6, 4: 10}),
        (HexShape.TRAPEZOID_2, {1: 1, 2: 3, 3: 6, 4: 10}),
    ],
)
def test_hex_counts_per_shape(shape: HexShape, counts: dict[int, int]) -> None:
    for orientation in HexOrientation:
        grid = HexGrid(30, 30, orientation=orientation, shape=shape)
        for size, count in counts.items():
            assert len(grid.footprint((12, 12), size)) == count


def test_foundry_default_is_rectangle_1_covering_eight_hexes_at_size_3() -> None:
    assert FOUNDRY_DEFAULT_SHAPE is HexShape.RECTANGLE_1 is FOUNDRY_TOKEN_SHAPES[4]
    assert row_widths(FOUNDRY_DEFAULT_SHAPE, 3) == (3, 2, 3)


def test_the_bridge_hexagon_refuses_sizes_it_has_no_shape_for() -> None:
    with pytest.raises(GeometryError):
        HexGrid(30, 30).footprint((10, 10), 4)


def _box(scene: FoundryHexScene, anchor: Cell, size: int, shape: HexShape) -> tuple[float, ...]:
    """The token's box in grid units: from its ``x``/``y`` and Foundry's token size,
    ``size`` hexes across and ``0.75 size + 0.25`` hexes deep."""
    x, y = scene.token_xy(anchor, size, shape)
    left, top = scene.to_point(x, y)
    across, deep = size * 5.0, (0.75 * size + 0.25) * 5.0 * 2 / SQRT3
    if scene.grid_type in (2, 3):
        return (left, top, left + across, top + deep)
    return (left, top, left + deep, top + across)


def _near(anchor: Cell, size: int) -> list[Cell]:
    return [
        (c, r)
        for c in range(anchor[0] - size - 2, anchor[0] + size + 3)
        for r in range(anchor[1] - size - 2, anchor[1] + size + 3)
    ]


def _reference_rectangle(
    grid: HexGrid, frame: tuple[float, ...], anchor: Cell, size: int
) -> set[Cell]:
    """The hexes lying wholly inside the box."""
    inside = box(*frame).buffer(1e-7)
    return {c for c in _near(anchor, size) if inside.contains(grid.cell_polygon(c))}


def _reference_ellipse(
    grid: HexGrid, frame: tuple[float, ...], anchor: Cell, size: int
) -> set[Cell]:
    """The hexes whose centre lies inside the ellipse inscribed in the box."""
    x0, y0, x1, y1 = frame
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    out = set()
    for c in _near(anchor, size):
        x, y = grid.center(c)
        if ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 < 1 - 1e-9:
            out.add(c)
    return out


@pytest.mark.parametrize("grid_type", [2, 3, 4, 5])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_foundry_shapes_against_pixel_references(grid_type: int, size: int) -> None:
    scene = FoundryHexScene(grid_type, 100, 5.0)
    rows = grid_type in (2, 3)
    for anchor in ((20, 20), (21, 20), (20, 21), (21, 21)):
        for shape in FOUNDRY_SHAPES:
            grid = HexGrid(60, 60, 5.0, "ft", scene.orientation, scene.parity, shape)
            frame = _box(scene, anchor, size, shape)
            feet = grid.footprint(anchor, size)
            # Every shape fits its box, and its anchor is its top-left hex.
            outline = box(*frame).buffer(1e-7)
            assert all(outline.contains(grid.cell_polygon(c)) for c in feet)
            first = min(
                feet,
                key=lambda c: (
                    (grid.center(c)[1], grid.center(c)[0])
                    if rows
                    else (grid.center(c)[0], grid.center(c)[1])
                ),
            )
            assert first == anchor
            if shape in (HexShape.RECTANGLE_1, HexShape.RECTANGLE_2):
                assert feet == _reference_rectangle(grid, frame, anchor, size)
                # Variant 1: the anchor (top) row is flush with the box's side.
                flush = math.isclose(
                    grid.cell_polygon(anchor).bounds[0 if rows else 1], frame[0 if rows else 1]
                )
                assert flush == (shape is HexShape.RECTANGLE_1 or size == 1)
            if shape in (HexShape.ELLIPSE_1, HexShape.ELLIPSE_2) and size <= 4:
                # Larger ellipses of whole hexes come out ragged (5: rows 4, 5, 4, 5, 4);
                # the bridge keeps growing one hex a row to the widest, then shrinking.
                assert feet == _reference_ellipse(grid, frame, anchor, size)


@pytest.mark.parametrize("grid_type", [2, 3, 4, 5])
def test_variant_2_is_variant_1_turned_over(grid_type: int) -> None:
    scene = FoundryHexScene(grid_type, 100, 5.0)
    for one, two in (
        (HexShape.ELLIPSE_1, HexShape.ELLIPSE_2),
        (HexShape.TRAPEZOID_1, HexShape.TRAPEZOID_2),
    ):
        for size in range(1, 7):
            assert row_widths(two, size) == tuple(reversed(row_widths(one, size)))
            g1 = HexGrid(60, 60, 1.0, "m", scene.orientation, scene.parity, one)
            g2 = HexGrid(60, 60, 1.0, "m", scene.orientation, scene.parity, two)
            assert len(g1.footprint((20, 20), size)) == len(g2.footprint((20, 20), size))


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([2, 3, 4, 5]),
    st.sampled_from(FOUNDRY_SHAPES),
    st.integers(1, 6),
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
    st.sampled_from([50, 100, 140]),
)
def test_foundry_hex_tokens_round_trip_through_their_box(
    grid_type: int, shape: HexShape, size: int, anchor: Cell, px: int
) -> None:
    scene = FoundryHexScene(grid_type, px, 5.0)
    x, y = scene.token_xy(anchor, size, shape)
    # Foundry stores whole pixels.
    assert scene.token_cell(round(x), round(y), size, shape) == anchor
    # The box is Foundry's token size: n hexes across, 0.75 n + 0.25 hexes deep.
    grid = HexGrid(60, 60, 5.0, "ft", scene.orientation, scene.parity, shape)
    polys = [grid.cell_polygon(c) for c in grid.footprint(anchor, size)]
    k = px / 5.0
    width = (max(p.bounds[2] for p in polys) - min(p.bounds[0] for p in polys)) * k
    depth = (max(p.bounds[3] for p in polys) - min(p.bounds[1] for p in polys)) * k
    across, deep = (width, depth) if grid_type in (2, 3) else (depth, width)
    assert math.isclose(across, size * px)
    assert math.isclose(deep, (0.75 * size + 0.25) * px * 2 / SQRT3)
    # x/y is the top-left of that box, on Foundry's canvas.
    corner = scene.from_point((min(p.bounds[0] for p in polys), min(p.bounds[1] for p in polys)))
    assert math.isclose(x, corner[0], abs_tol=1e-6) and math.isclose(y, corner[1], abs_tol=1e-6)


def test_foundry_hex_cells_count_from_the_canvas_and_squares_from_the_scene() -> None:
    # Squares: x = scene_x + column * size, so padding is taken off.
    squares = FoundryScene(grid_size=100, grid_distance=5.0, scene_x=400, scene_y=300)
    assert squares.token_origin(400, 300) == (0, 0)
    # Hexes: Foundry's getOffset ignores padding; the canvas origin's hex is (0, 0).
    hexes = FoundryHexScene(grid_type=2, grid_size=100, grid_distance=5.0)
    assert hexes.token_cell(*hexes.token_xy((0, 0))) == (0, 0)
    assert hexes.cell_at_px(*hexes.center_px((3, 4))) == (3, 4)


# -- Owlbear image grids ---------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(-5, 40), st.integers(-5, 40)),
    st.integers(1, 4),
    st.sampled_from([70, 150, 300]),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.sampled_from([(1.0, 1.0), (0.5, 0.5), (2.0, 2.0)]),
)
def test_owlbear_items_round_trip_through_their_image_grid(
    origin: Cell, size: int, image_dpi: int, fx: float, fy: float, scale: tuple[float, float]
) -> None:
    scene = OwlbearScene(dpi=150, cell_size=5.0)
    # An image of `size` cells at its own dpi (shown at `scale`), offset anywhere on it.
    cells = size / scale[0]
    image = OwlbearImageGrid(fx * cells * image_dpi, fy * cells * image_dpi, image_dpi, *scale)
    x, y = scene.item_position(origin, size, image)
    # Reference: the image's top-left corner is the position minus the offset, each
    # image pixel drawn scene_dpi / image_dpi * scale scene pixels.
    left = x - image.offset_x * 150 / image_dpi * scale[0]
    top = y - image.offset_y * 150 / image_dpi * scale[1]
    assert (round(left / 150), round(top / 150)) == origin
    assert scene.item_origin(x, y, size, image) == origin


def test_owlbear_sdk_default_offset_is_the_top_left_corner() -> None:
    scene = OwlbearScene(dpi=150, cell_size=5.0)
    corner = OwlbearImageGrid(0, 0, 150)
    assert scene.item_origin(300, 300, 2, corner) == (2, 2)
    assert scene.item_origin(300, 300, 2) == (1, 1)  # read as a centre: one cell off
    centred = OwlbearImageGrid.centred(2)
    assert scene.item_origin(300, 300, 2, centred) == scene.item_origin(300, 300, 2)


def test_owlbear_hex_numbering_is_consistent_with_the_sdk_grid_types() -> None:
    # HEX_VERTICAL: pointy-top hexes in staggered rows; HEX_HORIZONTAL: flat-top in
    # staggered columns.  Our numbering's neighbours are the six hexes one dpi away.
    from geometry.vtt_coords import OwlbearHexScene

    for flat in (False, True):
        scene = OwlbearHexScene(dpi=150, cell_size=5.0, flat=flat)
        grid = scene.grid(20, 20)
        for cell in ((5, 5), (6, 5), (5, 6)):
            here = scene.item_position(cell)
            for n in grid.neighbours(cell):
                assert math.isclose(math.dist(here, scene.item_position(n)), 150)
            xs = {round(scene.item_position((c, cell[1]))[1], 6) for c in range(4)}
            ys = {round(scene.item_position((cell[0], r))[0], 6) for r in range(4)}
            # Rows share a y on HEX_VERTICAL; columns share an x on HEX_HORIZONTAL.
            assert (len(xs) == 1) != flat and (len(ys) == 1) == flat
    assert HexParity.ODD is OwlbearHexScene().grid(1, 1).parity
