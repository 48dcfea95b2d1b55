"""The cells a straight drag between two waypoints goes through, as each VTT draws it.

A move given as waypoints (a Foundry drag with its ruler bends, an Owlbear ruler) is
expanded into adjacent cells between consecutive waypoints.  Where the straight line
runs exactly through a square's corner or along a hex edge, two cells are equally near
and each VTT breaks the tie its own way; an attack of opportunity depends on which
cell the token is said to pass through, so the bridge follows the scene's VTT
(:class:`LineRule`):

* ``NEAREST`` (scenes without a VTT, and Owlbear Rodeo): each step goes to the cell
  nearest the line; a square tie goes to the cell nearer the *start* (rounding half
  towards the start, so the mirror image of a drag goes through the mirrored cells),
  a hex tie goes by a fixed nudge of the cube coordinates.  Owlbear's ruler draws a
  straight line and measures it but shows no cells (its SDK documents only the
  measurement: CHEBYSHEV, ALTERNATING, EUCLIDEAN, MANHATTAN), so this is the bridge's
  choice for it; the number of steps always matches what Owlbear's ruler counts for the
  scene's measurement.
* ``FOUNDRY`` (Foundry VTT v12/v13, ``BaseGrid#getDirectPath``): on squares, Bresenham's
  line over Foundry's ``(i = row, j = column)`` offsets, which is the nearest cell along
  the longer axis with ties rounded *towards the destination*; with diagonals
  ``ILLEGAL`` (our ``NONE``) a four-connected walk along the line, a corner tie stepping
  the row first.  On hexes, the nearest hex to each point of the line from centre to
  centre, the point nudged a hair across the staggered axis (x for rows, y for
  columns): towards the start's own offset column (row) in the neighbouring rows
  (columns), so a straight drag across rows keeps to one offset column.  Which way the
  nudge goes depends on the start's row (column) parity and the grid's even/odd
  setting.

Source for Foundry: the API documentation of ``BaseGrid#getDirectPath`` and
``GridMeasurePathResult`` ("the direct path", one grid space per step) and observed
behaviour; Foundry's code is not open source and none is copied here.  The hex nudge's
direction is our reading of it and has not been checked against a live Foundry; the
tests pin it (``tests/geometry/test_vtt_lines.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from itertools import pairwise

from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.hexgrid import HexGrid, HexOrientation, HexParity, cube_round
from geometry.square import Cell, DiagonalRule, SquareGrid


class LineRule(Enum):
    """Whose tie-breaking a traced line follows (module docstring)."""

    NEAREST = "nearest"
    FOUNDRY = "foundry"


# Nudges in hex units: far above float noise for any grid that fits MAX_GRID_AREA,
# far below the gap between two lattice points a line can pass.
_HEX_NUDGE = 1e-6


def trace_waypoints(
    grid: Grid, waypoints: Sequence[Cell], line: LineRule = LineRule.NEAREST
) -> list[Cell]:
    """Expand waypoints into a path of adjacent cells following the straight lines between.

    The path starts at ``waypoints[0]`` and passes through every waypoint; a waypoint
    equal to the one before adds nothing.  ``line`` picks the tie rule (module docstring).
    """
    if not waypoints:
        raise GeometryError("a path needs at least one waypoint")
    out = [waypoints[0]]
    for a, b in pairwise(waypoints):
        out.extend(direct_path(grid, a, b, line))
    return out


def direct_path(grid: Grid, a: Cell, b: Cell, line: LineRule = LineRule.NEAREST) -> list[Cell]:
    """The cells after ``a`` up to and including ``b`` along the straight line (``[]`` if equal)."""
    if a == b:
        return []
    if isinstance(grid, HexGrid):
        return _hex_line(grid, a, b, line)
    if isinstance(grid, SquareGrid) and grid.diagonal is DiagonalRule.NONE:
        if line is LineRule.FOUNDRY:
            return _four_connected(a, b)
        return _four_connected_nearest(a, b)
    return _eight_connected(a, b, towards_end=line is LineRule.FOUNDRY)


def _eight_connected(a: Cell, b: Cell, *, towards_end: bool) -> list[Cell]:
    # One step per cell along the longer axis; the other coordinate is the line's,
    # rounded.  Exact integer arithmetic: the line is at 2 * n * t on a scale of 2n.
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(abs(dx), abs(dy))
    return [
        (a[0] + _round_ratio(dx * k, n, towards_end), a[1] + _round_ratio(dy * k, n, towards_end))
        for k in range(1, n + 1)
    ]


def _round_ratio(num: int, den: int, towards_end: bool) -> int:
    """``num / den`` rounded to the nearest integer; an exact half goes away from zero
    (towards the destination) when ``towards_end``, else towards zero (the start)."""
    q, r = divmod(abs(num), den)
    twice = 2 * r
    if twice > den or (twice == den and towards_end):
        q += 1
    return q if num >= 0 else -q


def _four_connected(a: Cell, b: Cell) -> list[Cell]:
    # Walk cell by cell, crossing whichever grid line the straight line meets first.
    # With |dx| = nx, the k-th vertical line is met at t = (2k + 1) / (2 nx); comparing
    # (2kx + 1) * ny with (2ky + 1) * nx keeps it in integers.  A tie is a corner, where
    # Foundry's row (its first offset, i) steps first.
    nx, ny = abs(b[0] - a[0]), abs(b[1] - a[1])
    sx = 1 if b[0] > a[0] else -1
    sy = 1 if b[1] > a[1] else -1
    x, y = a
    kx = ky = 0
    out = []
    while kx < nx or ky < ny:
        if ky >= ny or (kx < nx and (2 * kx + 1) * ny < (2 * ky + 1) * nx):
            x += sx
            kx += 1
        else:
            y += sy
            ky += 1
        out.append((x, y))
    return out


def _four_connected_nearest(a: Cell, b: Cell) -> list[Cell]:
    # Step along the axis that keeps the walk closest to the straight line; a tie steps
    # the column.
    dx, dy = b[0] - a[0], b[1] - a[1]
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    cells, (x, y) = [], a
    for _ in range(abs(dx) + abs(dy)):
        ex = abs((x + sx - a[0]) * dy - (y - a[1]) * dx)
        ey = abs((x - a[0]) * dy - (y + sy - a[1]) * dx)
        if x != b[0] and (y == b[1] or ex <= ey):
            x += sx
        else:
            y += sy
        cells.append((x, y))
    return cells


def _hex_line(grid: HexGrid, a: Cell, b: Cell, line: LineRule) -> list[Cell]:
    qa, ra, _ = grid.to_cube(a)
    qb, rb, _ = grid.to_cube(b)
    n = grid.steps(a, b)
    if line is LineRule.FOUNDRY:
        # x grows with q at fixed r on rows (pointy); y with r at fixed q on columns.
        nudge = _HEX_NUDGE if _on_unpushed_line(grid, a) else -_HEX_NUDGE
        eq, er = (nudge, 0.0) if grid.orientation is HexOrientation.POINTY else (0.0, nudge)
    else:
        # A fixed nudge keeps lines along hex edges from rounding both ways.
        eq, er = _HEX_NUDGE, 2 * _HEX_NUDGE
    return [
        grid.from_cube(cube_round(qa + (qb - qa) * k / n + eq, ra + (rb - ra) * k / n + er))
        for k in range(1, n + 1)
    ]


def _on_unpushed_line(grid: HexGrid, cell: Cell) -> bool:
    # The rows (pointy) or columns (flat) pushed half a hex are the odd ones on ODD grids.
    index = cell[1] if grid.orientation is HexOrientation.POINTY else cell[0]
    return (index % 2 == 1) != (grid.parity is HexParity.ODD)


__all__ = ["LineRule", "direct_path", "trace_waypoints"]
