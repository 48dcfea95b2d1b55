"""Hex grids, pointy-top and flat-top, with both offset parities.

Cells are offset coordinates ``(column, row)``, the way Foundry VTT and Owlbear Rodeo
number hexes; every computation goes through cube coordinates ``(q, r, s = -q - r)``
(https://www.redblobgames.com/grids/hexagons/), which make distance and neighbours
uniform whatever the orientation or parity.

* :class:`HexOrientation` ``POINTY``: rows are staggered (Foundry "Hex Rows");
  ``FLAT``: columns are staggered (Foundry "Hex Columns").
* :class:`HexParity` ``ODD``: the odd rows (columns) are pushed half a hex right (down);
  ``EVEN``: the even ones are.

``cell_size`` is the distance between the centres of two adjacent hexes, in the scene's
distance unit, so every step costs ``cell_size`` and the distance between two cells is the
number of steps between them times ``cell_size``.

Reaching a cell: as on square grids, a creature reaches ``c`` from its footprint hex
``f`` when ``distance(f, c) - cell_size / 2 < reach`` (the centre of ``c`` within reach
of the edge of ``f``).  A reach of one hex reaches the six neighbours, two hexes the
eighteen around them, identically in every direction.

Footprints follow the grid's :class:`~geometry.hexshapes.HexShape`: by default
(``HEXAGON``) size 1 is one hex, size 2 the three hexes meeting at a corner (the origin,
its right-hand neighbour and the one after it clockwise), and an odd size ``2k + 1`` the
``1 + 3k(k + 1)`` hexes within ``k`` steps of the origin (1, 7, 19 ...), other sizes
refused; Foundry's token shapes (``RECTANGLE_1`` ...) are anchored at their top-left hex
and take any size (:mod:`geometry.hexshapes`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from shapely.geometry import Polygon

from geometry.errors import GeometryError
from geometry.hexshapes import HexShape, shape_offsets
from geometry.square import Cell, Point

Cube = tuple[int, int, int]

_AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
)
_SQRT3 = math.sqrt(3.0)


class HexOrientation(Enum):
    """Which way the hexes point: ``POINTY`` (staggered rows) or ``FLAT`` (columns)."""

    POINTY = "pointy"
    FLAT = "flat"


class HexParity(Enum):
    """Which offset rows (pointy) or columns (flat) are pushed by half a hex."""

    ODD = "odd"
    EVEN = "even"


@dataclass(frozen=True, slots=True)
class HexGrid:
    """A ``width`` x ``height`` hex grid in offset coordinates (module docstring)."""

    width: int
    height: int
    cell_size: float = 1.0
    unit: str = "m"
    orientation: HexOrientation = HexOrientation.POINTY
    parity: HexParity = HexParity.ODD
    shape: HexShape = HexShape.HEXAGON

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise GeometryError(f"grid must be at least 1x1 cells, got {self.width}x{self.height}")
        if not self.cell_size > 0:
            raise GeometryError(f"cell_size must be positive, got {self.cell_size!r}")

    # -- coordinates ---------------------------------------------------------------------

    def to_cube(self, cell: Cell) -> Cube:
        """Cube coordinates of the offset cell ``cell``."""
        col, row = cell
        odd = self.parity is HexParity.ODD
        if self.orientation is HexOrientation.POINTY:
            q = col - (row - (row & 1)) // 2 if odd else col - (row + (row & 1)) // 2
            r = row
        else:
            q = col
            r = row - (col - (col & 1)) // 2 if odd else row - (col + (col & 1)) // 2
        return (q, r, -q - r)

    def from_cube(self, cube: Cube) -> Cell:
        """The offset cell at cube coordinates ``cube``."""
        q, r, _ = cube
        odd = self.parity is HexParity.ODD
        if self.orientation is HexOrientation.POINTY:
            col = q + (r - (r & 1)) // 2 if odd else q + (r + (r & 1)) // 2
            return (col, r)
        row = r + (q - (q & 1)) // 2 if odd else r + (q + (q & 1)) // 2
        return (q, row)

    def _origin_shift(self) -> Point:
        # Put the grid's left/top hex edges at 0: the staggered axis needs an extra half
        # step when the even lines are the pushed ones (row 1 then sits left of row 0).
        s, rad = self.cell_size, self.cell_size / _SQRT3
        extra = s / 2 if self.parity is HexParity.EVEN else 0.0
        if self.orientation is HexOrientation.POINTY:
            return (s / 2 + extra, rad)
        return (rad, s / 2 + extra)

    # -- cells ---------------------------------------------------------------------------

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on the grid."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def require(self, cell: Cell) -> None:
        """Raise :class:`GeometryError` unless ``cell`` lies on the grid."""
        if not self.contains(cell):
            raise GeometryError(f"hex {cell} is off the {self.width}x{self.height} grid")

    def center(self, cell: Cell) -> Point:
        """The centre of ``cell`` in distance units."""
        q, r, _ = self.to_cube(cell)
        s = self.cell_size
        sx, sy = self._origin_shift()
        if self.orientation is HexOrientation.POINTY:
            return (sx + s * (q + r / 2), sy + s * _SQRT3 / 2 * r)
        return (sx + s * _SQRT3 / 2 * q, sy + s * (r + q / 2))

    def cell_at(self, point: Point) -> Cell:
        """The hex containing ``point`` (cube rounding of the fractional hex)."""
        s = self.cell_size
        sx, sy = self._origin_shift()
        x, y = point[0] - sx, point[1] - sy
        if self.orientation is HexOrientation.POINTY:
            r = y / (s * _SQRT3 / 2)
            q = x / s - r / 2
        else:
            q = x / (s * _SQRT3 / 2)
            r = y / s - q / 2
        return self.from_cube(cube_round(q, r))

    def cell_polygon(self, cell: Cell) -> Polygon:
        """The hexagon covered by ``cell``, in distance units."""
        cx, cy = self.center(cell)
        rad = self.cell_size / _SQRT3
        start = 30.0 if self.orientation is HexOrientation.POINTY else 0.0
        return Polygon(
            [
                (
                    cx + rad * math.cos(math.radians(start + 60 * i)),
                    cy + rad * math.sin(math.radians(start + 60 * i)),
                )
                for i in range(6)
            ]
        )

    def bounds(self) -> tuple[float, float, float, float]:
        """The grid's extent ``(minx, miny, maxx, maxy)`` in distance units."""
        xs, ys = [], []
        for cell in (
            (0, 0),
            (self.width - 1, self.height - 1),
            (0, self.height - 1),
            (self.width - 1, 0),
            (1 % self.width, 1 % self.height),
        ):
            minx, miny, maxx, maxy = self.cell_polygon(cell).bounds
            xs += [minx, maxx]
            ys += [miny, maxy]
        return (min(0.0, *xs), min(0.0, *ys), max(xs), max(ys))

    def cells(self) -> Iterator[Cell]:
        """Every cell of the grid, row by row."""
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    # -- adjacency, cost, distance ---------------------------------------------------------

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The on-grid hexes sharing an edge with ``cell``."""
        q, r, _ = self.to_cube(cell)
        out = []
        for dq, dr in _AXIAL_DIRECTIONS:
            n = self.from_cube((q + dq, r + dr, -q - dq - r - dr))
            if self.contains(n):
                out.append(n)
        return out

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """Whether ``a`` and ``b`` share an edge."""
        return self.steps(a, b) == 1

    def detours(self, a: Cell, b: Cell) -> tuple[Cell, Cell] | None:
        """Hex steps always cross a shared edge, so there is nothing to squeeze past."""
        return None

    def steps(self, a: Cell, b: Cell) -> int:
        """The number of steps between two hexes."""
        qa, ra, sa = self.to_cube(a)
        qb, rb, sb = self.to_cube(b)
        return max(abs(qa - qb), abs(ra - rb), abs(sa - sb))

    def step_cost(self, a: Cell, b: Cell, *, diagonals_before: int = 0) -> float:
        """Cost of one step between adjacent hexes (``diagonals_before`` is ignored)."""
        if not self.adjacent(a, b):
            raise GeometryError(f"step from hex {a} to {b} is not between adjacent hexes")
        return self.cell_size

    def path_cost(self, path: Sequence[Cell], *, diagonals_before: int = 0) -> float:
        """Cost of walking ``path`` (adjacent hexes, ``path[0]`` the start)."""
        return sum(self.step_cost(a, b) for a, b in pairwise(path))

    def distance(self, a: Cell, b: Cell) -> float:
        """Steps between two hexes times ``cell_size``."""
        return self.steps(a, b) * self.cell_size

    def heuristic(self, a: Cell, b: Cell) -> float:
        """A lower bound on the cost of any move from ``a`` to ``b`` (for A*)."""
        return self.distance(a, b)

    # -- footprints ----------------------------------------------------------------------

    def footprint(self, origin: Cell, size: int) -> frozenset[Cell]:
        """The hexes of a token of ``size`` anchored at ``origin`` (module docstring)."""
        q, r, _ = self.to_cube(origin)
        axial = shape_offsets(self.shape, size, self.orientation is HexOrientation.FLAT)
        return frozenset(self.from_cube((q + dq, r + dr, -q - dq - r - dr)) for dq, dr in axial)

    def footprint_center(self, origin: Cell, size: int) -> Point:
        """The centre of the token of ``size`` anchored at ``origin``."""
        cells = self.footprint(origin, size)
        pts = [self.center(c) for c in cells]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def cube_round(q: float, r: float) -> Cube:
    """Round a fractional hex to the nearest whole one, keeping ``q + r + s == 0``."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return (int(rq), int(rr), int(rs))
