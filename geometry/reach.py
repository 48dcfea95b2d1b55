"""Reach areas and threatened cells, built with shapely.

The rule for "reach a cell": a creature whose footprint covers the square cells ``F``
and whose reach is ``r`` distance units threatens cell ``c`` when ``c`` is not part of
``F`` and the centre of ``c`` lies strictly inside ``F`` grown by ``r`` with square
(mitred) corners.  Growing with square corners is the distance "every diagonal costs one
square", so 1 m reach on a 1 m grid threatens the eight surrounding squares, and the rule
is the same at every corner of a large token.
"""

from __future__ import annotations

from shapely import contains_xy, prepare
from shapely.geometry import Polygon, box

from geometry.errors import GeometryError
from geometry.square import Cell, SquareGrid


def footprint_cells(origin: Cell, size: int) -> frozenset[Cell]:
    """The cells covered by a ``size`` x ``size`` token whose top-left cell is ``origin``."""
    if size < 1:
        raise GeometryError(f"token size must be at least 1 cell, got {size}")
    return frozenset(
        (origin[0] + dx, origin[1] + dy) for dx in range(size) for dy in range(size)
    )


def footprint_polygon(grid: SquareGrid, origin: Cell, size: int) -> Polygon:
    """The square a ``size`` x ``size`` token covers, in distance units."""
    s = grid.cell_size
    return box(origin[0] * s, origin[1] * s, (origin[0] + size) * s, (origin[1] + size) * s)


def reach_area(grid: SquareGrid, origin: Cell, size: int, reach: float) -> Polygon:
    """The area a token can melee into: its footprint grown by ``reach`` with square corners."""
    if reach < 0:
        raise GeometryError(f"reach must not be negative, got {reach!r}")
    shape = footprint_polygon(grid, origin, size)
    if reach == 0:
        return shape
    grown = shape.buffer(reach, join_style="mitre")
    assert isinstance(grown, Polygon)
    return grown


def threatened_cells(grid: SquareGrid, origin: Cell, size: int, reach: float) -> frozenset[Cell]:
    """Every on-grid cell a token threatens (see the module docstring for the rule)."""
    area = reach_area(grid, origin, size, reach)
    prepare(area)
    own = footprint_cells(origin, size)
    s = grid.cell_size
    cells_out = int(reach // s) + 1
    x0, y0 = origin[0] - cells_out, origin[1] - cells_out
    x1, y1 = origin[0] + size + cells_out, origin[1] + size + cells_out
    candidates = [
        (x, y)
        for x in range(max(0, x0), min(grid.width, x1))
        for y in range(max(0, y0), min(grid.height, y1))
        if (x, y) not in own
    ]
    if not candidates:
        return frozenset()
    xs = [(x + 0.5) * s for x, _ in candidates]
    ys = [(y + 0.5) * s for _, y in candidates]
    inside = contains_xy(area, xs, ys)
    return frozenset(c for c, hit in zip(candidates, inside, strict=True) if hit)
