"""Buckets of walls for questions about one short segment, answered in plain Python.

A move on a gridless scene asks, per segment, whether a wall comes closer than the
token's radius (:func:`geometry.gridless.disc_blocked`).  Through shapely each question
costs a tree query and a vectorised distance, tens of microseconds of call overhead for
a handful of walls.  :class:`WallBuckets` files every wall under the square buckets its
bounding box touches; a segment gathers the walls of the buckets its own box (grown by
the radius) touches and measures them exactly, here.  The answer is
:func:`~geometry.gridless.disc_blocked`'s (tested): only when every close wall is one the
disc starts on does it fall back to the centre line, as that does: a line crossing a
wall is blocked, one only touching a wall's end goes to :meth:`WallSet.segment_blocked`
(the junction rules).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Mapping
from typing import TypeVar

from geometry.errors import GeometryError
from geometry.square import Point
from geometry.walls import BlockMode, WallSet

_T = TypeVar("_T")

#: disc_blocked's tolerance: exactly ``radius`` away is not blocked.
_TOLERANCE = 1e-9


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """The distance from ``p`` to the segment ``a``-``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    return _point_gap(p[0], p[1], ax, ay, dx, dy, dx * dx + dy * dy)


def _point_gap(
    x: float, y: float, ax: float, ay: float, dx: float, dy: float, length2: float
) -> float:
    """:func:`point_segment_distance` from (x, y) to ``a + t d`` over figures at hand."""
    if length2 == 0:
        return math.hypot(x - ax, y - ay)
    t = ((x - ax) * dx + (y - ay) * dy) / length2
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return math.hypot(x - ax - t * dx, y - ay - t * dy)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p: Point, q: Point, a: Point, b: Point) -> bool:
    """Whether segments ``p``-``q`` and ``a``-``b`` cross properly: each has an end strictly
    on either side of the other's line (their interiors meet in one point)."""
    d1, d2 = _cross(a, b, p), _cross(a, b, q)
    d3, d4 = _cross(p, q, a), _cross(p, q, b)
    return ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4))


def segment_distance(p: Point, q: Point, a: Point, b: Point) -> float:
    """The distance between segments ``p``-``q`` and ``a``-``b`` (0 when they meet)."""
    (px, py), (ax, ay) = p, a
    sx, sy = q[0] - px, q[1] - py
    d3 = sx * (ay - py) - sy * (ax - px)
    d4 = sx * (b[1] - py) - sy * (b[0] - px)
    return _segment_gap(px, py, q[0], q[1], ax, ay, b[0], b[1], b[0] - ax, b[1] - ay, d3, d4)


def _segment_gap(
    px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float, by: float,
    wx: float, wy: float, side_a: float, side_b: float,
) -> float:  # fmt: skip
    """:func:`segment_distance` over figures the caller has at hand: ``w = b - a`` and the
    sides of the line ``p``-``q`` the wall's ends are on (:func:`_cross` of p, q and each),
    unrolled (the hot loop of :meth:`WallBuckets.disc_blocked`)."""
    d1 = wx * (py - ay) - wy * (px - ax)
    d2 = wx * (qy - ay) - wy * (qx - ax)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((side_a > 0 > side_b) or (side_a < 0 < side_b)):
        return 0.0
    sx, sy = qx - px, qy - py
    wall2, step2 = wx * wx + wy * wy, sx * sx + sy * sy
    return min(
        _point_gap(px, py, ax, ay, wx, wy, wall2),
        _point_gap(qx, qy, ax, ay, wx, wy, wall2),
        _point_gap(ax, ay, px, py, sx, sy, step2),
        _point_gap(bx, by, px, py, sx, sy, step2),
    )


#: Bucket (i, j) is filed under the number i * _ROW + j: an int hashes faster than a pair.
_ROW = 1 << 32


def bucket_keys(cell: float, x0: float, y0: float, x1: float, y1: float) -> list[int]:
    """The square buckets of side ``cell`` a box from ``(x0, y0)`` to ``(x1, y1)`` touches,
    each as one number (bucket (i, j) as ``i * 2**32 + j``)."""
    j0, j1 = math.floor(y0 / cell), math.floor(y1 / cell) + 1
    keys: list[int] = []
    for row in range(math.floor(x0 / cell) * _ROW, (math.floor(x1 / cell) + 1) * _ROW, _ROW):
        keys.extend(range(row + j0, row + j1))
    return keys


def gather(
    buckets: Mapping[int, Collection[_T]],
    cell: float,
    x0: float, y0: float, x1: float, y1: float,
    into: set[_T],
) -> set[_T]:  # fmt: skip
    """Add to ``into`` what ``buckets`` (keyed as :func:`bucket_keys` says) file under the
    buckets a box from ``(x0, y0)`` to ``(x1, y1)`` touches; returns ``into``."""
    j0, j1 = math.floor(y0 / cell), math.floor(y1 / cell) + 1
    get = buckets.get
    for row in range(math.floor(x0 / cell) * _ROW, (math.floor(x1 / cell) + 1) * _ROW, _ROW):
        for key in range(row + j0, row + j1):
            hit = get(key)
            if hit:
                into.update(hit)
    return into


class WallBuckets:
    """The walls of a :class:`WallSet` filed in square buckets of ``cell`` units."""

    def __init__(self, walls: WallSet, cell: float = 2.0) -> None:
        if not cell > 0:
            raise GeometryError(f"bucket size must be positive, got {cell!r}")
        self.walls = walls
        self.cell = cell
        self._ends: list[tuple[Point, Point]] = []
        # Per wall, its box, ends and direction as one flat tuple: the loop below unpacks
        # it once.
        self._flat: list[tuple[float, ...]] = []
        # Which walls block, per mode, as plain lists (doors change them: ``version``).
        self._masks: dict[BlockMode, list[bool]] = {}
        self._version = walls.version
        self._buckets: dict[int, list[int]] = defaultdict(list)
        for i, wall_id in enumerate(walls.ids()):
            barrier = walls.get(wall_id)
            self._ends.append((barrier.a, barrier.b))
            x0, y0, x1, y1 = walls.bounds(wall_id)
            (ax, ay), (bx, by) = barrier.a, barrier.b
            self._flat.append((x0, y0, x1, y1, ax, ay, bx, by, bx - ax, by - ay))
            for key in self._keys(x0, y0, x1, y1):
                self._buckets[key].append(i)

    def _keys(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        return bucket_keys(self.cell, x0, y0, x1, y1)

    def near(self, p: Point, q: Point, distance: float) -> set[int]:
        """Indices (the wall set's order) of the walls whose buckets lie within
        ``distance`` of the segment's bounding box: a superset of those that come closer."""
        x0, x1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
        y0, y1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
        d = distance
        return gather(self._buckets, self.cell, x0 - d, y0 - d, x1 + d, y1 + d, set())

    def blocking_within(
        self, point: Point, distance: float, mode: BlockMode
    ) -> list[tuple[Point, Point]]:
        """The walls that block ``mode`` (doors as they stand now) and come closer than
        ``distance`` to ``point`` (:func:`point_segment_distance`), as their ends, in the
        wall set's order: what a scan of every wall would find, from the buckets near it."""
        if distance < 0 or not math.isfinite(distance):
            raise GeometryError(f"distance must be a finite number >= 0, got {distance!r}")
        mask = self._mask(mode)
        ends, flat = self._ends, self._flat
        x, y = point
        # A wall whose box is farther than ``distance`` (and a margin far above rounding)
        # in x or y is farther than that from the point: skipped before measuring it.
        far = distance + 1e-9 * (1 + distance + abs(x) + abs(y))
        x0, y0, x1, y1 = x - far, y - far, x + far, y + far
        found = []
        for i in sorted(self.near(point, point, distance)):
            bx0, by0, bx1, by1 = flat[i][:4]
            if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0 or not mask[i]:
                continue
            if point_segment_distance(point, *ends[i]) < distance:
                found.append(ends[i])
        return found

    def disc_blocked(
        self, p: Point, q: Point, radius: float, mode: BlockMode = BlockMode.MOVE
    ) -> bool:
        """:func:`geometry.gridless.disc_blocked`, answered from the buckets."""
        if radius < 0 or not math.isfinite(radius):
            raise GeometryError(f"disc radius must be a finite number >= 0, got {radius!r}")
        if radius == 0:
            return self.walls.segment_blocked(p, q, mode)
        mask = self._mask(mode)
        limit = radius - _TOLERANCE
        # The segment's box grown by the radius: a wall whose box misses it is farther.
        x0, x1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
        y0, y1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
        x0, y0, x1, y1 = x0 - radius, y0 - radius, x1 + radius, y1 + radius
        ends, flat = self._ends, self._flat
        # A wall with both ends on one side of the segment's line, at least ``radius``
        # from it, is at least that far from the segment: most near walls end here.
        px, py = p
        qx, qy = q
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        reach = radius * length
        close = []
        for i in self.near(p, q, radius):
            bx0, by0, bx1, by1, ax, ay, bx, by, wx, wy = flat[i]
            if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0 or not mask[i]:
                continue
            side_a = dx * (ay - py) - dy * (ax - px)
            side_b = dx * (by - py) - dy * (bx - px)
            if (side_a >= reach and side_b >= reach) or (side_a <= -reach and side_b <= -reach):
                continue
            gap = _segment_gap(px, py, qx, qy, ax, ay, bx, by, wx, wy, side_a, side_b)
            if gap < limit:
                if _point_gap(px, py, ax, ay, wx, wy, wx * wx + wy * wy) >= limit:
                    return True  # a wall the disc does not start on comes too close
                close.append((i, gap))
        if not close:
            return False
        # Only walls the disc starts on: the centre-line rule decides (as disc_blocked).
        # A wall the centre line does not even touch cannot block it; one it touches
        # goes to the wall set's own rule (crossings, junctions).
        if all(gap > _TOLERANCE for _, gap in close):
            return False
        if any(segments_cross(p, q, *ends[i]) for i, _ in close):
            return True  # the centre line goes through a wall's interior
        return self.walls.segment_blocked(p, q, mode)  # touches: the junction rules

    def _mask(self, mode: BlockMode) -> list[bool]:
        if self._version != self.walls.version:
            self._masks.clear()
            self._version = self.walls.version
        mask = self._masks.get(mode)
        if mask is None:
            mask = self._masks[mode] = [bool(b) for b in self.walls.mask(mode)]
        return mask
