"""Conversions from and to the coordinates Foundry VTT and Owlbear Rodeo send.

Foundry VTT (square grids): a token document's ``x``/``y`` is the pixel position of its
top-left corner on the canvas, which includes the scene padding (``sceneX``/``sceneY``
of ``canvas.dimensions``); ``width``/``height`` are in grid units; the scene's grid has
``size`` pixels per cell and ``distance`` scene units per cell.

Owlbear Rodeo: an item's ``position`` is the scene pixel where its image's own grid
``offset`` sits (SDK 3.x ``Image.grid: {offset, dpi}``, ``Item.scale``); that is the
item's centre only when the offset is the image's centre, which the bridge assumes when
the client sends no :class:`OwlbearImageGrid` (the SDK's ``buildImage`` defaults the
offset to (0, 0), the image's top-left corner).  The scene grid has ``dpi`` pixels per
cell and a scale of ``cell_size`` units per cell; there is no padding.

Foundry square cells count from the scene rectangle (``scene_x``/``scene_y`` are taken
off, and Foundry's padding is a whole number of cells on square grids), while Foundry
hex cells count from the canvas origin and ignore the padding, as Foundry's
``HexagonalGrid#getOffset`` does (the padding need not be a whole number of hexes).

Hex grids: :class:`FoundryHexScene` (``grid.type`` 2-5) and :class:`OwlbearHexScene`,
whose docstrings give the pixel of a hex centre exactly.

Square cells are the ones of :class:`~geometry.square.SquareGrid`; points are in distance units
with the grid's top-left corner at the origin, as everywhere in :mod:`geometry`.
Converting a cell to pixels and back always gives the cell; pixels snapped to the grid
convert to a cell and back exactly; other pixels round to the nearest cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from geometry.errors import GeometryError
from geometry.hexgrid import HexGrid, HexOrientation, HexParity
from geometry.hexshapes import FOUNDRY_DEFAULT_SHAPE, HexShape
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
class OwlbearImageGrid:
    """An Owlbear image item's own grid: ``offset_x``/``offset_y`` image pixels (the
    point placed at the item's ``position``), ``dpi`` image pixels per cell, and the
    item's ``scale_x``/``scale_y``."""

    offset_x: float
    offset_y: float
    dpi: float
    scale_x: float = 1.0
    scale_y: float = 1.0

    def __post_init__(self) -> None:
        for name in ("offset_x", "offset_y"):
            if not math.isfinite(getattr(self, name)):
                raise GeometryError(f"{name} must be a finite number")
        for name in ("dpi", "scale_x", "scale_y"):
            _positive(name, getattr(self, name))

    @classmethod
    def centred(cls, size: int, dpi: float = 150.0) -> OwlbearImageGrid:
        """The grid of a ``size``-cell image whose offset is its centre."""
        return cls(size * dpi / 2, size * dpi / 2, dpi)


@dataclass(frozen=True, slots=True)
class OwlbearScene:
    """An Owlbear Rodeo grid: ``dpi`` pixels per cell, ``cell_size`` units per cell."""

    dpi: float = 150.0
    cell_size: float = 5.0

    def __post_init__(self) -> None:
        _positive("dpi", self.dpi)
        _positive("cell_size", self.cell_size)

    def item_origin(
        self, x: float, y: float, size: int = 1, image: OwlbearImageGrid | None = None
    ) -> Cell:
        """The top-left cell of a ``size``-cell item whose ``position`` is ``x``/``y`` px.

        Without ``image`` the position is the item's centre; with it, the position is
        where the image's grid offset lies, and the image's top-left corner is that
        offset, scaled to scene pixels, up and left of it.
        """
        if size < 1:
            raise GeometryError(f"item size must be at least 1 cell, got {size}")
        left, top = self._top_left(x, y, size, image)
        return (math.floor(left / self.dpi + 0.5), math.floor(top / self.dpi + 0.5))

    def item_position(
        self, origin: Cell, size: int = 1, image: OwlbearImageGrid | None = None
    ) -> tuple[float, float]:
        """The ``position`` of a ``size``-cell item whose top-left cell is ``origin``."""
        left, top = origin[0] * self.dpi, origin[1] * self.dpi
        if image is None:
            return (left + size / 2 * self.dpi, top + size / 2 * self.dpi)
        kx, ky = self._image_scale(image)
        return (left + image.offset_x * kx, top + image.offset_y * ky)

    def _image_scale(self, image: OwlbearImageGrid) -> tuple[float, float]:
        # Scene pixels per image pixel: the image's cells are drawn the scene's cell size.
        k = self.dpi / image.dpi
        return (k * image.scale_x, k * image.scale_y)

    def _top_left(
        self, x: float, y: float, size: int, image: OwlbearImageGrid | None
    ) -> tuple[float, float]:
        if image is None:
            return (x - size / 2 * self.dpi, y - size / 2 * self.dpi)
        kx, ky = self._image_scale(image)
        return (x - image.offset_x * kx, y - image.offset_y * ky)

    def to_point(self, x: float, y: float) -> Point:
        """A pixel position as a point in distance units."""
        k = self.cell_size / self.dpi
        return (x * k, y * k)

    def from_point(self, point: Point) -> tuple[float, float]:
        """A point in distance units as pixels."""
        k = self.dpi / self.cell_size
        return (point[0] * k, point[1] * k)


# -- hex grids --------------------------------------------------------------------------

_FOUNDRY_HEX_TYPES: dict[int, tuple[HexOrientation, HexParity]] = {
    2: (HexOrientation.POINTY, HexParity.ODD),  # hexOddR: odd rows pushed right
    3: (HexOrientation.POINTY, HexParity.EVEN),  # hexEvenR
    4: (HexOrientation.FLAT, HexParity.ODD),  # hexOddQ: odd columns pushed down
    5: (HexOrientation.FLAT, HexParity.EVEN),  # hexEvenQ
}


@dataclass(frozen=True, slots=True)
class FoundryHexScene:
    """A Foundry VTT hex grid (``grid.type`` 2-5), as Foundry v12 ``HexagonalGrid`` lays it out.

    ``grid_size`` is Foundry's ``grid.size``: the pixels between the centres of two
    adjacent hexes, which is the hex's width for rows (pointy-top, types 2 and 3) and its
    height for columns (flat-top, types 4 and 5); the other extent is ``grid_size * 2 /
    sqrt(3)``.  ``grid_distance`` is the scene units per hex, so the matching
    :class:`HexGrid` has ``cell_size = grid_distance``.

    Foundry's offset ``{i: row, j: column}`` is our cell ``(column, row)``, counted from
    the canvas origin (padding included).  The centre pixel of ``(j, i)``
    (``HexagonalGrid.getCenterPoint``), with ``p`` = 0.5 on the pushed rows (columns)
    and 0 on the others:

    * rows: ``x = (j + p) * size``, ``y = (0.75 * i + 0.5) * size * 2 / sqrt(3)``;
    * columns: ``x = (0.75 * j + 0.5) * size * 2 / sqrt(3)``, ``y = (i + p) * size``.

    A token document's ``x``/``y`` is the top-left of its bounding box: the centre minus
    half the hex's width and height.
    """

    grid_type: int
    grid_size: float
    grid_distance: float

    def __post_init__(self) -> None:
        if self.grid_type not in _FOUNDRY_HEX_TYPES:
            raise GeometryError(
                f"Foundry grid.type {self.grid_type!r} is not a hex grid (2, 3, 4 or 5)"
            )
        _positive("grid_size", self.grid_size)
        _positive("grid_distance", self.grid_distance)

    @property
    def orientation(self) -> HexOrientation:
        """Pointy-top for rows (types 2, 3), flat-top for columns (4, 5)."""
        return _FOUNDRY_HEX_TYPES[self.grid_type][0]

    @property
    def parity(self) -> HexParity:
        """Which rows (columns) are pushed by half a hex."""
        return _FOUNDRY_HEX_TYPES[self.grid_type][1]

    def grid(self, width: int, height: int, unit: str = "m") -> HexGrid:
        """The :class:`HexGrid` of ``width`` x ``height`` hexes matching this scene."""
        return HexGrid(width, height, self.grid_distance, unit, self.orientation, self.parity)

    def _extent(self) -> tuple[float, float]:
        long = self.grid_size * 2 / math.sqrt(3)
        if self.orientation is HexOrientation.POINTY:
            return (self.grid_size, long)
        return (long, self.grid_size)

    def center_px(self, cell: Cell) -> tuple[float, float]:
        """The canvas pixels of the centre of hex ``cell`` (Foundry's formula, above)."""
        j, i = cell
        size, long = self.grid_size, self.grid_size * 2 / math.sqrt(3)
        even = self.parity is HexParity.EVEN
        if self.orientation is HexOrientation.POINTY:
            push = 0.5 if (i % 2 == 0) == even else 0.0
            return ((j + push) * size, (0.75 * i + 0.5) * long)
        push = 0.5 if (j % 2 == 0) == even else 0.0
        return ((0.75 * j + 0.5) * long, (i + push) * size)

    def to_point(self, x: float, y: float) -> Point:
        """Canvas pixels as a point of :meth:`grid` (distance units)."""
        k = self.grid_distance / self.grid_size
        half = self.grid_distance / 2
        if self.orientation is HexOrientation.POINTY:
            return (x * k + half, y * k)
        return (x * k, y * k + half)

    def from_point(self, point: Point) -> tuple[float, float]:
        """A point of :meth:`grid` as canvas pixels."""
        k = self.grid_size / self.grid_distance
        half = self.grid_distance / 2
        if self.orientation is HexOrientation.POINTY:
            return ((point[0] - half) * k, point[1] * k)
        return (point[0] * k, (point[1] - half) * k)

    def cell_at_px(self, x: float, y: float) -> Cell:
        """The hex containing canvas pixel ``x``/``y`` (the true hexagon, not its box)."""
        return self.grid(1, 1).cell_at(self.to_point(x, y))

    def token_xy(
        self, cell: Cell, size: int = 1, shape: HexShape = FOUNDRY_DEFAULT_SHAPE
    ) -> tuple[float, float]:
        """The ``x``/``y`` of a token document of ``size`` and ``shape`` anchored on ``cell``."""
        (cx, cy), (dx, dy) = self.center_px(cell), self._anchor_offset(size, shape)
        return (cx - dx, cy - dy)

    def token_cell(
        self, x: float, y: float, size: int = 1, shape: HexShape = FOUNDRY_DEFAULT_SHAPE
    ) -> Cell:
        """The anchor hex of a token document of ``size`` and ``shape`` at ``x``/``y``.

        A token's ``x``/``y`` is the top-left of the box around its hexes; the anchor is
        the shape's top-left hex (:mod:`geometry.hexshapes`).
        """
        dx, dy = self._anchor_offset(size, shape)
        return self.cell_at_px(x + dx, y + dy)

    def _anchor_offset(self, size: int, shape: HexShape) -> tuple[float, float]:
        # Pixels from the top-left of the box around the token's hexes to the centre of
        # its anchor hex; shapes are rigid, so any anchor gives the same answer.
        if size == 1:
            w, h = self._extent()
            return (w / 2, h / 2)
        grid = HexGrid(1, 1, self.grid_distance, "", self.orientation, self.parity, shape)
        cells = grid.footprint((0, 0), size)
        left = min(grid.cell_polygon(c).bounds[0] for c in cells)
        top = min(grid.cell_polygon(c).bounds[1] for c in cells)
        ax, ay = grid.center((0, 0))
        k = self.grid_size / self.grid_distance
        return ((ax - left) * k, (ay - top) * k)


@dataclass(frozen=True, slots=True)
class OwlbearHexScene:
    """An Owlbear Rodeo hex grid: ``HEX_VERTICAL`` (pointy-top) or ``HEX_HORIZONTAL`` (flat).

    The convention implemented (Owlbear's SDK does not number hexes, so this one is ours):
    ``dpi`` is the pixels between the centres of two adjacent hexes, an item's
    ``position`` is its centre, the hex centred on pixel (0, 0) is cell (0, 0), and cells
    are odd-offset (:attr:`HexParity.ODD`) ``(column, row)`` as in :class:`HexGrid`.  The
    centre of ``(col, row)`` in pixels, with ``p`` = 0.5 on odd rows (columns), else 0:

    * pointy-top: ``x = (col + p) * dpi``, ``y = row * dpi * sqrt(3) / 2``;
    * flat-top: ``x = col * dpi * sqrt(3) / 2``, ``y = (row + p) * dpi``.

    An item larger than one hex covers the bridge's ``HEXAGON`` shape, centred on its
    position (:meth:`item_position`).
    """

    dpi: float = 150.0
    cell_size: float = 5.0
    flat: bool = False

    def __post_init__(self) -> None:
        _positive("dpi", self.dpi)
        _positive("cell_size", self.cell_size)

    def grid(self, width: int, height: int, unit: str = "ft") -> HexGrid:
        """The :class:`HexGrid` matching this scene (cells from (0, 0))."""
        orientation = HexOrientation.FLAT if self.flat else HexOrientation.POINTY
        return HexGrid(width, height, self.cell_size, unit, orientation, HexParity.ODD)

    def _anchor_shift(self, size: int) -> Point:
        """How far the centre of a ``size``-hex item lies from its anchor hex's centre, in
        distance units: the same for every anchor, a shape being fixed in cube
        coordinates (:mod:`geometry.hexshapes`)."""
        grid = self.grid(1, 1)
        cx, cy = grid.center((0, 0))
        fx, fy = grid.footprint_center((0, 0), size)
        return fx - cx, fy - cy

    def item_position(self, cell: Cell, size: int = 1) -> tuple[float, float]:
        """The centre pixels of an item of ``size`` hexes anchored on ``cell``.

        Owlbear draws an item centred on its position, so a larger item's position is the
        centre of the hexes it covers in the bridge's ``HEXAGON`` shape: an odd size
        ``2k + 1`` centred on its anchor (7 hexes at size 3), size 2 the three hexes
        meeting at the corner its position lies on.  Other sizes are refused."""
        if size == 1:
            col, row = cell
            step = self.dpi * math.sqrt(3) / 2
            if self.flat:
                return (col * step, (row + 0.5 * (col % 2)) * self.dpi)
            return ((col + 0.5 * (row % 2)) * self.dpi, row * step)
        cx, cy = self.grid(1, 1).center(cell)
        sx, sy = self._anchor_shift(size)
        return self.from_point((cx + sx, cy + sy))

    def to_point(self, x: float, y: float) -> Point:
        """Pixels as a point of :meth:`grid` (distance units)."""
        k = self.cell_size / self.dpi
        ox, oy = self.grid(1, 1).center((0, 0))
        return (x * k + ox, y * k + oy)

    def from_point(self, point: Point) -> tuple[float, float]:
        """A point of :meth:`grid` as pixels."""
        k = self.dpi / self.cell_size
        ox, oy = self.grid(1, 1).center((0, 0))
        return ((point[0] - ox) * k, (point[1] - oy) * k)

    def item_cell(self, x: float, y: float, size: int = 1) -> Cell:
        """The anchor hex of an item of ``size`` hexes centred on ``x``/``y`` (the inverse
        of :meth:`item_position`; one hex: the hex containing the centre)."""
        px, py = self.to_point(x, y)
        if size == 1:
            return self.grid(1, 1).cell_at((px, py))
        sx, sy = self._anchor_shift(size)
        return self.grid(1, 1).cell_at((px - sx, py - sy))
