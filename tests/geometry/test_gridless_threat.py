"""Gridless threatened regions: the exact point a waypoint move leaves each one,
in the plane and in three dimensions, against shapely and against the square grid."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint

from geometry import (
    BlockMode,
    CrossingKind,
    DiagonalRule,
    GeometryError,
    SquareGrid,
    Wall,
    WallSet,
    threatened_cells,
)
from geometry import crossings as grid_crossings
from geometry.gridless import GridlessScene
from geometry.gridless import crossings as polygon_crossings
from geometry.gridless_threat import GridlessThreats

SCENE = GridlessScene(40.0, 40.0)


def _threats(*regions: tuple[str, tuple[float, float], float, float]) -> GridlessThreats:
    threats = GridlessThreats(SCENE)
    for area_id, center, radius, elevation in regions:
        threats.set_region(area_id, center, radius, elevation)
    return threats


@pytest.mark.parametrize(
    ("path", "heights", "expected"),
    [
        # Straight out of the ogre's 2.5 m disc: leaves on its rim.
        ([(10, 10), (20, 10)], None, [("ogre", 0, (12.5, 10.0))]),
        # Passing by at 1.5 m off the centre: enters and leaves at x = 10 +- 2.
        ([(0, 11.5), (20, 11.5)], None, [("ogre", 0, (12.0, 11.5))]),
        # Tangent to the rim: touching is not leaving.
        ([(0, 12.5), (20, 12.5)], None, []),
        # Starting on the rim and moving away: leaves where it stands.
        ([(7.5, 10), (0, 10)], None, [("ogre", 0, (7.5, 10.0))]),
        # Arriving on the rim from outside and turning back out: a touch.
        ([(0, 10), (7.5, 10), (0, 10)], None, []),
        # Inside to the rim, then out: the leave is at the waypoint, on the second segment.
        ([(10, 10), (12.5, 10), (20, 10)], None, [("ogre", 1, (12.5, 10.0))]),
        # In, out, in again: only the first leave counts.
        ([(10, 10), (20, 10), (10, 10.5), (30, 10)], None, [("ogre", 0, (12.5, 10.0))]),
        # 2 m up a 2.5 m ball: its slice there is a disc of 1.5 m.
        ([(10, 10), (20, 10)], [2.0, 2.0], [("ogre", 0, (11.5, 10.0))]),
        # Flying over at 3 m: never inside.
        ([(0, 10), (20, 10)], [3.0, 3.0], []),
    ],
)
def test_exact_exits(
    path: list[tuple[float, float]],
    heights: list[float] | None,
    expected: list[tuple[str, int, tuple[float, float]]],
) -> None:
    threats = _threats(("ogre", (10.0, 10.0), 2.5, 0.0))
    got = threats.exits(path, heights)
    assert [(e.area_id, e.step) for e in got] == [(a, s) for a, s, _ in expected]
    for exit_, (_, _, point) in zip(got, expected, strict=True):
        assert exit_.point == pytest.approx(point, abs=1e-9)


def test_climbing_exit_is_on_the_ball() -> None:
    # Climbing from the ground to 4 m over 10 m: the leave point lies on the 2.5 m ball.
    threats = _threats(("ogre", (10.0, 10.0), 2.5, 0.0))
    (exit_,) = threats.exits([(10, 10), (20, 10)], [0.0, 4.0])
    assert math.hypot(exit_.point[0] - 10, exit_.point[1] - 10, exit_.elevation) == pytest.approx(
        2.5
    )
    assert exit_.elevation == pytest.approx(4.0 * exit_.t)


def test_order_ignore_and_regions() -> None:
    threats = _threats(
        ("far", (20.0, 10.0), 2.0, 0.0), ("near", (10.0, 10.0), 2.0, 0.0), ("me", (9, 10), 1, 0)
    )
    got = threats.exits([(10, 10), (30, 10)], ignore="me")
    assert [e.area_id for e in got] == ["near", "far"]
    assert threats.regions_at((10.0, 10.0)) == ["near", "me"]  # the rim counts
    threats.remove_region("near")
    assert [e.area_id for e in threats.exits([(10, 10), (30, 10)], ignore="me")] == ["far"]
    with pytest.raises(GeometryError, match="no region"):
        threats.remove_region("near")
    with pytest.raises(GeometryError, match="2 elevations for 3 waypoints"):
        threats.exits([(1, 1), (2, 2), (3, 3)], [0.0, 1.0])


def test_resolve_cost_and_walls() -> None:
    walls = WallSet([Wall((15.0, 0.0), (15.0, 9.0))])
    threats = GridlessThreats(SCENE, walls)
    threats.set_region("ogre", (10.0, 10.0), 2.5)
    # A 1 m gap between the wall's end (y = 9) and y = 10: a 0.5 m radius token passes
    # at y = 10 (1 m from the end), a 1.5 m one does not.
    assert threats.resolve([(10, 10), (20, 10)], radius=0.5).blocked_step is None
    wide = threats.resolve([(10, 10), (20, 10)], radius=1.5)
    assert wide.blocked_step == 0
    climb = threats.resolve([(10, 10), (13, 10), (13, 10)], [0.0, 0.0, 4.0])
    assert climb.cost == pytest.approx(3.0 + 4.0)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.floats(1, 39), st.floats(1, 39)), min_size=2, max_size=5),
    st.lists(
        st.tuples(st.floats(5, 35), st.floats(5, 35), st.floats(0.5, 4)), min_size=1, max_size=6
    ),
)
def test_agrees_with_shapely_polygons(
    path: list[tuple[float, float]], regions: list[tuple[float, float, float]]
) -> None:
    threats = GridlessThreats(SCENE)
    areas = {}
    for i, (x, y, r) in enumerate(regions):
        threats.set_region(f"r{i}", (x, y), r)
        areas[f"r{i}"] = ShapelyPoint(x, y).buffer(r, quad_segs=256)
    exits = {e.area_id: e for e in threats.exits(path)}
    first_leave = {}
    for c in polygon_crossings(path, areas):
        if c.kind is CrossingKind.LEAVE and c.area_id not in first_leave:
            first_leave[c.area_id] = c
    # Leaves within a polygon's sagitta of a circle (r * (1 - cos(pi / 1024))) or of a
    # tangent: compare only where both see a clear crossing.
    for area_id, c in first_leave.items():
        if area_id in exits:
            e = exits[area_id]
            if e.step == c.step:
                assert math.dist(e.point, c.point) < 0.05
    for area_id, e in exits.items():
        x, y, r = regions[int(area_id[1:])]
        assert math.dist(e.point, (x, y)) == pytest.approx(r, abs=1e-6)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.integers(0, 4), st.integers(1, 25), st.booleans())
def test_cell_centres_match_the_square_grid(reach: int, row: int, run: int, columns: bool) -> None:
    # A one-square token with reach r on 1 m squares (the straight-line rule) threatens
    # the squares whose centre is within r + 1/2 of its own; gridless, that is a disc of
    # r + 1/2.  A move along a line of square centres leaves both at most half a square
    # apart (the square grid reports the step's midpoint, gridless the rim).
    grid = SquareGrid(40, 40, 1.0, diagonal=DiagonalRule.EUCLIDEAN)
    token = (15, 15)
    cells = threatened_cells(grid, token, 1, float(reach))
    if row > reach:
        return
    start = (token[0], token[1] + row) if not columns else (token[0] + row, token[1])
    if start == token:
        start = (token[0] + 1, token[1]) if not columns else (token[0], token[1] + 1)
    path = [
        (start[0] + (0 if columns else k), start[1] + (k if columns else 0)) for k in range(run + 1)
    ]
    threats = GridlessThreats(SCENE)
    threats.set_region("t", grid.center(token), reach + 0.5)
    square = [c for c in grid_crossings(grid, path, {"t": cells}) if c.kind is CrossingKind.LEAVE][
        :1
    ]
    gridless = threats.exits([grid.center(c) for c in path])
    assert len(square) == len(gridless)
    for s, g in zip(square, gridless, strict=True):
        assert math.dist(s.point, g.point) <= 0.5 + 1e-9


def test_nobody_reaches_through_a_wall() -> None:
    """A wall between the ogre and the mover: no exit behind it, and stepping from the
    open side into the wall's shadow leaves the threatened area at the shadow's edge."""
    # The ogre at (10, 10) reaches 5 m; a wall from (12, 8) to (12, 14) stands east of it.
    walls = WallSet([Wall((12.0, 8.0), (12.0, 14.0))])
    threats = GridlessThreats(SCENE, walls)
    threats.set_region("ogre", (10.0, 10.0), 5.0)
    # Behind the wall all along (at x = 13 the line from the ogre crosses the wall for
    # y from 7 to 16): never threatened, so never leaving.
    assert threats.exits([(13.0, 10.0), (13.0, 12.0)]) == []
    # The same path without the wall leaves the ball where it crosses the rim.
    open_ground = GridlessThreats(SCENE)
    open_ground.set_region("ogre", (10.0, 10.0), 5.0)
    (rim,) = open_ground.exits([(13.0, 6.5), (13.0, 16.0)])
    assert rim.point[1] == pytest.approx(14.0)
    # From the open north side (y = 6.5, the line to the ogre passes above the wall's end
    # at (12, 8)) south into the shadow: the shadow's edge is the line from (10, 10)
    # through (12, 8), which meets x = 13 at y = 7.
    (shadow,) = threats.exits([(13.0, 6.5), (13.0, 16.0)])
    assert shadow.area_id == "ogre" and shadow.step == 0
    assert shadow.point == pytest.approx((13.0, 7.0))
    assert shadow.t == pytest.approx(0.5 / 9.5)
    # A wall far from the ball changes nothing.
    far = GridlessThreats(SCENE, WallSet([Wall((30.0, 30.0), (35.0, 30.0))]))
    far.set_region("ogre", (10.0, 10.0), 5.0)
    assert far.exits([(13.0, 6.5), (13.0, 16.0)]) == open_ground.exits([(13.0, 6.5), (13.0, 16.0)])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.floats(1, 39), st.floats(1, 39)), min_size=2, max_size=5),
    st.tuples(st.floats(5, 35), st.floats(5, 35), st.floats(0.5, 6)),
    st.tuples(st.floats(1, 39), st.floats(1, 39), st.floats(1, 39), st.floats(1, 39)),
)
def test_walls_agree_with_sampling(
    path: list[tuple[float, float]],
    region: tuple[float, float, float],
    wall: tuple[float, float, float, float],
) -> None:
    """Where a path first leaves the area a region threatens past one wall, against a
    fine sampling of the same rule (inside the ball, the line to the centre unblocked)."""
    x0, y0, x1, y1 = wall
    if math.hypot(x1 - x0, y1 - y0) < 0.5:
        return
    walls = WallSet([Wall((x0, y0), (x1, y1))])
    threats = GridlessThreats(SCENE, walls)
    cx, cy, r = region
    threats.set_region("a", (cx, cy), r)
    found = threats.exits(path)

    def threatened(p: tuple[float, float]) -> bool:
        inside = math.dist(p, (cx, cy)) <= r
        return inside and not walls.segment_blocked((cx, cy), p, BlockMode.REACH)

    # Sample every segment finely; the first sample after a threatened one that is not
    # threatened bounds the exit from above.
    samples = []
    for step, (p, q) in enumerate(pairwise(path)):
        for k in range(401):
            t = k / 400
            samples.append((step, t, (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)))
    states = [threatened(s[2]) for s in samples]
    first_out = next((i for i in range(1, len(samples)) if states[i - 1] and not states[i]), None)
    if first_out is None:
        # Sampling saw no exit: any exit found lies within one sample of a boundary.
        assert all(e.t >= 0 for e in found)
        return
    step, t, _ = samples[first_out]
    assert found, f"sampling leaves at step {step} t {t}"
    e = found[0]
    # The exact exit lies between the last threatened sample and the first that is not.
    before = samples[first_out - 1]
    assert (before[0], before[1] - 1e-9) <= (e.step, e.t) <= (step, t + 1e-9)
