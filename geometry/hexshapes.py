"""Which hexes a token larger than one hex covers: the bridge's shape and Foundry's.

A shape is a set of axial offsets ``(dq, dr)`` from the token's anchor hex, so it moves
with the token unchanged in cube coordinates whatever the row/column parity under it.

* ``HEXAGON`` (the bridge's default, and Owlbear Rodeo's: Owlbear has no token shapes,
  so this is our convention): size 2 is the three hexes meeting at a corner (the anchor,
  its neighbour along the row/column and the one after it clockwise); an odd size
  ``2k + 1`` is the ``1 + 3k(k + 1)`` hexes within ``k`` steps of the anchor, which is
  the token's *centre*.  Other sizes have no agreed shape and are refused.
* Foundry VTT's ``CONST.TOKEN_SHAPES`` (v13; ``TOKEN_HEXAGONAL_SHAPES`` in v12):
  ``ELLIPSE_1/2``, ``TRAPEZOID_1/2``, ``RECTANGLE_1/2``.  A Foundry hex token of size
  ``n`` spans ``n`` rows (columns on flat-top grids) and its anchor is its top-left hex
  (``TokenHexagonalShapeData.anchor``: "the top-left grid hex center in the snapped
  position"); which offsets it covers is listed for even and odd rows (columns) in
  ``TokenHexagonalShapeData.offsets``, i.e. the shape is fixed in cube coordinates.
  The rows, from the top (flat-top grids: the columns, from the left), each centred in
  the token's box or alternating against its sides:

  ============  ===========================================  ============  =========
  shape         hexes per row                                 size 2 / 3    size 4
  ============  ===========================================  ============  =========
  RECTANGLE_1   n, n-1, n, n-1 ...                            3 / 8         14
  RECTANGLE_2   n-1, n, n-1, n ...                            3 / 7         14
  ELLIPSE_1     growing by one to the widest, then shrinking  3 / 7         12
  ELLIPSE_2     ELLIPSE_1 upside down                         3 / 7         12
  TRAPEZOID_1   1, 2, ..., n                                  3 / 6         10
  TRAPEZOID_2   n, ..., 2, 1                                  3 / 6         10
  ============  ===========================================  ============  =========

  Every shape of size 1 is the one hex.  Foundry's default for a new token is
  ``RECTANGLE_1`` (size 3: eight hexes, as observed in Foundry v13).  The row counts are
  our reading of the shapes Foundry draws (its code is not open source); the hex
  counts of the sizes above are pinned by ``tests/geometry/test_hex_shapes.py``.
"""

from __future__ import annotations

from enum import Enum
from functools import cache

from geometry.errors import GeometryError

Axial = tuple[int, int]


class HexShape(Enum):
    """The shape a hex token of size > 1 covers (module docstring)."""

    HEXAGON = "hexagon"
    ELLIPSE_1 = "ellipse_1"
    ELLIPSE_2 = "ellipse_2"
    TRAPEZOID_1 = "trapezoid_1"
    TRAPEZOID_2 = "trapezoid_2"
    RECTANGLE_1 = "rectangle_1"
    RECTANGLE_2 = "rectangle_2"


#: Foundry VTT's ``CONST.TOKEN_SHAPES`` numbers for the hex shapes.
FOUNDRY_TOKEN_SHAPES: dict[int, HexShape] = {
    0: HexShape.ELLIPSE_1,
    1: HexShape.ELLIPSE_2,
    2: HexShape.TRAPEZOID_1,
    3: HexShape.TRAPEZOID_2,
    4: HexShape.RECTANGLE_1,
    5: HexShape.RECTANGLE_2,
}
#: The shape a new Foundry token has unless its configuration says otherwise.
FOUNDRY_DEFAULT_SHAPE = HexShape.RECTANGLE_1


def row_widths(shape: HexShape, size: int) -> tuple[int, ...]:
    """How many hexes each of the ``size`` rows (columns) of a Foundry shape covers."""
    if size < 1:
        raise GeometryError(f"hex token size must be at least 1, got {size}")
    if size == 1:
        return (1,)
    n = size
    if shape in (HexShape.RECTANGLE_1, HexShape.RECTANGLE_2):
        first = 0 if shape is HexShape.RECTANGLE_1 else 1
        return tuple(n - (k + first) % 2 for k in range(n))
    if shape in (HexShape.ELLIPSE_1, HexShape.ELLIPSE_2):
        k = n // 2
        if n % 2:
            widths = [*range(k + 1, n + 1), *range(n - 1, k, -1)]
        else:
            widths = [*range(k, n + 1), *range(n - 1, k, -1)]
        return tuple(widths if shape is HexShape.ELLIPSE_1 else widths[::-1])
    if shape in (HexShape.TRAPEZOID_1, HexShape.TRAPEZOID_2):
        widths = list(range(1, n + 1))
        return tuple(widths if shape is HexShape.TRAPEZOID_1 else widths[::-1])
    raise GeometryError(f"{shape.value} has no rows")  # pragma: no cover - HEXAGON only


@cache
def shape_offsets(shape: HexShape, size: int, flat: bool) -> tuple[Axial, ...]:
    """The axial offsets from the anchor of a token of ``shape`` and ``size``.

    ``flat``: a flat-top (column) grid, where the rows above are columns.
    """
    if shape is HexShape.HEXAGON:
        return _hexagon(size)
    widths = row_widths(shape, size)
    # Hex centres in half-hex units from the box's side: a row of w centred in a box n
    # hexes across starts at n - (w - 1); consecutive rows are half a hex apart.
    first = size - (widths[0] - 1)
    out: list[Axial] = []
    for k, w in enumerate(widths):
        start = size - (w - 1)
        for m in range(w):
            along = (start + 2 * m - first - k) // 2  # exact: the parities match
            out.append((k, along) if flat else (along, k))
    return tuple(out)


def _hexagon(size: int) -> tuple[Axial, ...]:
    if size == 2:
        return ((0, 0), (1, 0), (0, 1))
    if size >= 1 and size % 2 == 1:
        k = size // 2
        return tuple(
            (dq, dr)
            for dq in range(-k, k + 1)
            for dr in range(max(-k, -dq - k), min(k, -dq + k) + 1)
        )
    raise GeometryError(f"hex token size must be 1, 2 or odd for the hexagon shape, got {size}")
