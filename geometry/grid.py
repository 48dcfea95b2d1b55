"""The ``Grid`` protocol every cell grid satisfies (square and hex).

Code that only needs cells, steps and distances (reach, paths, the index, path search)
takes a ``Grid`` and works unchanged on :class:`~geometry.square.SquareGrid` and
:class:`~geometry.hexgrid.HexGrid`.  Gridless scenes have no cells and live in
:mod:`geometry.gridless`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from shapely.geometry import Polygon

from geometry.square import Cell, Point


@runtime_checkable
class Grid(Protocol):
    """A finite grid of cells with a step cost and a distance in the scene's unit."""

    @property
    def width(self) -> int:
        """Number of columns."""
        ...

    @property
    def height(self) -> int:
        """Number of rows."""
        ...

    @property
    def cell_size(self) -> float:
        """Distance between adjacent cell centres, in ``unit``."""
        ...

    @property
    def unit(self) -> str:
        """The scene's distance unit ("m", "ft")."""
        ...

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on the grid."""
        ...

    def require(self, cell: Cell) -> None:
        """Raise ``GeometryError`` unless ``cell`` lies on the grid."""
        ...

    def center(self, cell: Cell) -> Point:
        """The centre of ``cell`` in distance units."""
        ...

    def cell_at(self, point: Point) -> Cell:
        """The cell containing ``point``."""
        ...

    def cell_polygon(self, cell: Cell) -> Polygon:
        """The area covered by ``cell``."""
        ...

    def cells(self) -> Iterator[Cell]:
        """Every cell of the grid."""
        ...

    def bounds(self) -> tuple[float, float, float, float]:
        """The grid's extent in distance units."""
        ...

    def neighbours(self, cell: Cell) -> list[Cell]:
        """On-grid cells one legal step away."""
        ...

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """Whether one legal step leads from ``a`` to ``b``."""
        ...

    def detours(self, a: Cell, b: Cell) -> tuple[Cell, Cell] | None:
        """The two cells a step squeezes between (square diagonals), else None."""
        ...

    def step_cost(self, a: Cell, b: Cell, *, diagonals_before: int = 0) -> float:
        """Cost of one step between adjacent cells."""
        ...

    def path_cost(self, path: Sequence[Cell], *, diagonals_before: int = 0) -> float:
        """Cost of a path of adjacent cells."""
        ...

    def distance(self, a: Cell, b: Cell) -> float:
        """Grid distance between two cells."""
        ...

    def heuristic(self, a: Cell, b: Cell) -> float:
        """A consistent lower bound on the cost of moving from ``a`` to ``b``."""
        ...

    def footprint(self, origin: Cell, size: int) -> frozenset[Cell]:
        """The cells a token of ``size`` anchored at ``origin`` covers."""
        ...

    def footprint_center(self, origin: Cell, size: int) -> Point:
        """The centre of that token."""
        ...
