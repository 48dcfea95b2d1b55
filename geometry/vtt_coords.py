"""Conversions from and to the coordinates Foundry VTT and Owlbear Rodeo send.

Foundry VTT (square grids): a token document's ``x``/``y`` is the pixel position of its
top-left corner on the canvas, which includes the scene padding (``sceneX``/``sceneY``
of ``canvas.dimensions``); ``width``/``height`` are in grid units; the scene's grid has
``size`` pixels per cell and ``distance`` scene units per cell.

Owlbear Rodeo: an item's ``position`` is the pixel position of its centre (the default
image anchor); the grid has ``dpi`` pixels per cell and a scale of ``cell_size`` units
per cell; there is no padding.

Cells are the ones of :class:`~geometry.square.SquareGrid`; points are in distance units
with the grid's top-left corner at the origin, as everywhere in :mod:`geometry`.
Converting a cell to pixels and back always gives the cell; pixels snapped to the grid
convert to a cell and back exactly; other pixels round to the nearest cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from geometry.errors import GeometryError
from geometry.square import Cell, Point


def _positive(name: str, value: float) -> None:
    if not value > 0 or not math.isfinite(value):
        raise GeometryError(f"{name} must be a positive number, got {value!r}")


@dataclass(frozen=True, slots=True)
class FoundryScene:
    """A Foundry scene's grid: ``grid_size`` px per cell, ``grid_distance`` units per cell."""

    grid_size: float
    grid_distance: float
    scene_x: float = 0.0
    scene_y: float = 0.0

    def __post_init__(self) -> None:
        _positive("grid_size", self.grid_size)
        _positive("grid_distance", self.grid_distance)

    def token_origin(self, x: float, y: float) -> Cell:
        """The top-left cell of a token document at ``x``/``y`` pixels."""
        return (
            math.floor((x - self.scene_x) / self.grid_size + 0.5),
            math.floor((y - self.scene_y) / self.grid_size + 0.5),
        )

    def token_xy(self, origin: Cell) -> tuple[float, float]:
        """The ``x``/``y`` pixels of a token document whose top-left cell is ``origin``."""
        return (
            self.scene_x + origin[0] * self.grid_size,
            self.scene_y + origin[1] * self.grid_size,
        )

    def to_point(self, x: float, y: float) -> Point:
        """A canvas pixel position as a point in distance units."""
        k = self.grid_distance / self.grid_size
        return ((x - self.scene_x) * k, (y - self.scene_y) * k)

    def from_point(self, point: Point) -> tuple[float, float]:
        """A point in distance units as canvas pixels."""
        k = self.grid_size / self.grid_distance
        return (self.scene_x + point[0] * k, self.scene_y + point[1] * k)


def foundry_token_size(width: float, height: float) -> int:
    """A token document's ``width``/``height`` (grid units) as a square token size."""
    if width != height or width < 1 or width != int(width):
        raise GeometryError(
            f"only square tokens of whole grid units are supported, got {width}x{height}"
        )
    return int(width)


@dataclass(frozen=True, slots=True)
class OwlbearScene:
    """An Owlbear Rodeo grid: ``dpi`` pixels per cell, ``cell_size`` units per cell."""

    dpi: float = 150.0
    cell_size: float = 5.0

    def __post_init__(self) -> None:
        _positive("dpi", self.dpi)
        _positive("cell_size", self.cell_size)

    def item_origin(self, x: float, y: float, size: int = 1) -> Cell:
        """The top-left cell of a ``size``-cell item whose centre is at ``x``/``y`` px."""
        if size < 1:
            raise GeometryError(f"item size must be at least 1 cell, got {size}")
        return (
            math.floor(x / self.dpi - size / 2 + 0.5),
            math.floor(y / self.dpi - size / 2 + 0.5),
        )

    def item_position(self, origin: Cell, size: int = 1) -> tuple[float, float]:
        """The centre pixels of a ``size``-cell item whose top-left cell is ``origin``."""
        return ((origin[0] + size / 2) * self.dpi, (origin[1] + size / 2) * self.dpi)

    def to_point(self, x: float, y: float) -> Point:
        """A pixel position as a point in distance units."""
        k = self.cell_size / self.dpi
        return (x * k, y * k)

    def from_point(self, point: Point) -> tuple[float, float]:
        """A point in distance units as pixels."""
        k = self.dpi / self.cell_size
        return (point[0] * k, point[1] * k)
