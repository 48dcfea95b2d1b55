"""Threatened regions on a gridless scene and where a waypoint move leaves them, exactly.

A region is a ball: the points within ``radius`` of a centre at an elevation (a token's
reach around its disc, grown as its ruleset counts it: the caller decides the radius).
On the ground (every elevation 0) a ball is a disc and this is plane geometry.  A move
is a list of waypoints joined by straight segments, each waypoint with an elevation
(linear in between: a flight climbs along the segment), and the mover is the point its
centre follows; a caller that counts the mover's width grows the radii by it.

:meth:`GridlessThreats.resolve` answers one move: its length (or terrain cost), the first
segment a wall blocks for a disc of the mover's radius (:func:`geometry.gridless.disc_blocked`)
and, for every region the path is inside at some point, the first point where it leaves
it (:class:`PointExit`), in path order.  A segment meets a ball in one interval, so the
leave is the larger root of ``|P + t (Q - P) - C|^2 = R^2``: exact, not a polygon's
approximation.  Touching a region (a tangent, a path ending on its rim) is not leaving
it; a path starting on the rim and moving out leaves it at its start.

All regions are held in numpy arrays and every question is vectorised over the regions
near the path's bounding box, so one move costs tens of microseconds whatever the
number of tokens (``python -m bench.gridless``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from geometry.errors import GeometryError
from geometry.gridless import GridlessScene, disc_blocked
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
    """The threatened regions of one gridless scene, kept as arrays (module docstring)."""

    def __init__(
        self,
        scene: GridlessScene,
        walls: WallSet | None = None,
        terrain: TerrainMap | None = None,
    ) -> None:
        self.scene = scene
        self.walls = walls if walls is not None else WallSet()
        self.terrain = terrain
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._xyz = np.empty((0, 3))
        self._radius = np.empty(0)

    def __len__(self) -> int:
        return len(self._ids)

    def set_region(
        self, area_id: str, center: Point, radius: float, elevation: float = 0.0
    ) -> None:
        """Add region ``area_id`` or move and resize it."""
        if not (math.isfinite(radius) and radius >= 0):
            raise GeometryError(f"region radius must be a finite number >= 0, got {radius!r}")
        if not math.isfinite(elevation):
            raise GeometryError(f"elevation must be a finite number, got {elevation!r}")
        self.scene.require(center)
        row = self._row.get(area_id)
        if row is None:
            self._row[area_id] = len(self._ids)
            self._ids.append(area_id)
            self._xyz = np.vstack([self._xyz, (center[0], center[1], elevation)])
            self._radius = np.append(self._radius, radius)
        else:
            self._xyz[row] = (center[0], center[1], elevation)
            self._radius[row] = radius

    def remove_region(self, area_id: str) -> None:
        """Forget region ``area_id``."""
        row = self._row.pop(area_id, None)
        if row is None:
            raise GeometryError(f"no region {area_id!r}")
        del self._ids[row]
        self._xyz = np.delete(self._xyz, row, axis=0)
        self._radius = np.delete(self._radius, row)
        for i in range(row, len(self._ids)):
            self._row[self._ids[i]] = i

    def region(self, area_id: str) -> tuple[Point, float, float]:
        """Region ``area_id`` as ``(center, radius, elevation)``."""
        row = self._row.get(area_id)
        if row is None:
            raise GeometryError(f"no region {area_id!r}")
        x, y, z = self._xyz[row]
        return (float(x), float(y)), float(self._radius[row]), float(z)

    def regions_at(self, point: Point, elevation: float = 0.0) -> list[str]:
        """The regions containing ``point`` at ``elevation`` (the rim included)."""
        d = self._xyz - (point[0], point[1], elevation)
        inside = np.einsum("ij,ij->i", d, d) <= (self._radius + 1e-9) ** 2
        return [self._ids[i] for i in np.flatnonzero(inside)]

    def exits(
        self,
        waypoints: Sequence[Point],
        elevations: Sequence[float] | None = None,
        *,
        ignore: str | None = None,
    ) -> list[PointExit]:
        """Every region's first exit along the path, in path order (module docstring);
        ``ignore`` names the mover's own region."""
        pts = _path_array(waypoints, elevations)
        if not self._ids:
            return []
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        radius = self._radius
        # Regions whose ball can meet the path's bounding box: a cheap cut before the maths.
        gap = np.maximum(lo - self._xyz, 0.0) + np.maximum(self._xyz - hi, 0.0)
        near = np.flatnonzero(np.einsum("ij,ij->i", gap, gap) <= radius * radius)
        if ignore is not None and ignore in self._row:
            near = near[near != self._row[ignore]]
        if not len(near):
            return []
        start, delta = pts[:-1], np.diff(pts, axis=0)  # (S, 3)
        offset = start[None, :, :] - self._xyz[near][:, None, :]  # (N, S, 3)
        a = np.einsum("sk,sk->s", delta, delta)  # (S,)
        b = np.einsum("sk,nsk->ns", delta, offset)  # half of the usual b
        c = np.einsum("nsk,nsk->ns", offset, offset) - (radius[near] ** 2)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            half = np.sqrt(np.maximum(b * b - a * c, 0.0)) / a
            t_in, t_out = -b / a - half, -b / a + half
        # A crossing, not a touch: the segment's line runs inside for a positive length.
        through = (a > 0) & (half > _T_TOLERANCE / 2)
        leaves = through & (t_out >= -_T_TOLERANCE) & (t_out < 1 - _T_TOLERANCE)
        # Leaving at a waypoint (t = 0) needs to have been inside before it: on the first
        # segment the mover stands there; later, the previous segment ran inside to its end.
        at_start = t_out <= _T_TOLERANCE
        ran_in = through & (t_in < 1 - _T_TOLERANCE) & (t_out >= 1 - _T_TOLERANCE)
        was_in = np.ones_like(leaves)
        was_in[:, 1:] = ran_in[:, :-1]
        leaves &= ~at_start | was_in
        rows = np.flatnonzero(leaves.any(axis=1))
        if not len(rows):
            return []
        steps = leaves[rows].argmax(axis=1)
        ts = np.clip(t_out[rows, steps], 0.0, 1.0)
        where = start[steps] + delta[steps] * ts[:, None]
        order = np.lexsort((ts, steps))
        ids = self._ids
        return [
            PointExit(
                ids[int(near[rows[i]])],
                int(steps[i]),
                (float(where[i, 0]), float(where[i, 1])),
                float(where[i, 2]),
                float(ts[i]),
            )
            for i in order
        ]

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
        for i, (p, q) in enumerate(pairwise(waypoints)):
            if blocked is None and len(self.walls) and disc_blocked(self.walls, p, q, radius):
                blocked = i
            climb = abs(heights[i + 1] - heights[i])
            flat = self.terrain.segment_cost(p, q) if self.terrain is not None else math.dist(p, q)
            cost += math.hypot(flat, climb) if self.terrain is None else flat + climb
        return GridlessResolution(
            cost, blocked, tuple(self.exits(waypoints, heights, ignore=ignore))
        )


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


def _path_array(
    waypoints: Sequence[Point], elevations: Sequence[float] | None
) -> NDArray[np.float64]:
    if len(waypoints) < 2:
        raise GeometryError("a path needs a start point and at least one more waypoint")
    heights = _heights(waypoints, elevations)
    return np.array([(p[0], p[1], z) for p, z in zip(waypoints, heights, strict=True)])
