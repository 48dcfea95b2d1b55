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
wall that blocks reach (:attr:`BlockMode.REACH`; walls reach the sky, so this is a plane
question).  Where such walls stand near a region, the path is split at every parameter
where the answer may change (the rim's roots, the lines from the centre through each
near wall's ends, the walls themselves) and each piece decided at its middle, so a move
also leaves the threatened area where it steps into a wall's shadow, at the exact point
the shadow's edge crosses the path.

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

from geometry.buckets import WallBuckets, bucket_keys, point_segment_distance
from geometry.errors import GeometryError
from geometry.gridless import GridlessScene
from geometry.square import Point
from geometry.terrain import TerrainMap
from geometry.walls import BlockMode, WallSet

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
        # Per region, the walls blocking reach that come inside it, kept until the region
        # moves or a door changes (the wall set's version).
        self._shading: dict[str, list[SideWall]] = {}
        self._shading_version = self.walls.version
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
        self._shading.pop(area_id, None)
        self._file(area_id, add=True)

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
            shading = self._reach_walls(area_id) if len(self.walls) else ()
            if shading:
                behind = self._exit_past_walls(area_id, xs, ys, heights, shading)
                if behind is not None:
                    found.append(behind)
                continue
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
        for ax, ay, bx, by, _ in walls:
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

    def _reach_walls(self, area_id: str) -> list[SideWall]:
        """The walls blocking reach that come inside region ``area_id`` (only they can
        stand between its centre and a point of it), kept per region: each as its ends'
        coordinates and the side of its line the centre is on (a cross product's sign).
        """
        if self._shading_version != self.walls.version:
            self._shading.clear()
            self._shading_version = self.walls.version
        found = self._shading.get(area_id)
        if found is None:
            cx, cy, _, r = self._regions[area_id]
            centre = (cx, cy)
            buckets = self.wall_buckets
            mask = buckets._mask(BlockMode.REACH)
            ends = buckets._ends
            found = [
                (ax, ay, bx, by, (bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
                for i in sorted(buckets.near(centre, centre, r))
                if mask[i] and point_segment_distance(centre, *ends[i]) < r
                for (ax, ay), (bx, by) in (ends[i],)
            ]
            self._shading[area_id] = found
        return found

    def _exit_past_walls(
        self,
        area_id: str,
        xs: Sequence[float],
        ys: Sequence[float],
        heights: Sequence[float],
        sides: Sequence[SideWall],
    ) -> PointExit | None:
        """The first point where the path stops being threatened by ``area_id`` when
        walls may cut its reach (module docstring), or None.  Only the part of each
        segment inside the ball is split: outside it nothing is threatened."""
        region = self._regions[area_id]
        cx, cy = region[0], region[1]
        centre = (cx, cy)

        # At the first waypoint the mover stands where it starts (the rim included).
        state = _inside(region, xs[0], ys[0], heights[0]) and _lit(cx, cy, xs[0], ys[0], sides)
        for step in range(len(xs) - 1):
            px, py, pz = xs[step], ys[step], heights[step]
            dx, dy, dz = xs[step + 1] - px, ys[step + 1] - py, heights[step + 1] - pz
            if dx == 0 and dy == 0 and dz == 0:
                continue
            roots = _ball_roots(region, px, py, pz, dx, dy, dz)
            t_in = max(roots[0], 0.0) if roots else 1.0
            t_out = min(roots[1], 1.0) if roots else 0.0
            if t_out - t_in <= _T_TOLERANCE:  # misses the ball, or only touches it
                if state:
                    return PointExit(area_id, step, (px, py), pz, 0.0)
                continue
            if state and t_in > _T_TOLERANCE:  # out of the ball before coming back in
                return PointExit(area_id, step, (px, py), pz, 0.0)
            # Only a wall with a part of the chord in the ball beyond its line (from the
            # centre) can shadow it: the chord's ends tell, as the chord is straight.
            x0, y0, x1, y1 = px + dx * t_in, py + dy * t_in, px + dx * t_out, py + dy * t_out
            near = [w for w in sides if _behind(x0, y0, w) or _behind(x1, y1, w)]
            cuts = {t_in, t_out}
            for ax, ay, bx, by, _ in near:
                a, b = (ax, ay), (bx, by)
                cuts.update(_line_hits(px, py, dx, dy, a, b))  # the wall itself
                for end in (a, b):  # the edges of its shadow
                    cuts.update(_ray_hits(px, py, dx, dy, centre, end))
            ts = sorted(t for t in cuts if t_in <= t <= t_out)
            for t0, t1 in pairwise(ts):
                if t1 - t0 <= _T_TOLERANCE:
                    continue
                mid = (t0 + t1) / 2
                now = _lit(cx, cy, px + dx * mid, py + dy * mid, near)
                if state and not now:
                    return PointExit(area_id, step, (px + dx * t0, py + dy * t0), pz + dz * t0, t0)
                state = now
            if state and t_out < 1 - _T_TOLERANCE:  # leaves the ball lit
                return PointExit(
                    area_id, step, (px + dx * t_out, py + dy * t_out), pz + dz * t_out, t_out
                )
            if t_out < 1 - _T_TOLERANCE:
                state = False
        return None

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
                cost += self.terrain.segment_cost(p, q)
        return GridlessResolution(
            cost, blocked, tuple(self.exits(waypoints, heights, ignore=ignore))
        )


#: A wall as the wall path keeps it: its ends' coordinates and the side of its line a
#: region's centre is on (the sign of a cross product).
SideWall = tuple[float, float, float, float, float]


def _behind(x: float, y: float, wall: SideWall) -> bool:
    """Whether (x, y) is on the other side of the wall's line from the region's centre."""
    ax, ay, bx, by, side_c = wall
    side = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
    return side != 0 and side_c != 0 and (side > 0) != (side_c > 0)


def _lit(cx: float, cy: float, x: float, y: float, walls: Sequence[SideWall]) -> bool:
    """Whether the line from the centre (cx, cy) to (x, y) crosses none of ``walls``
    (:func:`geometry.buckets.segments_cross`, unrolled: the hot loop of the wall path)."""
    for ax, ay, bx, by, side_c in walls:
        side = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if side == 0 or side_c == 0 or (side > 0) == (side_c > 0):
            continue
        ux, uy = x - cx, y - cy
        if (ux * (ay - cy) - uy * (ax - cx)) * (ux * (by - cy) - uy * (bx - cx)) < 0:
            return False
    return True


def _ball_roots(
    region: tuple[float, float, float, float],
    px: float, py: float, pz: float, dx: float, dy: float, dz: float,
) -> tuple[float, ...]:  # fmt: skip
    """Where the segment ``p + t d`` meets the rim of the ball ``region``."""
    cx, cy, cz, r = region
    ox, oy, oz = px - cx, py - cy, pz - cz
    a = dx * dx + dy * dy + dz * dz
    b = dx * ox + dy * oy + dz * oz
    disc = b * b - a * (ox * ox + oy * oy + oz * oz - r * r)
    if a == 0 or disc <= 0:
        return ()
    half = math.sqrt(disc) / a
    return (-b / a - half, -b / a + half)


def _crossing(
    px: float, py: float, dx: float, dy: float, origin: Point, toward: Point
) -> tuple[float, float] | None:
    """Where the segment ``p + t d`` meets the line ``origin + u (toward - origin)``, as
    ``(t, u)``, or None when they are parallel."""
    ex, ey = toward[0] - origin[0], toward[1] - origin[1]
    denom = dx * ey - dy * ex
    if denom == 0:
        return None
    ox, oy = origin[0] - px, origin[1] - py
    return (ox * ey - oy * ex) / denom, (ox * dy - oy * dx) / denom


def _line_hits(px: float, py: float, dx: float, dy: float, a: Point, b: Point) -> tuple[float, ...]:
    """Where the segment ``p + t d`` crosses the segment ``a``-``b``, as ``t``."""
    hit = _crossing(px, py, dx, dy, a, b)
    return (hit[0],) if hit is not None and 0.0 <= hit[1] <= 1.0 else ()


def _ray_hits(
    px: float, py: float, dx: float, dy: float, centre: Point, end: Point
) -> tuple[float, ...]:
    """Where the segment ``p + t d`` crosses the ray from ``centre`` through ``end``
    (the edge of the shadow a wall ending at ``end`` casts), as ``t``."""
    hit = _crossing(px, py, dx, dy, centre, end)
    return (hit[0],) if hit is not None and hit[1] >= 0.0 else ()


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
