"""geometry.reach_shadows: a wall a chord skips is one whose shadow never reaches it, so
skipping it changes no answer; and the segments' boxes hold every point near them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.reach_shadows import _near_chord, lit, segments, shades

# Half-unit coordinates make collinear walls, chords along a shadow's edge and chords
# through a wall's end common: the cases a margin must get right.
half = st.integers(0, 24).map(lambda v: v / 2)
fine = st.floats(0, 12, allow_nan=False)
coord = st.one_of(half, fine)
point = st.tuples(coord, coord)


@settings(max_examples=400, deadline=None)
@given(point, st.sampled_from([1.0, 2.5, 4.0]), point, point, point, point)
def test_a_wall_skipped_by_its_wedge_is_open_all_along_the_chord(
    centre: tuple[float, float],
    radius: float,
    a: tuple[float, float],
    b: tuple[float, float],
    start: tuple[float, float],
    end: tuple[float, float],
) -> None:
    """A chord with an end past the wall's line, but wholly outside one edge of its
    shadow's wedge, skips the wall: every point of it, as the pieces' middles are
    computed, finds the line to the centre open (so the answers are unchanged)."""
    if a == b:
        return
    (wall,) = shades(centre, radius, [(a, b)])
    cx, cy = centre

    def past_the_line(x: float, y: float) -> bool:  # as lit() decides it
        side = wall.wx * (y - wall.ay) - wall.wy * (x - wall.ax)
        return side != 0 and wall.side != 0 and (side > 0) != (wall.side > 0)

    if not (past_the_line(*start) or past_the_line(*end)):
        return  # skipped as the chord is on the centre's side: the rule before the wedge
    if _near_chord(cx, cy, *start, *end, [wall]):
        return
    dx, dy = end[0] - start[0], end[1] - start[1]
    for k in range(201):
        t = k / 200
        assert lit(cx, cy, start[0] + dx * t, start[1] + dy * t, [wall]), f"dark at t={t}"


@pytest.mark.parametrize(
    ("a", "b", "start", "end", "kept"),
    [
        # The wall east of the centre (0, 0), the chord behind it: kept.
        ((2, -1), (2, 1), (3, -0.5), (3, 0.5), True),
        # The chord on the centre's side of the wall's line: skipped.
        ((2, -1), (2, 1), (1, -0.5), (1, 0.5), False),
        # Behind the wall's line but wholly above the shadow's upper edge: skipped.
        ((2, -1), (2, 1), (3, 2), (3.5, 3), False),
        # Both ends outside the wedge on either side, passing through it: kept.
        ((2, -1), (2, 1), (3, -3), (3, 3), True),
        # An end exactly on the shadow's edge (the line from the centre through (2, 1)):
        # on the edge is not past it by the margin, so kept.
        ((2, -1), (2, 1), (4, 2), (4, 3), True),
        # The centre on the wall's line: it shadows nothing.
        ((1, 0), (3, 0), (4, 0.5), (4, -0.5), False),
    ],
)
def test_which_walls_a_chord_keeps(
    a: tuple[float, float],
    b: tuple[float, float],
    start: tuple[float, float],
    end: tuple[float, float],
    kept: bool,
) -> None:
    walls = shades((0.0, 0.0), 5.0, [(a, b)])
    assert bool(_near_chord(0.0, 0.0, *start, *end, walls)) is kept


@settings(max_examples=200, deadline=None)
@given(st.lists(point, min_size=2, max_size=4), st.floats(0, 1))
def test_a_segment_box_holds_its_points(path: list[tuple[float, float]], t: float) -> None:
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    for seg in segments(xs, ys, [0.0] * len(path)):
        x, y = seg.px + seg.dx * t, seg.py + seg.dy * t
        assert seg.x0 < x < seg.x1 and seg.y0 < y < seg.y1
        assert seg.length2 == seg.dx * seg.dx + seg.dy * seg.dy
