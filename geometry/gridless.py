"""Gridless scenes: continuous positions, Euclidean distance, circular tokens.

A token is a disc (:class:`Disc`) of ``radius`` around its centre; its reach area is the
disc grown by its reach.  A path is a list of waypoints joined by straight segments; its
cost is each segment's length, or with terrain each piece's length times that terrain's
multiplier (:meth:`geometry.terrain.TerrainMap.segment_cost`).

Walls block a disc by its width (:func:`disc_blocked`): a disc of radius ``r`` moving from
``p`` to ``q`` is blocked when a wall blocking in the mode asked comes closer than ``r``
to the segment ``p``-``q``, so a token of diameter ``d`` cannot pass a gap narrower than
``d`` nor brush past a wall's end closer than ``r``.  Exactly ``r`` away (a gap exactly
``d`` wide, a corner just touched) is not blocked; distances are compared with a
tolerance of 1e-9 units.  A wall the disc already overlaps at ``p`` (a token placed
clipping a wall) blocks only when the centre line meets it under the rule of
:mod:`geometry.walls`, so the token can step away.  With radius 0 this is exactly
:meth:`WallSet.segment_blocked`.

Crossings use the footprint swept along the path: the disc overlaps an area exactly when
its centre lies inside the area grown by ``radius``, so the enter and leave points are
where the path's centre line crosses the boundary of that grown area; a path only
touching it is not a crossing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from geometry.errors import GeometryError
from geometry.path import Crossing, CrossingKind
from geometry.square import Point
from geometry.terrain import TerrainMap
from geometry.walls import BlockMode, WallSet


@dataclass(frozen=True, slots=True)
class GridlessScene:
    """A rectangle ``width`` x ``height`` in ``unit``; positions are any points inside."""

    width: float
    height: float
    unit: str = "m"

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise GeometryError(f"scene must have a positive size, got {self.width}x{self.height}")

    def contains(self, point: Point) -> bool:
        """Whether ``point`` lies in the scene."""
        return 0 <= point[0] <= self.width and 0 <= point[1] <= self.height

    def require(self, point: Point) -> None:
        """Raise :class:`GeometryError` unless ``point`` lies in the scene."""
        if not self.contains(point):
            raise GeometryError(f"point {point} is outside the {self.width}x{self.height} scene")

    def distance(self, a: Point, b: Point) -> float:
        """Straight-line distance."""
        return math.dist(a, b)


@dataclass(frozen=True, slots=True)
class Disc:
    """A round token: ``radius`` around ``center``."""

    center: Point
    radius: float

    def __post_init__(self) -> None:
        if not self.radius > 0:
            raise GeometryError(f"token radius must be positive, got {self.radius!r}")

    def polygon(self) -> Polygon:
        """The disc as a polygon."""
        shape = ShapelyPoint(self.center).buffer(self.radius, quad_segs=16)
        assert isinstance(shape, Polygon)
        return shape

    def reach_area(self, reach: float) -> Polygon:
        """The area it can melee into: the disc grown by ``reach``."""
        if reach < 0:
            raise GeometryError(f"reach must not be negative, got {reach!r}")
        shape = ShapelyPoint(self.center).buffer(self.radius + reach, quad_segs=16)
        assert isinstance(shape, Polygon)
        return shape


_TOLERANCE = 1e-9


def disc_blocked(
    walls: WallSet, p: Point, q: Point, radius: float, mode: BlockMode = BlockMode.MOVE
) -> bool:
    """Whether walls block a disc of ``radius`` moving straight from ``p`` to ``q`` (above)."""
    if radius < 0 or not math.isfinite(radius):
        raise GeometryError(f"disc radius must be a finite number >= 0, got {radius!r}")
    if radius == 0 or not len(walls):
        return walls.segment_blocked(p, q, mode)
    sweep = LineString([p, q]) if p != q else ShapelyPoint(p)
    near = walls.tree.query(sweep, predicate="dwithin", distance=radius)
    near = near[walls.mask(mode)[near]]
    if not len(near):
        return False
    geoms = walls.geoms[near]
    close = shapely.distance(sweep, geoms) < radius - _TOLERANCE
    if not bool(close.any()):
        return False
    clipping = shapely.distance(ShapelyPoint(p), geoms) < radius - _TOLERANCE
    if bool((close & ~clipping).any()):
        return True
    # Only walls the disc starts on: the centre-line rule decides.
    return walls.segment_blocked(p, q, mode)


def path_cost(
    scene: GridlessScene,
    waypoints: Sequence[Point],
    *,
    walls: WallSet | None = None,
    terrain: TerrainMap | None = None,
    radius: float = 0.0,
) -> float:
    """Validate a waypoint path and return its cost; raises on a wall or leaving the scene.

    ``radius`` is the moving token's: walls block it by its width (:func:`disc_blocked`).
    """
    if len(waypoints) < 2:
        raise GeometryError("a path needs a start point and at least one more waypoint")
    for p in waypoints:
        scene.require(p)
    total = 0.0
    for i, (p, q) in enumerate(pairwise(waypoints)):
        if walls is not None and disc_blocked(walls, p, q, radius):
            width = f" for a token of radius {radius}" if radius else ""
            raise GeometryError(f"segment {i} from {p} to {q} is blocked by a wall{width}")
        total += terrain.segment_cost(p, q) if terrain is not None else math.dist(p, q)
    return total


def crossings(
    waypoints: Sequence[Point],
    areas: Mapping[str, BaseGeometry],
    *,
    radius: float = 0.0,
) -> list[Crossing]:
    """Every enter and leave of each area by a disc of ``radius`` swept along the path.

    In path order (``step`` is the segment index); starting inside is not an ``enter``.
    """
    if len(waypoints) < 2:
        raise GeometryError("a path needs a start point and at least one more waypoint")
    found: list[tuple[int, float, int, Crossing]] = []
    for order, (area_id, area) in enumerate(areas.items()):
        grown = area.buffer(radius) if radius > 0 else area
        shapely.prepare(grown)
        inside = bool(grown.contains(ShapelyPoint(waypoints[0])))
        for step, (p, q) in enumerate(pairwise(waypoints)):
            if p == q:
                continue
            seg = LineString([p, q])
            hits = seg.intersection(grown.boundary)
            ts = sorted(
                {
                    float(seg.project(ShapelyPoint(c), normalized=True))
                    for c in shapely.get_coordinates(hits)
                }
                | {1.0}
            )
            t_prev = 0.0
            for t in ts:
                if t > t_prev:
                    mid = seg.interpolate((t_prev + t) / 2, normalized=True)
                    now = bool(grown.contains(mid))
                    if now != inside:
                        kind = CrossingKind.ENTER if now else CrossingKind.LEAVE
                        pt = seg.interpolate(t_prev, normalized=True)
                        event = Crossing(area_id, kind, step, (pt.x, pt.y))
                        found.append((step, t_prev, order, event))
                        inside = now
                t_prev = t
    found.sort(key=lambda r: r[:3])
    return [r[3] for r in found]
