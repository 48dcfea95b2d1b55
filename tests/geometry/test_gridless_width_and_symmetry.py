"""Walls block a disc by its width; metric and symmetry properties (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import (
    BlockMode,
    DiagonalRule,
    Door,
    GeometryError,
    HexGrid,
    HexOrientation,
    HexParity,
    SquareGrid,
    Wall,
    WallSet,
    threatened_cells,
)
from geometry.gridless import GridlessScene, disc_blocked, path_cost

Pt = tuple[float, float]

# Two walls on y = 5 leave a gap from x = 2 to x = 3 (1 m wide) unless said otherwise.
GAP_1M = [Wall((0, 5), (2, 5)), Wall((3, 5), (6, 5))]


@pytest.mark.parametrize(
    ("walls", "p", "q", "radius", "blocked"),
    [
        # a gap exactly as wide as the token (diameter 1 through 1 m): passes, touching
        (GAP_1M, (2.5, 4), (2.5, 6), 0.5, False),
        # a gap narrower than the token (diameter 1.2 through 1 m): blocked
        (GAP_1M, (2.5, 4), (2.5, 6), 0.6, True),
        # the same narrow gap for a point (radius 0): the centre line passes
        (GAP_1M, (2.5, 4), (2.5, 6), 0.0, False),
        # a gap wider than the token, off-centre but still clear of both ends
        (GAP_1M, (2.4, 4), (2.4, 6), 0.35, False),
        # off-centre in a wide-enough gap: the near wall end comes within the radius
        (GAP_1M, (2.2, 4), (2.2, 6), 0.35, True),
        # a wall corner grazed: the path passes 0.4 from the end of a wall, radius 0.5
        ([Wall((0, 5), (2, 5))], (2.4, 4), (2.4, 6), 0.5, True),
        # the same corner exactly one radius away: touched, not blocked
        ([Wall((0, 5), (2, 5))], (2.5, 4), (2.5, 6), 0.5, False),
        # running parallel to a wall one radius away: touching all along, not blocked
        ([Wall((0, 5), (6, 5))], (0, 5.5), (6, 5.5), 0.5, False),
        # closing in on a wall to nearer than the radius: blocked
        ([Wall((0, 5), (6, 5))], (0, 6), (6, 5.4), 0.5, True),
        # stopping short of a wall: the disc at the end would overlap it
        ([Wall((0, 5), (6, 5))], (3, 3), (3, 4.7), 0.5, True),
        # a diagonal move past an L corner with room to spare
        ([Wall((0, 5), (2, 5)), Wall((2, 5), (2, 9))], (1, 2), (4, 4), 0.5, False),
        # a token placed clipping a wall steps away from it: not blocked
        ([Wall((0, 5), (6, 5))], (3, 5.2), (3, 7), 0.5, False),
        # ... but it cannot cross the wall it clips
        ([Wall((0, 5), (6, 5))], (3, 5.2), (3, 3), 0.5, True),
        # a window blocks movement by width too
        ([Wall((0, 5), (2, 5), blocks_sight=False)], (2.3, 4), (2.3, 6), 0.5, True),
        # an open door in the gap's place does not block
        ([Door((0, 5), (6, 5), is_open=True)], (3, 4), (3, 6), 0.5, False),
    ],
)
def test_walls_block_a_disc_by_its_width(
    walls: list[Wall | Door], p: Pt, q: Pt, radius: float, blocked: bool
) -> None:
    assert disc_blocked(WallSet(walls), p, q, radius) is blocked


def test_a_window_does_not_block_sight_by_width() -> None:
    walls = WallSet([Wall((0, 5), (2, 5), blocks_sight=False)])
    assert not disc_blocked(walls, (2.3, 4), (2.3, 6), 0.5, BlockMode.SIGHT)


def test_path_cost_checks_the_token_width() -> None:
    scene = GridlessScene(10, 10)
    walls = WallSet(GAP_1M)
    assert path_cost(scene, [(2.5, 4), (2.5, 6)], walls=walls, radius=0.5) == pytest.approx(2)
    with pytest.raises(GeometryError, match=r"radius 0\.6"):
        path_cost(scene, [(2.5, 4), (2.5, 6)], walls=walls, radius=0.6)
    with pytest.raises(GeometryError, match="radius"):
        disc_blocked(walls, (0, 0), (1, 1), -1.0)


gaps = st.floats(0.2, 3.0)
radii = st.floats(0.05, 2.0)


@given(gap=gaps, radius=radii, offset=st.floats(-0.5, 0.5))
def test_a_disc_passes_a_gap_exactly_when_it_fits(gap: float, radius: float, offset: float) -> None:
    # A straight run through the middle of a gap (shifted by `offset` of the slack).
    walls = WallSet([Wall((-10, 0), (0, 0)), Wall((gap, 0), (gap + 10, 0))])
    slack = gap / 2 - radius
    x = gap / 2 + offset * max(slack, 0) * 2
    fits = slack >= 0 and min(x, gap - x) >= radius - 1e-7
    if abs(min(x, gap - x) - radius) < 1e-6:
        return  # within rounding of touching: either answer is right
    assert disc_blocked(walls, (x, -3), (x, 3), radius) is (not fits)


points = st.tuples(st.floats(0, 100), st.floats(0, 100))


@given(a=points, b=points, c=points)
def test_gridless_distance_is_symmetric_and_obeys_the_triangle_inequality(
    a: Pt, b: Pt, c: Pt
) -> None:
    scene = GridlessScene(100, 100)
    assert scene.distance(a, b) == scene.distance(b, a)
    assert scene.distance(a, c) <= scene.distance(a, b) + scene.distance(b, c) + 1e-9
    assert scene.distance(a, a) == 0


@given(a=points, b=points, c=points)
def test_gridless_path_cost_obeys_the_triangle_inequality(a: Pt, b: Pt, c: Pt) -> None:
    scene = GridlessScene(100, 100)
    direct = path_cost(scene, [a, c])
    assert direct <= path_cost(scene, [a, b, c]) + 1e-9
    assert path_cost(scene, [a, c]) == pytest.approx(path_cost(scene, [c, a]))


# -- threatened cells keep the grid's symmetries ------------------------------------------

SQUARE_SYMMETRIES = [
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
]


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 4),
    reach=st.sampled_from([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0]),
    rule=st.sampled_from(list(DiagonalRule)),
    shift=st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
)
def test_square_threat_is_symmetric_under_the_8_symmetries(
    size: int, reach: float, rule: DiagonalRule, shift: tuple[int, int]
) -> None:
    # 41x41 cells, the token near the middle: no edge within its reach.
    grid = SquareGrid(41, 41, 1.0, diagonal=rule)
    origin = (18 + shift[0], 18 + shift[1])
    cells = threatened_cells(grid, origin, size, reach)
    # Doubled coordinates relative to the footprint's centre keep everything integral.
    cx2, cy2 = 2 * origin[0] + size, 2 * origin[1] + size
    rel = {(2 * x + 1 - cx2, 2 * y + 1 - cy2) for x, y in cells}
    for sym in SQUARE_SYMMETRIES:
        assert {sym(x, y) for x, y in rel} == rel


HEX_ROTATE = lambda q, r, s: (-r, -s, -q)  # noqa: E731  60 degrees
HEX_REFLECT = lambda q, r, s: (q, s, r)  # noqa: E731


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([1, 3, 5]),
    reach=st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0, 4.5]),
    orientation=st.sampled_from(list(HexOrientation)),
    parity=st.sampled_from(list(HexParity)),
    origin=st.tuples(st.integers(16, 24), st.integers(16, 24)),
)
def test_hex_threat_is_symmetric_under_the_12_symmetries(
    size: int, reach: float, orientation: HexOrientation, parity: HexParity, origin: tuple[int, int]
) -> None:
    # Sizes 1 and odd sizes are hex balls around the origin: all 12 symmetries of the
    # hexagon fix them (size 2, three hexes at a corner, has only 3 and is left out).
    grid = HexGrid(41, 41, 1.5, orientation=orientation, parity=parity)
    cells = threatened_cells(grid, origin, size, reach * 1.5)
    q0, r0, s0 = grid.to_cube(origin)
    rel = set()
    for c in cells:
        q, r, s = grid.to_cube(c)
        rel.add((q - q0, r - r0, s - s0))
    images = rel
    for _ in range(6):
        images = {HEX_ROTATE(*c) for c in images}
        assert images == rel
        assert {HEX_REFLECT(*c) for c in images} == rel
