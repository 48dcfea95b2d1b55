"""Threatened cells after a door opens or closes, re-testing only what the door touches.

A cell's answer to rule 3 (:mod:`geometry.reach`) depends only on the walls its reach
lines and detour steps meet, and every one of those segments lies within the box of the
cell's centre and its footprint cells' centres (a detour's side cell is a corner of
that box).  So when one wall inside a box ``changed`` toggles, a cell whose segments
cannot meet ``changed`` keeps its answer, and only the others are tested again, exactly
as :func:`~geometry.reach.threatened_cells` tests them.  On a square grid with the
reach's offsets cached the cells are sorted out in numpy (a one-cell token's reach line
is tested as a segment against the box, the slab test), and the rows of every token
beside the door go to the wall tree in one call.

Measured (``bench.hostile_reach --crowd``; ``docs/operations.md``, "What a command may
cost"): 200 one-square tokens with 7 m of reach packed around a 2 m door, 1.1 to 1.2 s
in one command when each threat was worked out again and re-indexed whole, 30 to 45 ms
now; 2,000 with 2 m of reach, 20 to 32 ms then, 4 to 7 ms now.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from geometry.grid import Grid
from geometry.reach import _square_pairs, _unblocked, reach_pairs, unblocked_square_rows
from geometry.square import Cell, DiagonalRule, SquareGrid
from geometry.walls import WallSet

Box = tuple[float, float, float, float]
#: A token's threat to refresh: origin, size, reach, and its cells before the change.
Threat = tuple[Cell, int, float, frozenset[Cell]]

#: Slack on the boxes compared, in distance units: far more than any rounding of a
#: centre, far less than a cell, and always towards testing a cell again.
_PAD = 1e-6


def rethreatened_many(
    grid: Grid, walls: WallSet, changed: Box, threats: Sequence[Threat]
) -> list[frozenset[Cell]]:
    """:func:`~geometry.reach.threatened_cells` of each of ``threats`` after one wall
    within ``changed`` (``minx, miny, maxx, maxy``) was opened or closed, ``walls`` as
    they are now (module docstring)."""
    maybes: list[dict[Cell, list[Cell]] | None] = [None] * len(threats)
    if isinstance(grid, SquareGrid):
        # The tokens of one size and reach are sorted out together, in one array.
        shapes: dict[tuple[int, float], list[int]] = {}
        for k, (_, size, reach, _) in enumerate(threats):
            shapes.setdefault((size, reach), []).append(k)
        for (size, reach), ks in shapes.items():
            cached = _square_pairs(grid.diagonal, grid.cell_size, size, reach)
            if cached is not None:
                origins = [threats[k][0] for k in ks]
                found = _maybe_changed_square(grid, origins, changed, cached, size, reach)
                for k, maybe in zip(ks, found, strict=True):
                    maybes[k] = maybe
    done: list[dict[Cell, list[Cell]]] = [
        maybe if maybe is not None else _maybe_changed(grid, origin, size, reach, changed)
        for maybe, (origin, size, reach, _) in zip(maybes, threats, strict=True)
    ]
    if isinstance(grid, SquareGrid):
        # Every token's rows in one call of the wall tree, each row tested on its own.
        rows = [(c, near) for maybe in done for c, near in maybe.items()]
        ok = iter(unblocked_square_rows(grid, walls, rows) if rows else [])
        out = []
        for (_, _, _, before), maybe in zip(threats, done, strict=True):
            if not maybe:
                out.append(before)
                continue
            clear = {c for c in maybe if next(ok)}
            out.append(frozenset((before - maybe.keys()) | clear))
        return out
    return [
        frozenset((before - maybe.keys()) | _unblocked(grid, walls, maybe)) if maybe else before
        for (_, _, _, before), maybe in zip(threats, done, strict=True)
    ]


def _maybe_changed(
    grid: Grid, origin: Cell, size: int, reach: float, changed: Box
) -> dict[Cell, list[Cell]]:
    """The cells (rules 1-2) some of whose segments may meet ``changed``, each with the
    footprint cells within reach of it: the box test, on any grid."""
    centres = [grid.center(f) for f in grid.footprint(origin, size)]
    fx0, fx1 = min(p[0] for p in centres), max(p[0] for p in centres)
    fy0, fy1 = min(p[1] for p in centres), max(p[1] for p in centres)
    minx, miny, maxx, maxy = changed
    out: dict[Cell, list[Cell]] = {}
    for c, near in reach_pairs(grid, origin, size, reach).items():
        cx, cy = grid.center(c)
        if (
            min(cx, fx0) <= maxx + _PAD
            and max(cx, fx1) >= minx - _PAD
            and min(cy, fy0) <= maxy + _PAD
            and max(cy, fy1) >= miny - _PAD
        ):
            out[c] = near
    return out


@functools.lru_cache(maxsize=256)
def _offsets(
    diagonal: DiagonalRule, cell_size: float, size: int, reach: float
) -> NDArray[np.int64]:
    """The offsets of :func:`~geometry.reach._square_pairs` as an ``(n, 2)`` array, in
    its order."""
    cached = _square_pairs(diagonal, cell_size, size, reach)
    assert cached is not None
    return np.array([(dx, dy) for dx, dy, _ in cached], dtype=np.int64).reshape(-1, 2)


def _maybe_changed_square(
    grid: SquareGrid,
    origins: list[Cell],
    changed: Box,
    cached: tuple[tuple[int, int, tuple[Cell, ...]], ...],
    size: int,
    reach: float,
) -> list[dict[Cell, list[Cell]]]:
    """:func:`_maybe_changed` of tokens of one ``size`` and ``reach`` standing at
    ``origins``, from the cached offsets, every token's cells compared at once."""
    offsets = _offsets(grid.diagonal, grid.cell_size, size, reach)
    s = grid.cell_size
    at = np.array(origins, dtype=np.int64).reshape(-1, 1, 2)
    cells = at + offsets[None, :, :]  # token x offset x (column, row)
    col, row = cells[:, :, 0], cells[:, :, 1]
    on = (col >= 0) & (row >= 0) & (col < grid.width) & (row < grid.height)
    minx, miny, maxx, maxy = changed
    # The box of the footprint's centres, per token: its first and last cell's.
    fx0 = (at[:, :, 0] + 0.5) * s
    fy0 = (at[:, :, 1] + 0.5) * s
    fx1, fy1 = fx0 + (size - 1) * s, fy0 + (size - 1) * s
    cx, cy = (col + 0.5) * s, (row + 0.5) * s
    meets = on & (np.minimum(cx, fx0) <= maxx + _PAD) & (np.maximum(cx, fx1) >= minx - _PAD)
    meets &= (np.minimum(cy, fy0) <= maxy + _PAD) & (np.maximum(cy, fy1) >= miny - _PAD)
    if size == 1:
        # One reach line a cell: the segment itself against the box, not its box; only
        # the neighbours, whose detour steps leave the line, keep the box test.
        far = np.abs(offsets).max(axis=1) > 1
        meets &= ~far[None, :] | _segments_meet_box(fx0, fy0, cx, cy, changed)
    out: list[dict[Cell, list[Cell]]] = [{} for _ in origins]
    for k, i in np.argwhere(meets).tolist():
        x0, y0 = origins[k]
        dx, dy, near = cached[i]
        out[k][(x0 + dx, y0 + dy)] = [(x0 + fx, y0 + fy) for fx, fy in near]
    return out


def _segments_meet_box(
    px: NDArray[np.floating],
    py: NDArray[np.floating],
    qx: NDArray[np.floating],
    qy: NDArray[np.floating],
    box: Box,
) -> NDArray[np.bool_]:
    """Whether each segment from ``(px, py)`` to ``(qx, qy)`` (broadcast together)
    comes within :data:`_PAD` of ``box`` (the slab test), erring towards yes."""
    minx, miny, maxx, maxy = box
    shape = np.broadcast_shapes(px.shape, qx.shape)
    lo = np.zeros(shape)
    hi = np.ones(shape)
    for p, q, a, b in ((px, qx, minx, maxx), (py, qy, miny, maxy)):
        d = q - p
        flat = np.abs(d) < 1e-12
        safe = np.where(flat, 1.0, d)
        t1 = (a - _PAD - p) / safe
        t2 = (b + _PAD - p) / safe
        inside = (a - _PAD <= p) & (p <= b + _PAD)
        # A segment level with this axis lies in the slab wholly or not at all.
        lo = np.where(flat, np.where(inside, lo, 2.0), np.maximum(lo, np.minimum(t1, t2)))
        hi = np.where(flat, np.where(inside, hi, -1.0), np.minimum(hi, np.maximum(t1, t2)))
    # The parameters err outwards by far more than their rounding.
    return lo <= hi + 1e-9
