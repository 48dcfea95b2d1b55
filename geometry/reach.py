"""Reach areas and threatened cells.

The rule for "reach a cell", on every grid kind: a creature of footprint ``F`` and reach
``r`` (distance units, measured from the footprint's edge) threatens cell ``c`` when

1. ``c`` is not in ``F`` and lies on the grid;
2. some footprint cell ``f`` has ``grid.distance(f, c) - cell_size / 2 < r``, i.e. the
   centre of ``c`` is strictly within ``r`` of the edge of ``f`` under the grid's own
   distance (see :mod:`geometry.square` for each diagonal rule, :mod:`geometry.hexgrid`);
3. and, when walls are given, for at least one such ``f`` the reach line from the centre
   of ``f`` to the centre of ``c`` is not blocked by a wall that blocks movement or sight
   (:mod:`geometry.walls`; to an adjacent cell the line is a step, so squeezing diagonally
   between two blocking corners is blocked too).

Because (2) is a minimum over the footprint cells, the rule is the same at every corner
of a large token.  On a square grid with the default ``ONE`` rule it is exactly "the
centre of ``c`` is strictly inside ``F`` grown by ``r`` with square corners": 1 m of reach
on a 1 m grid threatens the eight neighbours, and a creature never threatens its own cells.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from shapely import box as shapely_box
from shapely import union_all
from shapely.geometry import Polygon, box

from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.square import Cell, DiagonalRule, SquareGrid
from geometry.walls import BlockMode, WallSet


def footprint_cells(origin: Cell, size: int) -> frozenset[Cell]:
    """The cells covered by a ``size`` x ``size`` square token whose top-left cell is ``origin``."""
    if size < 1:
        raise GeometryError(f"token size must be at least 1 cell, got {size}")
    return frozenset((origin[0] + dx, origin[1] + dy) for dx in range(size) for dy in range(size))


def footprint_polygon(grid: Grid, origin: Cell, size: int) -> Polygon:
    """The area a token of ``size`` anchored at ``origin`` covers, in distance units."""
    if isinstance(grid, SquareGrid):
        s = grid.cell_size
        return box(origin[0] * s, origin[1] * s, (origin[0] + size) * s, (origin[1] + size) * s)
    shape = union_all([grid.cell_polygon(c) for c in grid.footprint(origin, size)])
    assert isinstance(shape, Polygon)
    return shape


def reach_area(grid: Grid, origin: Cell, size: int, reach: float) -> Polygon:
    """The area a token can melee into.

    Square grid, ``ONE`` rule: the footprint grown by ``reach`` with square corners.
    ``EUCLIDEAN``: grown with round corners.  Other rules and hex grids: the union of the
    footprint and the cells it threatens (their distance is not a buffer of any shape).
    """
    if reach < 0:
        raise GeometryError(f"reach must not be negative, got {reach!r}")
    shape = footprint_polygon(grid, origin, size)
    if reach == 0:
        return shape
    if isinstance(grid, SquareGrid) and grid.diagonal in (DiagonalRule.ONE, DiagonalRule.EUCLIDEAN):
        join = "mitre" if grid.diagonal is DiagonalRule.ONE else "round"
        grown = shape.buffer(reach, join_style=join)
        assert isinstance(grown, Polygon)
        return grown
    cells = threatened_cells(grid, origin, size, reach)
    union = union_all([shape, *(grid.cell_polygon(c) for c in cells)])
    assert isinstance(union, Polygon)
    return union


def _max_steps(grid: Grid, reach: float) -> int:
    # Every grid distance is at least (number of steps) x cell_size, so a cell more than
    # k steps away fails rule 2: k * s - s / 2 < r.
    return max(0, math.ceil(reach / grid.cell_size + 0.5) - 1)


def reach_steps(grid: Grid, reach: float) -> int:
    """How many grid steps past its footprint a token's ``reach`` can threaten: a bound
    on where its threatened cells lie (the index defers them by it)."""
    return _max_steps(grid, reach)


def reach_pairs(grid: Grid, origin: Cell, size: int, reach: float) -> dict[Cell, list[Cell]]:
    """For each cell satisfying rules 1-2, the footprint cells it is within reach of."""
    if reach < 0:
        raise GeometryError(f"reach must not be negative, got {reach!r}")
    if isinstance(grid, SquareGrid):
        if size < 1:
            raise GeometryError(f"token size must be at least 1 cell, got {size}")
        x0, y0 = origin
        width, height = grid.width, grid.height
        cached = _square_pairs(grid.diagonal, grid.cell_size, size, reach)
        if cached is not None:
            return {
                (x0 + dx, y0 + dy): [(x0 + fx, y0 + fy) for fx, fy in near]
                for dx, dy, near in cached
                if 0 <= x0 + dx < width and 0 <= y0 + dy < height
            }
        return _square_pairs_clipped(grid, origin, size, reach)
    own = grid.footprint(origin, size)
    limit = reach + grid.cell_size / 2
    k = _max_steps(grid, reach)
    out: dict[Cell, list[Cell]] = {}
    if k == 0:
        return out
    seen = set(own)
    frontier = list(own)
    for _ in range(k):
        nxt = []
        for cell in frontier:
            for n in grid.neighbours(cell):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    for c in seen - own:
        near = [f for f in own if grid.distance(f, c) < limit]
        if near:
            out[c] = near
    return out


def _square_pairs_clipped(
    grid: SquareGrid, origin: Cell, size: int, reach: float
) -> dict[Cell, list[Cell]]:
    """Rules 1-2 cell by cell over the part of the grid within ``k`` steps: for a reach
    too long to cache, the work is bounded by the grid, not by the reach."""
    own = grid.footprint(origin, size)
    limit = reach + grid.cell_size / 2
    k = _max_steps(grid, reach)
    out: dict[Cell, list[Cell]] = {}
    x0, y0 = origin
    x1, y1 = x0 + size - 1, y0 + size - 1
    for x in range(max(0, x0 - k), min(grid.width, x1 + k + 1)):
        for y in range(max(0, y0 - k), min(grid.height, y1 + k + 1)):
            if x0 <= x <= x1 and y0 <= y <= y1:
                continue
            # Distance to the nearest footprint cell, from the gap on each axis.
            gx = x0 - x if x < x0 else (x - x1 if x > x1 else 0)
            gy = y0 - y if y < y0 else (y - y1 if y > y1 else 0)
            if grid.offset_distance(gx, gy) < limit:
                out[(x, y)] = [f for f in own if grid.distance(f, (x, y)) < limit]
    return out


# Rules 1-2 on a square grid depend only on the offset from the token's origin, so each
# (diagonal rule, cell size, token size, reach) is worked out once, on an unbounded grid,
# and only translated and clipped per token: placing a token is the hot path of every
# move (``ThreatIndex`` re-places the mover).  Only areas of at most CACHED_OFFSETS
# offsets are cached (any creature's melee reach); a longer reach is computed over the
# grid each time, which bounds its cost by the map, however long the reach.
CACHED_OFFSETS = 4096


@functools.lru_cache(maxsize=256)
def _square_pairs(
    diagonal: DiagonalRule, cell_size: float, size: int, reach: float
) -> tuple[tuple[int, int, tuple[Cell, ...]], ...] | None:
    """``(dx, dy, footprint offsets within reach)`` per cell offset a token reaches, or
    None when the area is too large to cache."""
    unbounded = SquareGrid(1, 1, cell_size, diagonal=diagonal)
    limit = reach + cell_size / 2
    k = _max_steps(unbounded, reach)
    if k == 0:
        return ()
    if (2 * k + size) ** 2 > CACHED_OFFSETS:
        return None
    own = [(fx, fy) for fx in range(size) for fy in range(size)]
    out: list[tuple[int, int, tuple[Cell, ...]]] = []
    last = size - 1
    for x in range(-k, last + k + 1):
        for y in range(-k, last + k + 1):
            if 0 <= x <= last and 0 <= y <= last:
                continue
            # Distance to the nearest footprint cell, from the gap on each axis.
            gx = -x if x < 0 else (x - last if x > last else 0)
            gy = -y if y < 0 else (y - last if y > last else 0)
            if unbounded.offset_distance(gx, gy) < limit:
                near = tuple(f for f in own if unbounded.distance(f, (x, y)) < limit)
                out.append((x, y, near))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _square_reach(
    diagonal: DiagonalRule, cell_size: float, size: int, reach: float
) -> tuple[tuple[tuple[int, int], ...], int] | None:
    """The cell offsets a token reaches (rules 1-2) and how far they extend past it, or
    None when the area is too large to cache."""
    pairs = _square_pairs(diagonal, cell_size, size, reach)
    if pairs is None:
        return None
    k = _max_steps(SquareGrid(1, 1, cell_size, diagonal=diagonal), reach)
    return tuple((dx, dy) for dx, dy, _ in pairs), k


def threatened_cells(
    grid: Grid,
    origin: Cell,
    size: int,
    reach: float,
    *,
    walls: WallSet | None = None,
) -> frozenset[Cell]:
    """Every on-grid cell a token threatens (see the module docstring for the rule)."""
    if isinstance(grid, SquareGrid) and (walls is None or not len(walls)):
        if reach < 0:
            raise GeometryError(f"reach must not be negative, got {reach!r}")
        if size < 1:
            raise GeometryError(f"token size must be at least 1 cell, got {size}")
        cached = _square_reach(grid.diagonal, grid.cell_size, size, reach)
        if cached is None:
            return frozenset(_square_pairs_clipped(grid, origin, size, reach))
        offsets, k = cached
        x0, y0 = origin
        width, height = grid.width, grid.height
        if x0 - k >= 0 and y0 - k >= 0 and x0 + size + k <= width and y0 + size + k <= height:
            return frozenset([(x0 + dx, y0 + dy) for dx, dy in offsets])  # nothing to clip
        return frozenset(
            [
                (x0 + dx, y0 + dy)
                for dx, dy in offsets
                if 0 <= x0 + dx < width and 0 <= y0 + dy < height
            ]
        )
    pairs = reach_pairs(grid, origin, size, reach)
    if walls is None or not len(walls) or not pairs:
        return frozenset(pairs)
    return frozenset(_unblocked(grid, walls, pairs))


def _unblocked(grid: Grid, walls: WallSet, pairs: dict[Cell, list[Cell]]) -> set[Cell]:
    if isinstance(grid, SquareGrid):
        return _unblocked_square(grid, walls, pairs)
    return _unblocked_lines(grid, walls, pairs)


def _unblocked_lines(grid: Grid, walls: WallSet, pairs: dict[Cell, list[Cell]]) -> set[Cell]:
    """The cells of ``pairs`` whose reach line from some footprint cell no wall blocks
    (rule 3), line by line through the grid's own methods: every grid kind."""
    # Skip the wall test entirely when no reach-blocking wall is anywhere near.
    cells = list(pairs)
    # The feet are in the box too, so that a subset of a threat's cells (a door's
    # refresh, :mod:`geometry.door_refresh`) is tested as the whole threat would be.
    xs = [grid.center(c) for c in {*cells, *(f for c in cells for f in pairs[c])}]
    s = grid.cell_size
    minx = min(p[0] for p in xs) - s
    miny = min(p[1] for p in xs) - s
    maxx = max(p[0] for p in xs) + s
    maxy = max(p[1] for p in xs) + s
    near = walls.tree.query(shapely_box(minx, miny, maxx, maxy), predicate="intersects")
    if not len(near) or not bool(np.any(walls.mask(BlockMode.REACH)[near])):
        return set(cells)
    # One row per (target, footprint cell) reach line, plus the detour steps of adjacent
    # diagonals, all tested in one vectorised call.
    starts: list[tuple[float, float]] = []
    ends: list[tuple[float, float]] = []
    rows: list[tuple[Cell, int, int, int]] = []  # target, line row, detour rows (-1: none)
    for c in cells:
        for f in pairs[c]:
            line = len(starts)
            starts.append(grid.center(f))
            ends.append(grid.center(c))
            d1 = d2 = -1
            sides = grid.detours(f, c) if grid.adjacent(f, c) else None
            if sides is not None:
                d1 = len(starts)
                for side in sides:
                    for a, b in ((f, side), (side, c)):
                        starts.append(grid.center(a))
                        ends.append(grid.center(b))
                d2 = d1 + 2
            rows.append((c, line, d1, d2))
    hit = walls.blocked_many(np.array(starts), np.array(ends), BlockMode.REACH)
    out: set[Cell] = set()
    for c, line, d1, d2 in rows:
        if c in out or hit[line]:
            continue
        if d1 >= 0 and (hit[d1] or hit[d1 + 1]) and (hit[d2] or hit[d2 + 1]):
            continue  # squeezing between two blocking corners
        out.add(c)
    return out


def _unblocked_square(grid: SquareGrid, walls: WallSet, pairs: dict[Cell, list[Cell]]) -> set[Cell]:
    """:func:`_unblocked` on a square grid, with the per-line work in numpy rather than
    a Python loop: the same segments tested the same way (so the same answer; a
    property test compares the two), at a fraction of the cost a cell."""
    cells = list(pairs)
    s = grid.cell_size
    feet_of = {f for c in cells for f in pairs[c]}
    xs = [c[0] for c in cells] + [f[0] for f in feet_of]
    ys = [c[1] for c in cells] + [f[1] for f in feet_of]
    # The box of the cells' and feet's centres, padded by a cell, as the general loop
    # computes it.
    minx, maxx = (min(xs) + 0.5) * s - s, (max(xs) + 0.5) * s + s
    miny, maxy = (min(ys) + 0.5) * s - s, (max(ys) + 0.5) * s + s
    near = walls.tree.query(shapely_box(minx, miny, maxx, maxy), predicate="intersects")
    if not len(near) or not bool(np.any(walls.mask(BlockMode.REACH)[near])):
        return set(cells)
    ok = unblocked_square_rows(grid, walls, [(c, pairs[c]) for c in cells])
    return {c for c, yes in zip(cells, ok, strict=True) if yes}


def unblocked_square_rows(
    grid: SquareGrid, walls: WallSet, rows: Sequence[tuple[Cell, Sequence[Cell]]]
) -> list[bool]:
    """Rule 3 for each ``(cell, footprint cells within reach of it)`` of ``rows`` on a
    square grid: whether some reach line (or, to a diagonal neighbour, detour) of it is
    clear.  Every row's segments are tested in one call, each on its own, so rows of
    several tokens may be tested together with the answers each would get alone."""
    s = grid.cell_size
    cells = [c for c, _ in rows]
    counts = [len(near) for _, near in rows]
    row_cell = np.repeat(np.arange(len(cells)), counts)  # the target cell of each row
    feet = np.array([f for _, near in rows for f in near], dtype=np.int64).reshape(-1, 2)
    targets = np.array(cells, dtype=np.int64)[row_cell]
    gap = np.abs(feet - targets)
    if grid.diagonal is DiagonalRule.NONE:
        diagonal = np.zeros(len(feet), dtype=bool)  # no diagonal step is adjacent
    else:
        diagonal = (gap[:, 0] == 1) & (gap[:, 1] == 1)
    squeeze = np.flatnonzero(diagonal)
    f, c = feet[squeeze], targets[squeeze]
    side1 = np.stack([c[:, 0], f[:, 1]], axis=1)  # the detours grid.detours gives
    side2 = np.stack([f[:, 0], c[:, 1]], axis=1)
    starts = np.concatenate([feet, f, side1, f, side2]).astype(float)
    ends = np.concatenate([targets, side1, c, side2, c]).astype(float)
    hit = walls.blocked_many((starts + 0.5) * s, (ends + 0.5) * s, BlockMode.REACH)
    n, m = len(feet), len(squeeze)
    ok = ~hit[:n]
    one = hit[n : n + m] | hit[n + m : n + 2 * m]
    other = hit[n + 2 * m : n + 3 * m] | hit[n + 3 * m :]
    ok[squeeze] &= ~(one & other)  # squeezing between two blocking corners
    out = [False] * len(cells)
    for i in np.unique(row_cell[ok]).tolist():
        out[i] = True
    return out
