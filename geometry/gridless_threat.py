"""Threatened regions on a gridless scene and where a waypoint move leaves them, exactly.

A region is a ball: the points within ``radius`` of a centre at an elevation (a token's
reach around its disc, grown as its ruleset counts it: the caller decides the radius).
On the ground (every elevation 0) a ball is a disc and this is plane geometry.  A move
is a list of waypoints joined by straight segments, each waypoint with an elevation
(linear in between: a flight climbs along the segment), and the mover is the point its
centre follows; a caller that counts the mover's width grows the radii by it.

:meth:`GridlessThreats.resolve` answers one move: its length (or terrain cost), the first
segment a wall blocks for a disc of the mover's radius (the rule of
:func:`geometry.gridless.disc_blocked`)
and, for every region the path is inside at some point, the first point where it leaves
it (:class:`PointExit`), in path order.  A segment meets a ball in one interval, so the
leave is the larger root of ``|P + t (Q - P) - C|^2 = R^2``: exact, not a polygon's
approximation.  Touching a region (a tangent, a path ending on its rim) is not leaving
it; a path starting on the rim and moving out leaves it at its start.

Regions are filed in square buckets by their bounding boxes and walls likewise
(:class:`geometry.buckets.WallBuckets`); a move measures only those of the buckets its
bounding box touches, in plain Python (a handful of numbers: numpy's and shapely's call
overheads would be most of the cost), so one move costs tens of microseconds whatever
the number of tokens and walls (``python -m bench.gridless``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from geometry.buckets import WallBuckets, bucket_keys
from geometry.errors import GeometryError
from geometry.gridless import GridlessScene
from geometry.square import Point
from geometry.terrain import TerrainMap
from geometry.walls import WallSet

#: Fractions of a segment this close to its end belong to the next segment.
_T_TOLERANCE = 1e-9


class PointExit(NamedTuple):
    """A move leaves region ``area_id`` during segment ``step`` at ``point`` (and
    ``elevation``), ``t`` of the way along that segment."""

    area_id: str
    step: int
    point: Point
    elevation: float
    t: float


class GridlessResolution(NamedTuple):
    """One waypoint move resolved: ``cost`` in the scene's unit, the first segment a wall
    blocks (or None) and every region's first exit in path order."""

    cost: float
    blocked_step: int | None
    exits: tuple[PointExit, ...]


class GridlessThreats:
    """The threatened regions of one gridless scene, filed in square buckets of
    ``bucket`` units (module docstring)."""

    def __init__(
        self,
        scene: GridlessScene,
        walls: WallSet | None = None,
        terrain: TerrainMap | None = None,
        *,
        bucket: float = 4.0,
    ) -> None:
        if not bucket > 0:
            raise GeometryError(f"bucket size must be positive, got {bucket!r}")
        self.scene = scene
        self.walls = walls if walls is not None else WallSet()
        self.wall_buckets = WallBuckets(self.walls)
        self.terrain = terrain
        self._bucket = bucket
        self._regions: dict[str, tuple[float, float, float, float]] = {}
        self._order: dict[str, int] = {}
        self._buckets: dict[tuple[int, int], set[str]] = defaultdict(set)

    def __len__(self) -> int:
        return len(self._regions)

    def _keys(self, x0: float, y0: float, x1: float, y1: float) -> list[tuple[int, int]]:
        return bucket_keys(self._bucket, x0, y0, x1, y1)

    def _file(self, area_id: str, add: bool) -> None:
        x, y, _, r = self._regions[area_id]
        for key in self._keys(x - r, y - r, x + r, y + r):
            if add:
                self._buckets[key].add(area_id)
            else:
                self._buckets[key].discard(area_id)

    def set_region(
        self, area_id: str, center: Point, radius: float, elevation: float = 0.0
    ) -> None:
        """Add region ``area_id`` or move and resize it."""
        if not (math.isfinite(radius) and radius >= 0):
            raise GeometryError(f"region radius must be a finite number >= 0, got {radius!r}")
        if not math.isfinite(elevation):
            raise GeometryError(f"elevation must be a finite number, got {elevation!r}")
        self.scene.require(center)
        if area_id in self._regions:
            self._file(area_id, add=False)
        else:
            self._order[area_id] = len(self._order)
        self._regions[area_id] = (float(center[0]), float(center[1]), float(elevation), radius)
        self._file(area_id, add=True)

    def remove_region(self, area_id: str) -> None:
        """Forget region ``area_id``."""
        if area_id not in self._regions:
            raise GeometryError(f"no region {area_id!r}")
        self._file(area_id, add=False)
        del self._regions[area_id]

    def region(self, area_id: str) -> tuple[Point, float, float]:
        """Region ``area_id`` as ``(center, radius, elevation)``."""
        found = self._regions.get(area_id)
        if found is None:
            raise GeometryError(f"no region {area_id!r}")
        x, y, z, r = found
        return (x, y), r, z

    def regions_at(self, point: Point, elevation: float = 0.0) -> list[str]:
        """The regions containing ``point`` at ``elevation`` (the rim included), in the
        order they were added."""
        px, py = point
        found = [
            area_id
            for area_id in self._buckets.get(self._keys(px, py, px, py)[0], ())
            if _inside(self._regions[area_id], px, py, elevation)
        ]
        return sorted(found, key=self._order.__getitem__)

    def exits(
        self,
        waypoints: Sequence[Point],
        elevations: Sequence[float] | None = None,
        *,
        ignore: str | None = None,
    ) -> list[PointExit]:
        """Every region's first exit along the path, in path order (module docstring);
        ``ignore`` names the mover's own region."""
        heights = _heights(waypoints, elevations)
        xs = [p[0] for p in waypoints]
        ys = [p[1] for p in waypoints]
        near: set[str] = set()
        buckets = self._buckets
        for key in self._keys(min(xs), min(ys), max(xs), max(ys)):
            hit = buckets.get(key)
            if hit:
                near.update(hit)
        if ignore is not None:
            near.discard(ignore)
        found: list[PointExit] = []
        last = len(waypoints) - 2
        for area_id in near:
            cx, cy, cz, r = self._regions[area_id]
            r2 = r * r
            ran_in = True  # at the first waypoint the mover stands where it starts
            for step in range(last + 1):
                px, py, pz = xs[step] - cx, ys[step] - cy, heights[step] - cz
                dx, dy = xs[step + 1] - xs[step], ys[step + 1] - ys[step]
                dz = heights[step + 1] - heights[step]
                a = dx * dx + dy * dy + dz * dz
                b = dx * px + dy * py + dz * pz  # half the usual b
                c = px * px + py * py + pz * pz - r2
                disc = b * b - a * c
                if a == 0 or disc <= 0:
                    ran_in = False
                    continue
                half = math.sqrt(disc) / a
                if half <= _T_TOLERANCE / 2:  # a touch, not a crossing
                    ran_in = False
                    continue
                t_in, t_out = -b / a - half, -b / a + half
                if -_T_TOLERANCE <= t_out < 1 - _T_TOLERANCE and (t_out > _T_TOLERANCE or ran_in):
                    t = min(max(t_out, 0.0), 1.0)
                    point = (xs[step] + dx * t, ys[step] + dy * t)
                    found.append(PointExit(area_id, step, point, heights[step] + dz * t, t))
                    break
                ran_in = t_in < 1 - _T_TOLERANCE <= t_out
        found.sort(key=lambda e: (e.step, e.t, self._order[e.area_id]))
        return found

    def resolve(
        self,
        waypoints: Sequence[Point],
        elevations: Sequence[float] | None = None,
        *,
        radius: float = 0.0,
        ignore: str | None = None,
    ) -> GridlessResolution:
        """Cost, first blocked segment and exits of one move (module docstring).  The cost
        is the length in three dimensions; terrain prices the ground part of a segment
        (:meth:`TerrainMap.segment_cost`) and adds the climb as it is."""
        if len(waypoints) < 2:
            raise GeometryError("a path needs a start point and at least one more waypoint")
        for p in waypoints:
            self.scene.require(p)
        heights = _heights(waypoints, elevations)
        blocked = None
        cost = 0.0
        check = self.wall_buckets.disc_blocked
        for i, (p, q) in enumerate(pairwise(waypoints)):
            if blocked is None and len(self.walls) and check(p, q, radius):
                blocked = i
            climb = abs(heights[i + 1] - heights[i])
            if self.terrain is None:
                cost += math.hypot(q[0] - p[0], q[1] - p[1], climb)
            else:
                cost += self.terrain.segment_cost(p, q) + climb
        return GridlessResolution(
            cost, blocked, tuple(self.exits(waypoints, heights, ignore=ignore))
        )


def _inside(region: tuple[float, float, float, float], x: float, y: float, z: float) -> bool:
    cx, cy, cz, r = region
    return (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2 <= (r + 1e-9) ** 2


def _heights(waypoints: Sequence[Point], elevations: Sequence[float] | None) -> list[float]:
    if elevations is None:
        return [0.0] * len(waypoints)
    if len(elevations) != len(waypoints):
        raise GeometryError(
            f"{len(elevations)} elevations for {len(waypoints)} waypoints: give one each"
        )
    if not all(math.isfinite(z) for z in elevations):
        raise GeometryError("elevations must be finite numbers")
    return [float(z) for z in elevations]
