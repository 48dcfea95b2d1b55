"""Paths of cells: tracing waypoints, validation, cost, and crossings of areas.

A path is the mover's start position followed by the positions it steps through, each
one legal step from the one before; a position is the origin cell of the mover's
footprint (the top-left cell of a square token, the anchor hex of a hex token).

* "Moving out of a square you threaten" (seed 000, attacks of opportunity) happens at
  every step that leaves a cell of the area: for a one-cell mover, every step whose
  starting cell is in it.  :func:`first_exits` reports the first such step per area.
* Entering and leaving an area as a whole (:func:`crossings`): the mover is in an area
  at a position when a cell of its footprint is in it; every step where that changes is
  an ``enter`` or ``leave``, in path order, so a path that passes through an area and out
  again is caught even though it ends outside.  A step that only grazes an area's corner
  (a diagonal step past it) changes nothing and is not a crossing.
* The exact point of a crossing is where the footprint's centre crosses the boundary of
  the area grown by the footprint's extent minus one cell.  On square and hex grids that
  boundary always lies halfway between two positions, so the point is the step's
  midpoint; the tests check this against shapely.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from itertools import pairwise
from typing import NamedTuple

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.hexgrid import HexGrid
from geometry.square import Cell, Point
from geometry.steps import StepBlocker
from geometry.terrain import TerrainMap
from geometry.walls import BlockMode, WallSet


class AreaExit(NamedTuple):
    """The first step at which a path moves out of a cell of the area ``area_id``.

    ``step`` is the index of the step (0 = from ``path[0]`` to ``path[1]``), ``cell`` the
    cell being left and ``point`` where the path's centre line crosses out of it.

    A named tuple, like :class:`Crossing`: read its fields by name; a busy move reports
    many of these and a tuple is several times cheaper to build than a frozen dataclass.
    """

    area_id: str
    step: int
    cell: Cell
    point: Point


class CrossingKind(Enum):
    """Whether a path goes into an area or out of it."""

    ENTER = "enter"
    LEAVE = "leave"


class Crossing(NamedTuple):
    """The path enters or leaves area ``area_id`` during step ``step``, at ``point``.

    A named tuple rather than a dataclass: a busy move reports dozens of these and
    building a tuple is several times cheaper than a frozen dataclass.
    """

    area_id: str
    kind: CrossingKind
    step: int
    point: Point


def _need_steps(path: Sequence[Cell]) -> None:
    if len(path) < 2:
        raise GeometryError("a path needs a start cell and at least one step")


def translate(grid: Grid, cells: frozenset[Cell], a: Cell, b: Cell) -> dict[Cell, Cell]:
    """Map each cell of a footprint at origin ``a`` to the same cell at origin ``b``."""
    if isinstance(grid, HexGrid):
        qa, ra, _ = grid.to_cube(a)
        qb, rb, _ = grid.to_cube(b)
        dq, dr = qb - qa, rb - ra
        out = {}
        for c in cells:
            q, r, _ = grid.to_cube(c)
            out[c] = grid.from_cube((q + dq, r + dr, -q - dq - r - dr))
        return out
    dx, dy = b[0] - a[0], b[1] - a[1]
    return {c: (c[0] + dx, c[1] + dy) for c in cells}


def step_blocked(grid: Grid, walls: WallSet | StepBlocker, a: Cell, b: Cell) -> bool:
    """Whether walls block the single-cell step ``a`` to ``b`` (rule in :mod:`geometry.steps`)."""
    if isinstance(walls, StepBlocker):
        return walls.blocked(a, b)
    mode = BlockMode.MOVE
    if walls.segment_blocked(grid.center(a), grid.center(b), mode):
        return True
    sides = grid.detours(a, b)
    if sides is None:
        return False
    return all(
        walls.segment_blocked(grid.center(a), grid.center(s), mode)
        or walls.segment_blocked(grid.center(s), grid.center(b), mode)
        for s in sides
    )


def validate_path(
    grid: Grid,
    path: Sequence[Cell],
    *,
    walls: WallSet | StepBlocker | None = None,
    terrain: TerrainMap | None = None,
    size: int = 1,
    occupied: frozenset[Cell] | None = None,
) -> float:
    """Check a path and return its cost in distance units.

    Raises :class:`GeometryError` when a footprint cell leaves the grid, a step is not
    one legal step, a wall blocks a step of any footprint cell (``walls``), or the final
    footprint overlaps ``occupied``.  The cost is each step's cost under the diagonal rule
    (counting diagonals from the start) times the most expensive terrain under the
    footprint stepped into (``terrain``).
    """
    _need_steps(path)
    feet = [grid.footprint(p, size) for p in path]
    for position, cells in zip(path, feet, strict=True):
        for cell in cells:
            if not grid.contains(cell):
                raise GeometryError(
                    f"position {position} puts cell {cell} off the {grid.width}x{grid.height} grid"
                )
    total = 0.0
    diagonals = 0
    for i, (a, b) in enumerate(pairwise(path)):
        cost = grid.step_cost(a, b, diagonals_before=diagonals)
        if grid.detours(a, b) is not None:
            diagonals += 1
        if walls is not None:
            for f, g in translate(grid, feet[i], a, b).items():
                if step_blocked(grid, walls, f, g):
                    raise GeometryError(f"step {i} from {a} to {b} is blocked by a wall at {f}")
        if terrain is not None:
            cost *= terrain.footprint_multiplier(feet[i + 1])
        total += cost
    if occupied is not None and feet[-1] & occupied:
        raise GeometryError(f"path ends at {path[-1]}, on occupied cells")
    return total


def exit_point(grid: Grid, a: Cell, b: Cell) -> Point:
    """Where the straight step from the centre of ``a`` to the centre of ``b`` leaves ``a``."""
    segment = LineString([grid.center(a), grid.center(b)])
    crossing = segment.intersection(grid.cell_polygon(a).exterior)
    if isinstance(crossing, ShapelyPoint):
        return (crossing.x, crossing.y)
    # A step along a cell edge cannot happen between centres; keep a defined answer anyway.
    return grid.center(b)  # pragma: no cover


def step_midpoint(grid: Grid, a: Cell, b: Cell, size: int = 1) -> Point:
    """The midpoint of the footprint centres at origins ``a`` and ``b``: a crossing's point."""
    pa, pb = grid.footprint_center(a, size), grid.footprint_center(b, size)
    return ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)


def first_exits(
    grid: Grid,
    path: Sequence[Cell],
    areas: Mapping[str, frozenset[Cell]],
    *,
    size: int = 1,
) -> list[AreaExit]:
    """For each area, the first step that moves out of one of its cells, in path order.

    A step moves out of the cells its footprint covers before the step and not after.
    Ties on the same step keep the order of ``areas``.  Areas the path never moves out of
    are absent.
    """
    _need_steps(path)
    found: list[AreaExit] = []
    feet = [grid.footprint(p, size) for p in path] if size != 1 else None
    for area_id, cells in areas.items():
        for step, (a, b) in enumerate(pairwise(path)):
            if feet is None:
                if a in cells:
                    found.append(AreaExit(area_id, step, a, exit_point(grid, a, b)))
                    break
                continue
            left = (feet[step] - feet[step + 1]) & cells
            if left:
                point = step_midpoint(grid, a, b, size)
                found.append(AreaExit(area_id, step, min(left), point))
                break
    found.sort(key=lambda e: e.step)
    return found


def crossings(
    grid: Grid,
    path: Sequence[Cell],
    areas: Mapping[str, frozenset[Cell]],
    *,
    size: int = 1,
) -> list[Crossing]:
    """Every time the path's footprint enters or leaves each area, in path order.

    Starting inside an area is not an ``enter``.  Events on the same step keep the
    order of ``areas``, a leave before an enter.
    """
    _need_steps(path)
    feet = [grid.footprint(p, size) for p in path]
    found: list[tuple[int, int, int, Crossing]] = []
    for order, (area_id, cells) in enumerate(areas.items()):
        inside = [not f.isdisjoint(cells) for f in feet]
        for step in range(len(path) - 1):
            if inside[step] != inside[step + 1]:
                kind = CrossingKind.LEAVE if inside[step] else CrossingKind.ENTER
                point = step_midpoint(grid, path[step], path[step + 1], size)
                rank = 0 if kind is CrossingKind.LEAVE else 1
                found.append((step, rank, order, Crossing(area_id, kind, step, point)))
    found.sort(key=lambda t: t[:3])
    return [t[3] for t in found]
