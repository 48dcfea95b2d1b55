"""Distance in three dimensions: tokens at different elevations.

A token's elevation is the height of its base in the scene's unit (Foundry's token
``elevation``); 0 is the ground.  Reach and threat then measure in three dimensions:

* **Square grids** follow Foundry VTT v13's ruler (``SquareGrid#_measurePath`` with
  elevated waypoints, described here, never copied).  The vertical offset is a whole
  number of cells, ``k = floor(elevation / cell_size + 1e-8)`` (Foundry's
  ``getOffset``: an elevation counts as the cell layer it lies in).  The three offsets'
  sizes, largest first, ``a >= b >= c``, are priced by the grid's diagonal rule:
  ``one`` -> ``a``; ``approximate`` -> ``a + (b - c) / 2 + 3c / 4``; ``rectilinear``
  and ``none`` -> ``a + b + c``; ``alternating`` -> ``a + floor((b + c / 2) / 2)``
  (a cube diagonal counts as half a diagonal more); ``alternating_2`` the same count
  started at 1.5 (``a + floor((1.5 + b + c / 2) / 2)``).  ``euclidean`` is the straight
  line between the centres, ``hypot(dx, dy, dz)``: the bridge's 2D reach already measures
  the straight line under that rule (``geometry/README.md``), and at equal elevation the
  3D distance must be the 2D one.
* **Hex grids** follow Foundry's ``HexagonalGrid#_measurePath``: ``n`` hex steps and
  ``d = |dk|`` layers, largest first ``a >= b``, priced ``a`` (one), ``a + b / 2``
  (approximate), ``a + b`` (rectilinear, none), ``a + floor(b / 2)`` (alternating, the
  count started at 0) or ``a + floor((1 + b) / 2)`` (alternating_2); euclidean
  ``a + (sqrt 2 - 1) b``.  The bridge's hex grids measure their 2D steps as ``one``.
* **Gridless scenes**: the straight line (:func:`gridless_distance`).

At equal elevation (``dk = 0``) every rule gives exactly the grid's own 2D distance
(tested for every rule), and a 3D distance is never shorter than the 2D one, so the
cells a token threatens at a height are a subset of those it threatens on the ground
(:func:`threatened_at`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.hexgrid import HexGrid
from geometry.square import Cell, DiagonalRule, Point, SquareGrid

#: Foundry's nudge when it floors an elevation into a layer (``getOffset``).
_LAYER_EPSILON = 1e-8


def layer(elevation: float, cell_size: float) -> int:
    """The vertical cell layer ``elevation`` lies in (Foundry's ``k``)."""
    if not math.isfinite(elevation):
        raise GeometryError(f"elevation must be a finite number, got {elevation!r}")
    return math.floor(elevation / cell_size + _LAYER_EPSILON)


def _square_cells(rule: DiagonalRule, dx: int, dy: int, dk: int) -> float:
    a, b, c = sorted((abs(dx), abs(dy), abs(dk)), reverse=True)
    if rule is DiagonalRule.ONE:
        return a
    if rule is DiagonalRule.EUCLIDEAN:
        return math.sqrt(a * a + b * b + c * c)
    if rule is DiagonalRule.APPROXIMATE:
        return a + 0.5 * (b - c) + 0.75 * c
    if rule is DiagonalRule.ALTERNATING:
        return a + math.floor((b + 0.5 * c) / 2)
    if rule is DiagonalRule.ALTERNATING_2:
        return a + math.floor((1.5 + b + 0.5 * c) / 2)
    return a + b + c  # NONE, RECTILINEAR


def _hex_cells(rule: DiagonalRule, steps: int, dk: int) -> float:
    a, b = (steps, abs(dk)) if steps >= abs(dk) else (abs(dk), steps)
    if rule is DiagonalRule.ONE:
        return a
    if rule is DiagonalRule.EUCLIDEAN:
        return a + (math.sqrt(2) - 1) * b
    if rule is DiagonalRule.APPROXIMATE:
        return a + 0.5 * b
    if rule is DiagonalRule.ALTERNATING:
        return a + b // 2
    if rule is DiagonalRule.ALTERNATING_2:
        return a + (1 + b) // 2
    return a + b  # NONE, RECTILINEAR


def cell_distance_3d(
    grid: SquareGrid | HexGrid,
    a: Cell,
    b: Cell,
    elevation_a: float,
    elevation_b: float,
    *,
    hex_rule: DiagonalRule = DiagonalRule.ONE,
) -> float:
    """The distance between cells ``a`` and ``b`` at these elevations (module docstring),
    in the scene's unit.  ``hex_rule`` prices a hex grid's vertical diagonals."""
    dk = layer(elevation_a, grid.cell_size) - layer(elevation_b, grid.cell_size)
    if isinstance(grid, SquareGrid):
        cells = _square_cells(grid.diagonal, a[0] - b[0], a[1] - b[1], dk)
    else:
        cells = _hex_cells(hex_rule, grid.steps(a, b), dk)
    return cells * grid.cell_size


def footprint_distance_3d(
    grid: SquareGrid | HexGrid,
    feet: Iterable[Cell],
    cell: Cell,
    elevation_from: float,
    elevation_to: float,
) -> float:
    """The 3D distance from the nearest cell of a footprint to ``cell``: reach counts from
    any square the token covers, as the 2D reach does."""
    return min(cell_distance_3d(grid, f, cell, elevation_from, elevation_to) for f in feet)


def threatened_at(
    grid: SquareGrid | HexGrid,
    feet: Iterable[Cell],
    ground_threat: Iterable[Cell],
    reach: float,
    elevation_from: float,
    elevation_to: float,
) -> frozenset[Cell]:
    """The cells a token threatens against a target at ``elevation_to``.

    ``ground_threat`` is its 2D threatened set (walls already applied); a cell stays under
    the 2D rule of :mod:`geometry.reach` measured in 3D: the 3D distance from the nearest
    footprint cell, less half a cell, is strictly under ``reach``.  At equal layers this
    is ``ground_threat`` itself (a 3D distance never undercuts a 2D one).
    """
    feet = tuple(feet)
    cells = frozenset(ground_threat)
    if layer(elevation_from, grid.cell_size) == layer(elevation_to, grid.cell_size):
        return cells
    return frozenset(
        c for c in cells if reaches_up(grid, feet, c, reach, elevation_from, elevation_to)
    )


def reaches_up(
    grid: SquareGrid | HexGrid,
    feet: Iterable[Cell],
    cell: Cell,
    reach: float,
    elevation_from: float,
    elevation_to: float,
) -> bool:
    """Whether a token on ``feet`` at ``elevation_from`` threatens ``cell`` (one of its
    2D threatened cells) against a target at ``elevation_to``: :func:`threatened_at`'s
    rule for one cell, for a caller that needs only a few of them."""
    limit = reach + grid.cell_size / 2
    return footprint_distance_3d(grid, feet, cell, elevation_from, elevation_to) < limit


def gridless_distance(a: Point, b: Point, elevation_a: float, elevation_b: float) -> float:
    """The straight line between two points at these elevations."""
    return math.hypot(a[0] - b[0], a[1] - b[1], elevation_a - elevation_b)


def flight_step_costs(
    grid: SquareGrid | HexGrid | Grid, cells: Sequence[Cell], heights: Sequence[float]
) -> list[float]:
    """What each step of a flight costs, in the scene's unit, before terrain: ``cells``
    adjacent, start first, the token's base at ``heights[i]`` on ``cells[i]``.

    Each step is priced by the grid's diagonal rule in three dimensions as
    :func:`cell_distance_3d` prices one segment (the vertical offset in whole layers),
    and the alternating rules count their diagonals along the whole path as Foundry's
    ruler does along its waypoints: a step's ``b`` and ``c`` (module docstring) add to
    the running count, so a flight that stays at one layer costs exactly what the same
    walk costs on the ground (:meth:`SquareGrid.path_cost`)."""
    if len(cells) != len(heights):
        raise GeometryError(f"{len(heights)} heights for {len(cells)} cells: one each")
    if not isinstance(grid, SquareGrid | HexGrid):
        raise GeometryError(f"a flight on cells needs a square or hex grid, not {grid!r}")
    size = grid.cell_size
    if not math.isfinite(sum(heights)):  # a nan or an infinity anywhere carries through
        raise GeometryError(f"elevations must be finite numbers, got {list(heights)!r}")
    if isinstance(grid, SquareGrid) and grid.diagonal is DiagonalRule.ONE:
        return _one_rule_costs(cells, heights, size)
    layers = [math.floor(h / size + _LAYER_EPSILON) for h in heights]  # layer(), inline
    costs: list[float] = []
    if isinstance(grid, HexGrid):
        for a, b, k0, k1 in zip(cells, cells[1:], layers, layers[1:], strict=False):
            costs.append(_hex_cells(DiagonalRule.ONE, grid.steps(a, b), k1 - k0) * size)
        return costs
    rule = grid.diagonal
    start = {DiagonalRule.ALTERNATING: 0.0, DiagonalRule.ALTERNATING_2: 1.5}.get(rule)
    counted = 0.0  # the alternating rules' diagonals so far: b - c for each, 1.5 c
    for a, b, k0, k1 in zip(cells, cells[1:], layers, layers[1:], strict=False):
        dx, dy, dk = b[0] - a[0], b[1] - a[1], k1 - k0
        if start is None:
            costs.append(_square_cells(rule, dx, dy, dk) * size)
            continue
        big, mid, small = sorted((abs(dx), abs(dy), abs(dk)), reverse=True)
        before = math.floor((start + counted) / 2)
        counted += (mid - small) + 1.5 * small
        costs.append((big + math.floor((start + counted) / 2) - before) * size)
    return costs


def _one_rule_costs(cells: Sequence[Cell], heights: Sequence[float], size: float) -> list[float]:
    """:func:`flight_step_costs` under the one-square diagonals, the rule most tables
    play: each step its largest offset, in one plain loop (every flight comes here)."""
    floor, nudge = math.floor, _LAYER_EPSILON
    out = []
    px, py = cells[0]
    pk = floor(heights[0] / size + nudge)
    for (x, y), h in zip(cells[1:], heights[1:], strict=False):
        k = floor(h / size + nudge)
        dx, dy, dk = abs(x - px), abs(y - py), abs(k - pk)
        out.append((dx if dx >= dy and dx >= dk else dy if dy >= dk else dk) * size)
        px, py, pk = x, y, k
    return out
