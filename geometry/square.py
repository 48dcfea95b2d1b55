"""Square grids: cells, centres, steps, their cost under each VTT diagonal rule.

Cells are ``(column, row)`` integer pairs, column growing right and row growing down as
on every VTT canvas; distances are in the scene's distance unit (``cell_size`` units per
cell side: 1 m for a Hero supplement scene, 2 m for Cyberpunk RED, 5 ft for d20 games).

Diagonal rules (:class:`DiagonalRule`), with the distance between cells ``dx`` x ``dy``
apart, ``hi = max(|dx|, |dy|)`` and ``lo = min(|dx|, |dy|)``:

* ``ONE``         every diagonal costs one square (Cyberpunk RED, seed 001, "diagonals
                  too"; the Hero supplement): ``hi`` squares.  The default.
* ``ALTERNATING`` the 1-2-1 rule of d20 games: the first diagonal of a move costs one
                  square, the second two, and so on: ``hi + lo // 2`` squares.  This is not
                  a metric: ``d(a, c) <= d(a, b) + d(b, c) + 1 square`` is the best bound,
                  because two separate single diagonals each round down.
* ``EUCLIDEAN``   a diagonal step costs ``sqrt(2)`` squares; the distance between two
                  cells is the straight line between their centres.
* ``NONE``        no diagonal steps at all: ``|dx| + |dy|`` squares.
* ``APPROXIMATE`` a diagonal step costs 1.5 squares: ``hi + lo / 2`` squares, unrounded.
* ``RECTILINEAR`` a diagonal step is allowed and costs 2 squares: ``hi + lo`` squares.
* ``ALTERNATING_2`` the 2-1-2 rule (10-5-10 ft): the first diagonal costs two squares,
                  the second one, and so on: ``hi + (lo + 1) // 2`` squares.

Foundry VTT names these ``CONST.GRID_DIAGONALS`` (API documentation, "The different
rules to define and measure diagonal distance/cost in a square grid"): EQUIDISTANT =
``ONE``, EXACT = ``EUCLIDEAN``, APPROXIMATE, RECTILINEAR, ALTERNATING_1 = ``ALTERNATING``,
ALTERNATING_2, ILLEGAL = ``NONE``.  The alternating rules count diagonals over the whole
move, across waypoints, as Foundry's measured path does.  Owlbear Rodeo's grid
``measurement`` CHEBYSHEV is ``ONE``, ALTERNATING ``ALTERNATING``, EUCLIDEAN
``EUCLIDEAN`` and MANHATTAN ``NONE``.

Reaching a cell (used by :mod:`geometry.reach`): a creature reaches cell ``c`` from its
footprint cell ``f`` when ``distance(f, c) - cell_size / 2 < reach``, i.e. the centre of
``c`` lies strictly within ``reach`` of the edge of ``f``, distance measured by the rule.
For a reach that is a whole number of squares that is simply ``distance(f, c) <= reach``:
with ``ALTERNATING`` a 2 m reach on 1 m squares reaches (2, 1) but not the far diagonal
(2, 2), the d20 convention; with ``ONE`` it reaches the whole 5x5 block.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from shapely.geometry import Polygon, box

from geometry.errors import GeometryError

Cell = tuple[int, int]
Point = tuple[float, float]

_ORTHOGONAL: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
_DIAGONAL: tuple[Cell, ...] = ((1, 1), (-1, 1), (-1, -1), (1, -1))


class DiagonalRule(Enum):
    """How a square grid prices a diagonal step (see the module docstring)."""

    ONE = "one"
    ALTERNATING = "alternating"
    EUCLIDEAN = "euclidean"
    NONE = "none"
    APPROXIMATE = "approximate"
    RECTILINEAR = "rectilinear"
    ALTERNATING_2 = "alternating_2"


#: Cost of a diagonal step in squares for the rules that do not alternate.
_FIXED_DIAGONAL: dict[DiagonalRule, float] = {
    DiagonalRule.ONE: 1.0,
    DiagonalRule.EUCLIDEAN: math.sqrt(2.0),
    DiagonalRule.APPROXIMATE: 1.5,
    DiagonalRule.RECTILINEAR: 2.0,
}


def diagonal_costs(rule: DiagonalRule) -> tuple[float, float]:
    """A diagonal step's cost in squares after an even and after an odd number of diagonals."""
    if rule is DiagonalRule.ALTERNATING:
        return (1.0, 2.0)
    if rule is DiagonalRule.ALTERNATING_2:
        return (2.0, 1.0)
    cost = _FIXED_DIAGONAL.get(rule, 1.0)
    return (cost, cost)


@dataclass(frozen=True, slots=True)
class SquareGrid:
    """A rectangular square grid ``width`` x ``height`` cells of side ``cell_size``."""

    width: int
    height: int
    cell_size: float = 1.0
    unit: str = "m"
    diagonal: DiagonalRule = DiagonalRule.ONE

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise GeometryError(f"grid must be at least 1x1 cells, got {self.width}x{self.height}")
        if not self.cell_size > 0:
            raise GeometryError(f"cell_size must be positive, got {self.cell_size!r}")
        if not isinstance(self.diagonal, DiagonalRule):
            raise GeometryError(f"diagonal must be a DiagonalRule, got {self.diagonal!r}")

    # -- cells -------------------------------------------------------------------------

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on the grid."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def require(self, cell: Cell) -> None:
        """Raise :class:`GeometryError` unless ``cell`` lies on the grid."""
        if not self.contains(cell):
            raise GeometryError(f"cell {cell} is off the {self.width}x{self.height} grid")

    def center(self, cell: Cell) -> Point:
        """The centre of ``cell`` in distance units."""
        s = self.cell_size
        return ((cell[0] + 0.5) * s, (cell[1] + 0.5) * s)

    def cell_polygon(self, cell: Cell) -> Polygon:
        """The square covered by ``cell``, in distance units."""
        s = self.cell_size
        return box(cell[0] * s, cell[1] * s, (cell[0] + 1) * s, (cell[1] + 1) * s)

    def cell_at(self, point: Point) -> Cell:
        """The cell containing ``point`` (a point on a shared edge belongs to the right/lower)."""
        s = self.cell_size
        return (math.floor(point[0] / s), math.floor(point[1] / s))

    def bounds(self) -> tuple[float, float, float, float]:
        """The grid's extent ``(minx, miny, maxx, maxy)`` in distance units."""
        return (0.0, 0.0, self.width * self.cell_size, self.height * self.cell_size)

    def cells(self) -> Iterator[Cell]:
        """Every cell of the grid, row by row."""
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    # -- adjacency -----------------------------------------------------------------------

    def directions(self) -> tuple[Cell, ...]:
        """The offsets of one legal step under the diagonal rule."""
        return _ORTHOGONAL if self.diagonal is DiagonalRule.NONE else _ORTHOGONAL + _DIAGONAL

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The on-grid cells one legal step away from ``cell``."""
        x, y = cell
        return [(x + dx, y + dy) for dx, dy in self.directions() if self.contains((x + dx, y + dy))]

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """Whether one legal step leads from ``a`` to ``b``."""
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        if self.diagonal is DiagonalRule.NONE:
            return dx + dy == 1
        return max(dx, dy) == 1

    def detours(self, a: Cell, b: Cell) -> tuple[Cell, Cell] | None:
        """For a diagonal step, the two cells beside it (its orthogonal detours); else None.

        A diagonal step squeezes between these two cells, which is why a wall around each
        of them blocks the step even though neither wall touches its centre line.
        """
        if a[0] != b[0] and a[1] != b[1]:
            return ((b[0], a[1]), (a[0], b[1]))
        return None

    # -- cost and distance ---------------------------------------------------------------

    def step_cost(self, a: Cell, b: Cell, *, diagonals_before: int = 0) -> float:
        """Cost in distance units of one step from ``a`` to the adjacent cell ``b``.

        ``diagonals_before`` counts the diagonal steps already taken on this move; only
        the alternating rules look at it (``ALTERNATING``: an odd count makes this
        diagonal a "2"; ``ALTERNATING_2``: an even count does).
        """
        if not self.adjacent(a, b):
            raise GeometryError(f"step from {a} to {b} is not between adjacent cells")
        if a[0] == b[0] or a[1] == b[1]:
            return self.cell_size
        return self.cell_size * diagonal_costs(self.diagonal)[diagonals_before % 2]

    def path_cost(self, path: Sequence[Cell], *, diagonals_before: int = 0) -> float:
        """Cost of walking ``path`` (adjacent cells, ``path[0]`` the start), step by step."""
        total = 0.0
        diagonals = diagonals_before
        for a, b in pairwise(path):
            total += self.step_cost(a, b, diagonals_before=diagonals)
            if a[0] != b[0] and a[1] != b[1]:
                diagonals += 1
        return total

    def offset_distance(self, dx: int, dy: int) -> float:
        """Distance between two cells ``dx`` columns and ``dy`` rows apart."""
        ax, ay = abs(dx), abs(dy)
        hi, lo = (ax, ay) if ax >= ay else (ay, ax)
        rule = self.diagonal
        if rule is DiagonalRule.ONE:
            cells: float = hi
        elif rule is DiagonalRule.ALTERNATING:
            cells = hi + lo // 2
        elif rule is DiagonalRule.EUCLIDEAN:
            cells = math.hypot(ax, ay)
        elif rule is DiagonalRule.APPROXIMATE:
            cells = hi + lo / 2
        elif rule is DiagonalRule.ALTERNATING_2:
            cells = hi + (lo + 1) // 2
        else:  # NONE, RECTILINEAR: every diagonal is worth two orthogonal steps
            cells = ax + ay
        return cells * self.cell_size

    def distance(self, a: Cell, b: Cell) -> float:
        """Grid distance between two cells under the diagonal rule (module docstring)."""
        return self.offset_distance(a[0] - b[0], a[1] - b[1])

    def heuristic(self, a: Cell, b: Cell) -> float:
        """A lower bound on the cost of any move from ``a`` to ``b`` (for A*)."""
        if self.diagonal in (DiagonalRule.ALTERNATING, DiagonalRule.ALTERNATING_2):
            # hi + lo // 2 breaks the triangle inequality by one square, which would make
            # A* inconsistent; hi never overestimates and every step lowers it by at most 1.
            return max(abs(a[0] - b[0]), abs(a[1] - b[1])) * self.cell_size
        return self.distance(a, b)

    # -- footprints ----------------------------------------------------------------------

    def footprint(self, origin: Cell, size: int) -> frozenset[Cell]:
        """The cells of a ``size`` x ``size`` token whose top-left cell is ``origin``."""
        if size < 1:
            raise GeometryError(f"token size must be at least 1 cell, got {size}")
        ox, oy = origin
        if size == 1:  # almost every token: skip the generator
            return frozenset(((ox, oy),))
        return frozenset((ox + dx, oy + dy) for dx in range(size) for dy in range(size))

    def footprint_center(self, origin: Cell, size: int) -> Point:
        """The centre of a ``size`` x ``size`` token whose top-left cell is ``origin``."""
        s = self.cell_size
        return ((origin[0] + size / 2) * s, (origin[1] + size / 2) * s)
