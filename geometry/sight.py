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

import numpy as np

from geometry.grid import Grid
from geometry.square import Cell, Point
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
