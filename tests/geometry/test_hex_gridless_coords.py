"""Hex grids, gridless scenes and VTT coordinate conversions."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon, box

from geometry import CrossingKind, GeometryError, HexGrid, HexOrientation, HexParity, Wall, WallSet
from geometry.gridless import Disc, GridlessScene, crossings, path_cost
from geometry.vtt_coords import FoundryScene, OwlbearScene, foundry_token_size

HEX_GRIDS = [
    HexGrid(30, 30, 1.5, orientation=o, parity=p) for o in HexOrientation for p in HexParity
]
cells = st.tuples(st.integers(0, 29), st.integers(0, 29))


@pytest.mark.parametrize("grid", HEX_GRIDS, ids=repr)
@given(a=cells, b=cells, c=cells)
def test_hex_distance_is_a_metric(
    grid: HexGrid, a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]
) -> None:
    assert grid.distance(a, b) == grid.distance(b, a)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)
    assert grid.from_cube(grid.to_cube(a)) == a
    assert grid.cell_at(grid.center(a)) == a


@pytest.mark.parametrize("grid", HEX_GRIDS, ids=repr)
def test_hex_neighbours_are_one_step_and_touch(grid: HexGrid) -> None:
    for cell in [(5, 5), (6, 5), (5, 6), (6, 6)]:
        ns = grid.neighbours(cell)
        assert len(ns) == 6
        for n in ns:
            assert math.dist(grid.center(cell), grid.center(n)) == pytest.approx(1.5)
            # the step's midpoint is on the shared edge: where a crossing is reported
            (ax, ay), (bx, by) = grid.center(cell), grid.center(n)
            mid = ShapelyPoint((ax + bx) / 2, (ay + by) / 2)
            assert grid.cell_polygon(cell).exterior.distance(mid) < 1e-9
            assert grid.cell_polygon(n).exterior.distance(mid) < 1e-9
    assert grid.bounds()[0] >= -1e-9 and grid.bounds()[1] >= -1e-9


@pytest.mark.parametrize(("size", "count"), [(1, 1), (2, 3), (3, 7), (5, 19)])
def test_hex_footprints(size: int, count: int) -> None:
    assert len(HexGrid(20, 20).footprint((10, 10), size)) == count


def test_hex_footprint_of_even_size_four_is_refused() -> None:
    with pytest.raises(GeometryError, match="1, 2 or odd"):
        HexGrid(20, 20).footprint((10, 10), 4)


def test_gridless_path_cost_walls_and_terrain() -> None:
    from geometry.terrain import CostRule, TerrainKind, TerrainMap, TerrainRegion

    scene = GridlessScene(20, 20)
    assert path_cost(scene, [(0, 0), (3, 4), (3, 10)]) == pytest.approx(11)
    mud = TerrainMap(
        [TerrainRegion(box(2, -1, 4, 1), TerrainKind.CLIMBABLE)], CostRule.cyberpunk_red()
    )
    assert path_cost(scene, [(0, 0), (6, 0)], terrain=mud) == pytest.approx(8)  # 2 m climbed x2
    with pytest.raises(GeometryError, match="blocked"):
        path_cost(scene, [(0, 0), (6, 0)], walls=WallSet([Wall((3, -1), (3, 1))]))
    with pytest.raises(GeometryError, match="outside"):
        path_cost(scene, [(0, 0), (30, 0)])


def test_gridless_swept_disc_crossings() -> None:
    ogre = Disc((10.0, 10.0), 0.5).reach_area(1.5)  # radius 2
    # a disc of radius 0.5 passing 2.4 from the centre overlaps the reach: enter and leave
    found = crossings([(0, 12.4), (20, 12.4)], {"ogre": ogre}, radius=0.5)
    assert [c.kind for c in found] == [CrossingKind.ENTER, CrossingKind.LEAVE]
    assert found[0].point[0] < 10 < found[1].point[0]
    # the bare centre line (radius 0) misses it
    assert crossings([(0, 12.4), (20, 12.4)], {"ogre": ogre}) == []
    # leaves and re-enters
    sq: Polygon = box(0, 0, 4, 4)
    kinds = [c.kind.value for c in crossings([(2, 2), (6, 2), (6, 3), (2, 3)], {"sq": sq})]
    assert kinds == ["leave", "enter"]


@given(
    size=st.sampled_from([50.0, 100.0, 140.0]),
    distance=st.sampled_from([1.0, 2.0, 5.0]),
    pad=st.tuples(st.integers(0, 2000), st.integers(0, 2000)),
    cell=st.tuples(st.integers(-5, 200), st.integers(-5, 200)),
)
def test_foundry_round_trips(
    size: float, distance: float, pad: tuple[int, int], cell: tuple[int, int]
) -> None:
    scene = FoundryScene(size, distance, *pad)
    x, y = scene.token_xy(cell)
    assert scene.token_origin(x, y) == cell
    assert scene.token_xy(scene.token_origin(x, y)) == (x, y)
    # a token dragged but not yet snapped lands on the nearest cell
    assert scene.token_origin(x + 0.3 * size, y - 0.3 * size) == cell
    pt = scene.to_point(x, y)
    back = scene.from_point(pt)
    assert back == pytest.approx((x, y))
    assert pt == pytest.approx((cell[0] * distance, cell[1] * distance))


@given(
    dpi=st.sampled_from([150.0, 100.0, 72.0]),
    cell=st.tuples(st.integers(-5, 200), st.integers(-5, 200)),
    size=st.integers(1, 4),
    px=st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)),
)
def test_owlbear_round_trips(
    dpi: float, cell: tuple[int, int], size: int, px: tuple[float, float]
) -> None:
    scene = OwlbearScene(dpi, 5.0)
    x, y = scene.item_position(cell, size)
    assert scene.item_origin(x, y, size) == cell
    assert scene.from_point(scene.to_point(*px)) == pytest.approx(px, abs=1e-6)


def test_foundry_token_sizes() -> None:
    assert foundry_token_size(3, 3) == 3
    with pytest.raises(GeometryError, match="square tokens"):
        foundry_token_size(1, 2)
    with pytest.raises(GeometryError, match="grid_size"):
        FoundryScene(0, 5)
