"""A gridless scene as the engine plays it: discs at points, reach as balls, moves as
waypoints (the board :mod:`engine.movement` asks when the scene has no cells).

The scene is ``width`` x ``height`` cells of ``cell_size`` in size (a Foundry gridless
scene keeps its grid size and distance), so ``width * cell_size`` units across.  A
token stands at the point of its centre and is a disc ``size`` cells across.

Reach counts as it does on a grid of the scene's cell size, so the same fight plays
alike with and without the grid.  On a grid a token threatens the cells within its
reach of its footprint, and a mover is threatened while one of its cells is; gridless,
a mover is within ``threatener``'s reach while its centre lies within
``reach + (size_t + size_m - 1) * cell_size / 2`` of the threatener's centre, measured
in three dimensions from the two elevations (:func:`reach_radius`).  For two one-cell
tokens that is the threatener's disc grown by its reach, reaching the mover's centre:
along a row of cell centres it is left exactly where the grid's threatened squares
end; across a diagonal the ball is round where a grid counting diagonals as one square
is square, which is what a table playing without a grid expects.  As on a grid, nobody
reaches through a wall: the line from the threatener's centre to the mover's must cross
no wall that blocks reach, so a move also leaves a reach where it steps into a wall's
shadow (:mod:`geometry.gridless_threat`).

A move is the straight segments between its waypoints.  It costs its length in three
dimensions, with terrain pricing the ground part (:class:`geometry.GridlessThreats`);
walls block the mover by its width (:func:`geometry.gridless.disc_blocked`); it may
pass allies but no enemy (its disc may not overlap an enemy's anywhere along the way)
and may not end overlapping anyone.  Where it leaves a threatener's ball is the exact
point :meth:`geometry.gridless_threat.GridlessThreats.exits` finds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple

from shapely.geometry import box
from shapely.ops import unary_union

from engine.model import Combatant, Position, Scene
from geometry import BlockMode, GeometryError, Point, TerrainMap, WallSet
from geometry.buckets import point_segment_distance
from geometry.gridless import GridlessScene, crossings
from geometry.gridless_threat import GridlessThreats
from geometry.path import CrossingKind

#: Distances closer than this count as touching, not overlapping (scene units).
TOLERANCE = 1e-9
#: How finely :meth:`GridlessBoard.first_seen` samples a path, in cells: a sight line
#: opening between two samples is found at the later one.
SIGHT_SAMPLES_PER_CELL = 8


class GridlessExit(NamedTuple):
    """Where a gridless move leaves ``area_id``'s reach: during segment ``step``, standing
    on ``cell`` (the exit point itself: there is no cell to stand on) at ``point`` and
    ``elevation``, ``t`` of the way along that segment.  Read by name like
    :class:`geometry.AreaExit`."""

    area_id: str
    step: int
    cell: Position
    point: Point
    t: float
    elevation: float


class GridlessMove(NamedTuple):
    """One gridless move resolved: its ``cost``, the first segment a wall blocks (or
    None) and every threatener's first exit in path order."""

    cost: float
    blocked_step: int | None
    exits: tuple[GridlessExit, ...]


def centre(token: Combatant) -> Point:
    """The point ``token`` stands on (its centre)."""
    return (float(token.x), float(token.y))


def heights_meet(low: float, high: float, other: Combatant, cell_size: float) -> bool:
    """Whether a token whose base lies between ``low`` and ``high`` (and which is as tall
    as it is wide, ``size`` cells) overlaps ``other`` in height, likewise as tall as
    wide: one wholly above or below another is no obstacle to it."""
    return low < other.elevation + other.size * cell_size - TOLERANCE and (
        high > other.elevation + TOLERANCE
    )


def reach_radius(threatener: Combatant, mover_size: int, cell_size: float) -> float:
    """How far from ``threatener``'s centre a mover ``mover_size`` cells across is within
    its reach (module docstring)."""
    return threatener.reach + (threatener.size + mover_size - 1) * cell_size / 2


class GridlessBoard:
    """The geometry of one gridless scene: walls, terrain, and every token's reach
    (filed per mover size, since reach counts the mover's width)."""

    def __init__(self, scene: Scene, walls: WallSet, terrain: TerrainMap | None) -> None:
        grid = scene.grid
        self.cell_size = grid.cell_size
        self.unit = grid.unit
        self.plane = GridlessScene(grid.width * grid.cell_size, grid.height * grid.cell_size)
        self.walls = walls
        self.terrain = terrain
        self._tokens = {t.id: t for t in scene.tokens}
        self._threats: dict[int, GridlessThreats] = {}

    def radius(self, token: Combatant) -> float:
        """The radius of ``token``'s disc."""
        return token.size * self.cell_size / 2

    def token(self, token_id: str) -> Combatant:
        """The token as the board holds it."""
        return self._tokens[token_id]

    def threats(self, mover_size: int) -> GridlessThreats:
        """Every token's reach against a mover ``mover_size`` cells across."""
        found = self._threats.get(mover_size)
        if found is None:
            found = GridlessThreats(
                self.plane, self.walls, self.terrain, bucket=max(4.0, 2 * self.cell_size)
            )
            for token in self._tokens.values():
                self._file(found, token, mover_size)
            self._threats[mover_size] = found
        return found

    def _file(self, threats: GridlessThreats, token: Combatant, mover_size: int) -> None:
        radius = reach_radius(token, mover_size, self.cell_size)
        threats.set_region(token.id, centre(token), radius, token.elevation)

    def moved(self, token: Combatant) -> None:
        """Follow ``token`` to where it stands now."""
        self._tokens[token.id] = token
        for size, threats in self._threats.items():
            self._file(threats, token, size)

    def set_door(self, wall_id: str, is_open: bool) -> None:
        """Open or close a door."""
        self.walls.set_door(wall_id, is_open)

    # -- questions -----------------------------------------------------------------------

    def in_reach(self, attacker: Combatant, target: Combatant, at: Point | None = None) -> bool:
        """Whether ``target`` is within ``attacker``'s reach (standing at ``at``, or where
        it stands), in three dimensions, and no wall blocking reach stands between their
        centres (nobody reaches through a wall, as on grids)."""
        ax, ay = at if at is not None else centre(attacker)
        tx, ty = centre(target)
        gap = math.hypot(tx - ax, ty - ay, target.elevation - attacker.elevation)
        if gap > reach_radius(attacker, target.size, self.cell_size) + TOLERANCE:
            return False
        return not self.walls.segment_blocked((ax, ay), (tx, ty), BlockMode.REACH)

    def adjacent(self, a: Combatant, b: Combatant) -> bool:
        """Whether ``a`` and ``b`` stand as close as neighbouring cells do: within a
        reach of one cell of each other (the grid's adjacency, gridless)."""
        gap = math.dist(centre(a), centre(b))
        return gap <= self.cell_size + (a.size + b.size - 1) * self.cell_size / 2 + TOLERANCE

    def sees(self, viewer: Combatant, target: Combatant) -> bool:
        """Whether the line between their centres crosses no wall that blocks sight."""
        return not self.walls.segment_blocked(centre(viewer), centre(target), BlockMode.SIGHT)

    def distance(self, a: Combatant, b: Combatant) -> float:
        """Centre to centre on the ground (a ranged attack's range)."""
        return math.dist(centre(a), centre(b))

    # -- moves ---------------------------------------------------------------------------

    def walkable(
        self,
        mover: Combatant,
        path: Sequence[Position],
        areas: bool = True,
        heights: Sequence[float] = (),
    ) -> tuple[str | None, GridlessMove | None]:
        """Why ``mover`` cannot go along ``path`` (start first), or its resolution;
        ``areas=False`` leaves the exits out.  ``heights`` is a flight's elevation at
        each point (empty: ``mover``'s own all along): the cost and the reach then count
        in three dimensions, and walls block at any height (they reach the sky)."""
        points = [(float(x), float(y)) for x, y in path]
        for i, p in enumerate(points[1:], start=1):
            if not self.plane.contains(p):
                return (
                    f"waypoint {i} ({p[0]:g}, {p[1]:g}) is off the "
                    f"{self.plane.width:g}x{self.plane.height:g} {self.unit} scene",
                    None,
                )
        levels = list(heights) if heights else [mover.elevation] * len(points)
        threats = self.threats(mover.size)
        try:
            # The exits cost microseconds (geometry.gridless_threat): worked out even
            # when ``areas`` leaves them out, as one pass prices the path.
            resolved = threats.resolve(points, levels, radius=self.radius(mover), ignore=mover.id)
        except GeometryError as exc:
            return str(exc), None
        if resolved.blocked_step is not None:
            a, b = points[resolved.blocked_step], points[resolved.blocked_step + 1]
            width = self.radius(mover) * 2
            return (
                f"a wall blocks ({a[0]:g}, {a[1]:g}) -> ({b[0]:g}, {b[1]:g}) for a token "
                f"{width:g} {self.unit} across",
                None,
            )
        if math.isinf(resolved.cost):
            return "the path crosses impassable terrain", None
        problem = self._tokens_in_the_way(mover, points, levels)
        if problem is not None:
            return problem, None
        exits = tuple(
            GridlessExit(e.area_id, e.step, e.point, e.point, e.t, e.elevation)
            for e in (resolved.exits if areas else ())
        )
        return None, GridlessMove(resolved.cost, resolved.blocked_step, exits)

    def _tokens_in_the_way(
        self, mover: Combatant, points: Sequence[Point], levels: Sequence[float]
    ) -> str | None:
        """Why other tokens bar the path: an enemy's disc overlapped on the way, or
        anyone's where it ends.  Allies are passed through.  A token is as tall as it is
        wide: one the path passes wholly above or below is no obstacle."""
        mine = self.radius(mover)
        end = points[-1]
        for other in self._tokens.values():
            if other.id == mover.id:
                continue
            here, room = centre(other), mine + self.radius(other) - TOLERANCE
            if math.dist(here, end) < room and self._level(mover, other, levels[-1:]):
                return f"the move ends on {other.id!r} at ({here[0]:g}, {here[1]:g})"
            if other.side == mover.side:
                continue
            for i, (p, q) in enumerate(pairwise(points)):
                if p == q or point_segment_distance(here, p, q) >= room:
                    continue
                if self._level(mover, other, levels[i : i + 2]):
                    return f"the path passes through enemy {other.id!r}"
        return None

    def _level(self, mover: Combatant, other: Combatant, levels: Sequence[float]) -> bool:
        """Whether ``mover``, its base somewhere between ``levels``, overlaps ``other`` in
        height (:func:`heights_meet`)."""
        high = max(levels) + mover.size * self.cell_size
        return heights_meet(min(levels), high, other, self.cell_size)

    def later_exit(
        self,
        who: str,
        mover: Combatant,
        path: Sequence[Position],
        after: GridlessExit,
        heights: Sequence[float] = (),
    ) -> GridlessExit | None:
        """The next exit from ``who``'s reach after ``after`` (a move that begins in it
        without provoking provokes when it comes back in and leaves again)."""
        rest = [after.point, *[(float(x), float(y)) for x, y in path[after.step + 1 :]]]
        if len(rest) < 2:
            return None
        levels = [after.elevation, *heights[after.step + 1 :]] if heights else None
        threats = self.threats(mover.size)
        found = threats.exits(rest, levels or [mover.elevation] * len(rest))
        for e in found:
            if e.area_id == who and (e.step > 0 or e.t > 1e-6):
                return GridlessExit(who, after.step + e.step, e.point, e.point, e.t, e.elevation)
        return None

    def first_entry(
        self, mover: Combatant, path: Sequence[Position], area: Iterable[tuple[int, int]]
    ) -> tuple[int, Point] | None:
        """Where ``mover``'s disc first comes onto the squares ``area`` (cells of the
        scene's size: a trigger's area), as (segment, point), or None."""
        size = self.cell_size
        shape = unary_union(
            [box(x * size, y * size, (x + 1) * size, (y + 1) * size) for x, y in area]
        )
        points = [(float(x), float(y)) for x, y in path]
        for crossing in crossings(points, {"area": shape}, radius=self.radius(mover)):
            if crossing.kind is CrossingKind.ENTER:
                return crossing.step, crossing.point
        return None

    def first_seen(
        self, owner: Combatant, mover: Combatant, path: Sequence[Position]
    ) -> tuple[int, Point] | None:
        """Where ``mover`` first comes into ``owner``'s sight along ``path`` having started
        out of it, sampled :data:`SIGHT_SAMPLES_PER_CELL` times a cell (segment, point)."""
        eye = centre(owner)
        points = [(float(x), float(y)) for x, y in path]

        def seen(p: Point) -> bool:
            return not self.walls.segment_blocked(eye, p, BlockMode.SIGHT)

        if seen(points[0]):
            return None
        for step, (p, q) in enumerate(pairwise(points)):
            n = max(1, math.ceil(math.dist(p, q) * SIGHT_SAMPLES_PER_CELL / self.cell_size))
            for k in range(1, n + 1):
                at = (p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n)
                if seen(at):
                    return step, at
        return None
