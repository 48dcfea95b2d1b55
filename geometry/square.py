"""Square grids: cells, centres, steps and their cost.

Cells are ``(column, row)`` integer pairs; distances are in the scene's distance unit
(``cell_size`` units per cell side).  Every diagonal costs one square, the rule Cyberpunk
RED (seed 001, "diagonals too") and the Hero supplement's 1 m squares use.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon, box

from geometry.errors import GeometryError

Cell = tuple[int, int]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SquareGrid:
    """A rectangular square grid ``width`` x ``height`` cells of side ``cell_size``."""

    width: int
    height: int
    cell_size: float = 1.0
    unit: str = "m"

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise GeometryError(f"grid must be at least 1x1 cells, got {self.width}x{self.height}")
        if not self.cell_size > 0:
            raise GeometryError(f"cell_size must be positive, got {self.cell_size!r}")

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on the grid."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def require(self, cell: Cell) -> None:
        """Raise :class:`GeometryError` unless ``cell`` lies on the grid."""
        if not self.contains(cell):
            raise GeometryError(
                f"cell {cell} is off the {self.width}x{self.height} grid"
            )

    def center(self, cell: Cell) -> Point:
        """The centre of ``cell`` in distance units."""
        s = self.cell_size
        return ((cell[0] + 0.5) * s, (cell[1] + 0.5) * s)

    def cell_polygon(self, cell: Cell) -> Polygon:
        """The square covered by ``cell``, in distance units."""
        s = self.cell_size
        return box(cell[0] * s, cell[1] * s, (cell[0] + 1) * s, (cell[1] + 1) * s)

    def step_cost(self, a: Cell, b: Cell) -> float:
        """Cost in distance units of one step from ``a`` to the adjacent cell ``b``."""
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            raise GeometryError(f"step from {a} to {b} is not between adjacent cells")
        return self.cell_size

    def distance(self, a: Cell, b: Cell) -> float:
        """Grid distance between two cells (every diagonal counts one square)."""
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) * self.cell_size
