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
  the *column* first (Foundry's error term steps the row only while it is positive, so
  at zero, a corner, the column goes).  On hexes, one point of the line per step, at
  ``(k + e) / n`` of the way in cube coordinates (a hair past each lattice point, so a
  line crossing an edge exactly at a step point goes on to the hex ahead), rounded to
  the nearest hex.  A line that runs *along* hex edges (cube offsets in the ratio
  1 : 1 : -2 in some order, so it passes exactly between two hexes at every other step)
  is also pushed a hair sideways, each of the three edge directions its own way
  (:data:`_EDGE_NUDGES`): the line across the staggered rows (columns) keeps to the
  start's own offset column (row), which way depending on the parity of the start's
  cube ``r`` (``q``) and the grid's even/odd setting, and the two slanting ones are that
  nudge turned by 60 degrees about the start, by the parity of ``q`` or of ``q + r``.

Source for Foundry: the API documentation of ``BaseGrid#getDirectPath`` and
``GridMeasurePathResult`` ("the direct path", one grid space per step), the paths a
Foundry v13 table records (issue 26's table, pinned in ``tests/geometry/test_vtt_lines.py``)
and Foundry v13's client source (``foundry.grid.HexagonalGrid`` / ``SquareGrid``), read
for the rule; none of its code is copied here.
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


def traced_steps(grid: Grid, waypoints: Sequence[Cell]) -> int:
    """How many steps :func:`trace_waypoints` makes of ``waypoints`` (under either line
    rule), worked out without tracing them: a caller can refuse a path too long (or
    waypoints too far apart) before anything the length of the line is built."""
    total = 0
    for a, b in pairwise(waypoints):
        if isinstance(grid, HexGrid):
            total += grid.steps(a, b)
            continue
        dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
        orthogonal = isinstance(grid, SquareGrid) and grid.diagonal is DiagonalRule.NONE
        total += dx + dy if orthogonal else max(dx, dy)
    return total


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
    # Foundry's column (its second offset, j) steps first.
    nx, ny = abs(b[0] - a[0]), abs(b[1] - a[1])
    sx = 1 if b[0] > a[0] else -1
    sy = 1 if b[1] > a[1] else -1
    x, y = a
    kx = ky = 0
    out = []
    while kx < nx or ky < ny:
        if ky >= ny or (kx < nx and (2 * kx + 1) * ny <= (2 * ky + 1) * nx):
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


#: Foundry's sideways push for a hex line along hex edges, by orientation and by the
#: line's direction (its cube ``(dq, dr)`` reduced to the edge direction's, either sign):
#: the push in cube ``(q, r)``, which coordinate of the start decides its way (``q``,
#: ``r`` or ``q + r``), and the way when that coordinate's evenness matches the grid's
#: (an even coordinate on an EVEN grid, or an odd one on an ODD grid); otherwise the
#: other way.  For rows the S-N line is (1, -2): pushed along q (x), so it keeps to the
#: start's offset column; the slanting (1, 1) and (2, -1) are that turned about the start.
#: Columns are the same with x and y swapped (E-W is (2, -1)).
_EDGE_NUDGES: dict[HexOrientation, dict[tuple[int, int], tuple[tuple[int, int], str, int]]] = {
    HexOrientation.POINTY: {
        (1, 1): ((1, -1), "q+r", 1),
        (2, -1): ((0, 1), "q", 1),
        (1, -2): ((1, 0), "r", -1),
    },
    HexOrientation.FLAT: {
        (1, 1): ((-1, 1), "q+r", 1),
        (1, -2): ((1, 0), "r", 1),
        (2, -1): ((0, 1), "q", -1),
    },
}


def _edge_direction(dq: int, dr: int) -> tuple[int, int] | None:
    """The edge direction a line of cube offset ``(dq, dr)`` runs along, or ``None``."""
    if dq == dr:
        return (1, 1)
    if dq == -2 * dr:
        return (2, -1)
    if -2 * dq == dr:
        return (1, -2)
    return None


def _foundry_hex_nudge(grid: HexGrid, q0: int, r0: int, dq: int, dr: int) -> tuple[float, float]:
    direction = _edge_direction(dq, dr)
    if direction is None:
        return (0.0, 0.0)
    (pq, pr), by, way = _EDGE_NUDGES[grid.orientation][direction]
    coordinate = {"q": q0, "r": r0, "q+r": q0 + r0}[by]
    if (coordinate % 2 == 0) != (grid.parity is HexParity.EVEN):
        way = -way
    return (way * pq * _HEX_NUDGE, way * pr * _HEX_NUDGE)


def _hex_line(grid: HexGrid, a: Cell, b: Cell, line: LineRule) -> list[Cell]:
    qa, ra, _ = grid.to_cube(a)
    qb, rb, _ = grid.to_cube(b)
    n = grid.steps(a, b)
    if line is LineRule.FOUNDRY:
        eq, er = _foundry_hex_nudge(grid, qa, ra, qb - qa, rb - ra)
        ahead = _HEX_NUDGE  # each point a hair past its step, towards the destination
    else:
        # A fixed nudge keeps lines along hex edges from rounding both ways.
        eq, er, ahead = _HEX_NUDGE, 2 * _HEX_NUDGE, 0.0
    path = [
        grid.from_cube(
            cube_round(qa + (qb - qa) * (k + ahead) / n + eq, ra + (rb - ra) * (k + ahead) / n + er)
        )
        for k in range(1, n)
    ]
    path.append(b)
    return path


__all__ = ["LineRule", "direct_path", "trace_waypoints"]
