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

Nobody reaches through a wall (as on grids, :mod:`geometry.reach`): a point of a region
is threatened only when the straight line from the region's centre to it crosses no
wall that blocks reach, so a move also leaves the threatened area where it steps into a
wall's shadow, at the exact point the shadow's edge crosses the path
(:mod:`geometry.reach_shadows`, over the walls that come inside the region, found once
per region with :meth:`geometry.buckets.WallBuckets.blocking_within` and kept until it
moves or a door changes).

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

from shapely.geometry import Polygon
from shapely.ops import unary_union

from geometry.buckets import WallBuckets, bucket_keys, gather
from geometry.errors import GeometryError
from geometry.gridless import GridlessScene
from geometry.reach_shadows import T_TOLERANCE, Shade, first_dark, segments, shades
from geometry.square import Point
from geometry.terrain import TerrainMap
from geometry.walls import BlockMode, WallSet

#: Fractions of a segment this close to its end belong to the next segment.
_T_TOLERANCE = T_TOLERANCE


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
        # Walls in buckets of the regions' size: for moves of a few metres, fewer
        # buckets to gather beat fewer walls in each (measured with bench.gridless).
        self.wall_buckets = WallBuckets(self.walls, cell=bucket)
        self.terrain = terrain
        self._bucket = bucket
        self._regions: dict[str, tuple[float, float, float, float]] = {}
        self._order: dict[str, int] = {}
        # Per region, the walls blocking reach that come inside it, kept until the region
        # moves or a door changes (the wall set's version).
        self._shading: dict[str, list[Shade]] = {}
        self._shading_version = self.walls.version
        self._buckets: dict[int, set[str]] = defaultdict(set)

    def __len__(self) -> int:
        return len(self._regions)

    def _keys(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
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
        """Add region ``area_id`` or move and resize it; the walls that cut its reach are
        looked up now and kept until it moves again or a door changes."""
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
        self._shading.pop(area_id, None)
        self._file(area_id, add=True)
        if len(self.walls):
            self._reach_walls(area_id)  # now, not in the middle of the next move

    def remove_region(self, area_id: str) -> None:
        """Forget region ``area_id``."""
        if area_id not in self._regions:
            raise GeometryError(f"no region {area_id!r}")
        self._file(area_id, add=False)
        del self._regions[area_id]
        self._shading.pop(area_id, None)

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
        return self._exits(waypoints, _heights(waypoints, elevations), ignore)

    def _exits(
        self, waypoints: Sequence[Point], heights: list[float], ignore: str | None
    ) -> list[PointExit]:
        xs = [p[0] for p in waypoints]
        ys = [p[1] for p in waypoints]
        path = segments(xs, ys, heights)
        near = gather(self._buckets, self._bucket, min(xs), min(ys), max(xs), max(ys), set())
        if ignore is not None:
            near.discard(ignore)
        found: list[PointExit] = []
        has_walls = len(self.walls) > 0
        boxes = [seg[7:] for seg in path]
        for area_id in near:
            region = self._regions[area_id]
            cx, cy, cz, r = region
            # Only a region whose disc meets some segment's box can be left on the way:
            # most near ones do not, at a few comparisons each.
            for x0, y0, x1, y1 in boxes:
                if x0 - r <= cx <= x1 + r and y0 - r <= cy <= y1 + r:
                    break
            else:
                continue
            shading = self._reach_walls(area_id) if has_walls else ()
            if shading:
                dark = first_dark(region, path, shading)
                if dark is not None:
                    found.append(PointExit(area_id, *dark))
                continue
            r2 = r * r
            ran_in = True  # at the first waypoint the mover stands where it starts
            for step, (sx, sy, sz, dx, dy, dz, a, *_) in enumerate(path):
                px, py, pz = sx - cx, sy - cy, sz - cz
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
                    point = (sx + dx * t, sy + dy * t)
                    found.append(PointExit(area_id, step, point, sz + dz * t, t))
                    break
                ran_in = t_in < 1 - _T_TOLERANCE <= t_out
        if len(found) > 1:
            found.sort(key=lambda e: (e.step, e.t, self._order[e.area_id]))
        return found

    def outline(self, area_id: str, points: int = 64) -> list[list[Point]]:
        """Region ``area_id`` on the ground as rings to draw (even-odd): its disc as a
        polygon of ``points`` corners, less the shadows of the walls that block reach."""
        (cx, cy), r, _ = self.region(area_id)
        turn = 2 * math.pi / points
        ring = [(cx + r * math.cos(k * turn), cy + r * math.sin(k * turn)) for k in range(points)]
        walls = self._reach_walls(area_id)
        if not walls:
            return [ring]
        far = 2 * r + 1  # past the rim, wherever the wall's ends are
        shadows = []
        for ax, ay, bx, by, *_ in walls:
            # The wedge from the centre through the wall's ends (the short way round)
            # beyond the wall, its far edge an arc: a wedge near a half-turn needs one.
            start = math.atan2(ay - cy, ax - cx)
            turn = (math.atan2(by - cy, bx - cx) - start + math.pi) % math.tau - math.pi
            arc = [
                (
                    cx + far * math.cos(start + turn * k / 16),
                    cy + far * math.sin(start + turn * k / 16),
                )
                for k in range(17)
            ]
            shadows.append(Polygon([(ax, ay), *arc, (bx, by)]).buffer(0))
        lit = Polygon(ring).difference(unary_union(shadows))
        rings: list[list[Point]] = []
        for part in getattr(lit, "geoms", [lit]):
            if part.is_empty:
                continue
            for boundary in (part.exterior, *part.interiors):
                rings.append([(float(x), float(y)) for x, y in boundary.coords[:-1]])
        return rings

    def _reach_walls(self, area_id: str) -> list[Shade]:
        """The walls blocking reach that come inside region ``area_id`` (only they can
        stand between its centre and a point of it) as seen from its centre
        (:func:`geometry.reach_shadows.shades`), kept per region."""
        if self._shading_version != self.walls.version:
            self._shading.clear()
            self._shading_version = self.walls.version
        found = self._shading.get(area_id)
        if found is None:
            cx, cy, _, r = self._regions[area_id]
            near = self.wall_buckets.blocking_within((cx, cy), r, BlockMode.REACH)
            found = shades((cx, cy), r, near)
            self._shading[area_id] = found
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
        is the length in three dimensions; terrain prices a segment that stays on the
        ground (elevation 0 or below at both ends: :meth:`TerrainMap.segment_cost`), and
        one that leaves it flies over the terrain."""
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
            if self.terrain is None or heights[i] > 0 or heights[i + 1] > 0:
                # In the air the token flies over the terrain (as on a grid).
                cost += math.hypot(q[0] - p[0], q[1] - p[1], climb)
            else:
                cost += self.terrain.segment_cost(p, q) + climb
        return GridlessResolution(cost, blocked, tuple(self._exits(waypoints, heights, ignore)))


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
