"""Line of sight between points and between creatures, blocked by sight-blocking walls.

A line is blocked by the rule of :mod:`geometry.walls` in ``SIGHT`` mode: it crosses or
runs along a wall that blocks sight, or passes through a corner where such walls meet on
both sides of it; grazing a single wall's end does not block.  Windows (walls that block
movement only) and open doors never block sight.

Between two creatures on a grid: one sees the other when a line from the centre of some
cell of its footprint to the centre of some cell of the other's is clear, so a large
creature can look past a pillar that hides part of it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from geometry.grid import Grid
from geometry.square import Cell, Point, SquareGrid
from geometry.walls import BlockMode, WallSet


def line_of_sight(walls: WallSet, p: Point, q: Point) -> bool:
    """Whether the straight line from ``p`` to ``q`` is clear of sight-blocking walls."""
    return not walls.segment_blocked(p, q, BlockMode.SIGHT)


def creatures_see(
    grid: Grid,
    walls: WallSet,
    a: Cell,
    b: Cell,
    *,
    size_a: int = 1,
    size_b: int = 1,
) -> bool:
    """Whether the token at origin ``a`` (``size_a``) sees the one at ``b`` (``size_b``)."""
    cells_a = sorted(grid.footprint(a, size_a))
    cells_b = sorted(grid.footprint(b, size_b))
    if set(cells_a) & set(cells_b):
        return True
    starts = np.array([grid.center(f) for f in cells_a for _ in cells_b], dtype=float)
    ends = np.array([grid.center(g) for _ in cells_a for g in cells_b], dtype=float)
    return not bool(np.all(walls.blocked_many(starts, ends, BlockMode.SIGHT)))


def creatures_seen(
    grid: Grid,
    walls: WallSet,
    a: Cell,
    others: Sequence[tuple[Cell, int]],
    *,
    size_a: int = 1,
) -> list[bool]:
    """:func:`creatures_see` from the token at ``a`` to each of ``others`` (origin,
    size), with the same answers: every line of every pair tested in one call of
    :meth:`~geometry.walls.WallSet.blocked_many`, whose answer for a line does not
    depend on the others beside it, so the wall tree is queried once, not once a pair
    (Cyberpunk RED's ``ask_options`` asks who a rifleman sees among hundreds)."""
    if isinstance(grid, SquareGrid) and size_a == 1 and all(size == 1 for _, size in others):
        return _one_square_each_seen(grid, walls, a, [b for b, _ in others])
    cells_a = sorted(grid.footprint(a, size_a))
    own = set(cells_a)
    centres_a = [grid.center(f) for f in cells_a]
    seen = [False] * len(others)
    starts: list[Point] = []
    ends: list[Point] = []
    owner: list[int] = []
    for k, (b, size_b) in enumerate(others):
        cells_b = sorted(grid.footprint(b, size_b))
        if own.intersection(cells_b):
            seen[k] = True
            continue
        centres_b = [grid.center(g) for g in cells_b]
        for p in centres_a:
            for q in centres_b:
                starts.append(p)
                ends.append(q)
                owner.append(k)
    if starts:
        blocked = walls.blocked_many(
            np.array(starts, dtype=float), np.array(ends, dtype=float), BlockMode.SIGHT
        )
        clear = np.zeros(len(others), dtype=bool)
        np.logical_or.at(clear, np.array(owner, dtype=np.intp), ~blocked)
        for hit in np.flatnonzero(clear).tolist():
            seen[hit] = True
    return seen


def _one_square_each_seen(
    grid: SquareGrid, walls: WallSet, a: Cell, others: list[Cell]
) -> list[bool]:
    """:func:`creatures_seen` when every token is one square (most scenes): one line a
    pair, the centres worked out in numpy as :meth:`SquareGrid.center` works them out."""
    if not others:
        return []
    s = grid.cell_size
    cells = np.array(others, dtype=float).reshape(-1, 2)
    seen = (cells[:, 0] == a[0]) & (cells[:, 1] == a[1])  # on the same square: seen
    apart = np.flatnonzero(~seen)
    ends = (cells[apart] + 0.5) * s
    starts = np.empty_like(ends)
    starts[:] = grid.center(a)
    seen[apart] = ~walls.blocked_many(starts, ends, BlockMode.SIGHT)
    return [bool(v) for v in seen]
