"""What working out one token's threatened cells costs, priced before it is done.

The index works out a token's threat (:func:`geometry.reach.threatened_cells`) when it
is first asked about and again at each of its moves, in one piece: a command that needs
it waits for all of it.  Its cost grows with two figures, both known from the scene
alone:

* ``span``, the cells the reach can touch: the footprint grown by the grid steps the
  reach spans, squared (:func:`reach_span`); every one of them is tested against rule 2;
* ``walls``, the walls that may stand within the reach's box: each cell's reach line is
  tested against those whose box it meets, so the work grows as span x walls.  A token
  moves, so the figure taken is the most walls any box of that size holds anywhere on
  the map (:func:`most_walls_near`), counted on a coarse raster (blocks of at least one
  cell, at most 256 a side) so that it errs only upwards.

:func:`threat_cost_ms` turns the two into milliseconds of the server's one thread with
per-cell and per-(cell x wall) figures measured on the project's 2-core machine
(``python -m bench.hostile_reach --model``; the figures and how they were taken are in
``docs/operations.md``, "What a command may cost").  They are rounded up: the model is
a budget, meant to refuse what would be too slow, not to predict to the microsecond.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np

from geometry.grid import Grid
from geometry.reach import CACHED_OFFSETS, reach_steps
from geometry.square import Point, SquareGrid

#: Microseconds a cell of the span costs on a square grid with no wall near: the
#: reach's offsets are cached (up to :data:`~geometry.reach.CACHED_OFFSETS` of them)
#: and only translated ...
SQUARE_CACHED_CELL_US: Final = 1.6
#: ... and when they are not (a longer reach).
SQUARE_CELL_US: Final = 3.2
#: With a wall near, each cell's reach line is built and tested as well.
SQUARE_WALLED_CELL_US: Final = 5.0
#: Hex grids work out rule 2 by a breadth-first walk and the distance of each cell.
HEX_CELL_US: Final = 6.5
HEX_WALLED_CELL_US: Final = 10.0
#: Microseconds each (cell x wall near) pair may add, at worst: walls every reach line
#: crosses (long parallel walls across the reach), each crossing tested exactly.  Walls
#: scattered on a lattice cost some fifty times less a pair; the price is the worst's.
PAIR_US: Final = 1.5
#: What testing any wall at all costs, once per threat (the wall tree's queries).
WALLED_FIXED_US: Final = 300.0

#: The coarse raster :func:`most_walls_near` counts on has at most this many blocks a side.
RASTER_BLOCKS: Final = 256


def reach_span(grid: Grid, size: int, reach: float) -> int:
    """The cells a token of ``size`` with ``reach`` may threaten from anywhere, its own
    included: its footprint grown by the steps the reach spans, squared."""
    return (2 * reach_steps(grid, reach) + size) ** 2


def reach_box_side(grid: Grid, size: int, reach: float) -> float:
    """The side, in distance units, of a box holding every reach line of such a token
    wherever it stands, padded by a cell each way (as the wall test pads it): each grid
    step moves a centre at most one ``cell_size`` along each axis, on every grid kind."""
    return (2 * reach_steps(grid, reach) + 2 * size + 2) * grid.cell_size


def most_walls_near(
    grid: Grid, walls: Sequence[tuple[Point, Point]], sides: Iterable[float]
) -> dict[float, int]:
    """Per box side (distance units): the most ``walls`` whose bounding box meets one
    box of that side placed anywhere on ``grid`` (an upper bound, module docstring)."""
    wanted = sorted(set(sides))
    if not walls:
        return dict.fromkeys(wanted, 0)
    left, top, right, bottom = grid.bounds()
    block = max(grid.cell_size, max(right - left, bottom - top) / RASTER_BLOCKS)
    ends = np.array(walls, dtype=float).reshape(len(walls), 2, 2)
    lo = np.floor((ends.min(axis=1) - (left, top)) / block).astype(np.int64)
    hi = np.floor((ends.max(axis=1) - (left, top)) / block).astype(np.int64)
    nx = math.floor((right - left) / block) + 1
    ny = math.floor((bottom - top) / block) + 1
    lo = np.clip(lo, 0, (nx - 1, ny - 1))
    hi = np.clip(hi, 0, (nx - 1, ny - 1))
    out: dict[float, int] = {}
    counted: dict[int, int] = {}
    for side in wanted:
        # A box of this side, wherever it lies, covers at most m consecutive blocks a
        # way; one whose first block is i meets a wall covering blocks a0..a1 when
        # a0 - m + 1 <= i <= a1.  Count, per first block, the walls it meets.  m is
        # rounded up to one of a few sizes (a larger box meets at least as many walls),
        # so a scene of many different reaches costs a few counts, not one each.
        m = _bucket(min(max(nx, ny), math.ceil(side / block) + 1))
        if m in counted:
            out[side] = counted[m]
            continue
        marks = np.zeros((nx + m + 1, ny + m + 1), dtype=np.int32)
        x0, y0 = lo[:, 0] - m + 1 + m, lo[:, 1] - m + 1 + m  # shifted by m: no negatives
        x1, y1 = hi[:, 0] + 1 + m, hi[:, 1] + 1 + m
        np.add.at(marks, (x0, y0), 1)
        np.add.at(marks, (x1, y0), -1)
        np.add.at(marks, (x0, y1), -1)
        np.add.at(marks, (x1, y1), 1)
        out[side] = counted[m] = int(marks.cumsum(axis=0).cumsum(axis=1).max())
    return out


def _bucket(m: int) -> int:
    """``m`` rounded up to 1, 2, 3, 4, 6, 8, 12, 16, ... (each step at most 1.5x)."""
    step = 1
    while True:
        for size in (step, 3 * step // 2):
            if size >= m:
                return max(size, 1)
        step *= 2


def threat_cost_ms(grid: Grid, span: int, walls_near: int) -> float:
    """Milliseconds of the server's thread that working out one threat of ``span``
    cells among ``walls_near`` walls may take, at worst (module docstring)."""
    square = isinstance(grid, SquareGrid)
    if not walls_near:
        if not square:
            return span * HEX_CELL_US / 1000.0
        cell = SQUARE_CACHED_CELL_US if span <= CACHED_OFFSETS else SQUARE_CELL_US
        return span * cell / 1000.0
    cell = SQUARE_WALLED_CELL_US if square else HEX_WALLED_CELL_US
    return (WALLED_FIXED_US + span * (cell + PAIR_US * walls_near)) / 1000.0
