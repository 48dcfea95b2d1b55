"""Map features a scene carries besides its tokens: walls and doors, terrain, and how
the client's VTT places things on the grid.

Coordinates are points in the scene's distance unit (a 1 m grid's cell (3, 4) spans
x 3..4, y 4..5), finite and within the grid's bounds (the scene checks the bounds).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, get_args

from msgspec import Meta

from protocol.errors import ProtocolError
from protocol.wire import Float, Point, Positive, TokenId, Wire

#: Most walls and most terrain regions in one scene.
MAX_WALLS: Final = 4000
MAX_TERRAIN: Final = 512
#: Most vertices of one terrain polygon.
MAX_VERTICES: Final = 256

DoorState = Literal["none", "open", "closed"]
TerrainKind = Literal["difficult", "water", "climbable", "gap", "impassable"]
VttKind = Literal["foundry", "owlbear"]
#: Shapes of hex tokens larger than one hex: the bridge's own ("hexagon") and Foundry's
#: ``CONST.TOKEN_SHAPES`` (geometry/hexshapes.py says which hexes each covers).
HexShape = Literal[
    "hexagon", "ellipse_1", "ellipse_2", "trapezoid_1", "trapezoid_2", "rectangle_1", "rectangle_2"
]
DOOR_STATES: Final[frozenset[str]] = frozenset(get_args(DoorState))
TERRAIN_KINDS: Final[frozenset[str]] = frozenset(get_args(TerrainKind))
HEX_SHAPES: Final[frozenset[str]] = frozenset(get_args(HexShape))


class WallSpec(Wire, frozen=True, kw_only=True):
    """A wall segment from ``a`` to ``b``.  A window blocks movement but not sight; a door
    (``door`` "open" or "closed") blocks both while closed and neither while open."""

    id: TokenId
    a: Point
    b: Point
    blocks_move: bool = True
    blocks_sight: bool = True
    door: DoorState = "none"

    def check(self) -> None:
        """A wall has two distinct ends."""
        if self.a == self.b:
            raise ProtocolError(
                "bad_value", f"a wall needs two distinct ends, got {self.a} twice", path="b"
            )


class TerrainSpec(Wire, frozen=True, kw_only=True):
    """A polygon of one terrain ``kind`` (3 to 256 vertices, not closed explicitly)."""

    kind: TerrainKind
    polygon: Annotated[tuple[Point, ...], Meta(min_length=3, max_length=MAX_VERTICES)]


class VttSpec(Wire, frozen=True, kw_only=True):
    """How the client's VTT places things on this grid, so it can send its own pixels.

    ``foundry``: ``grid_size`` pixels per cell (the scene's ``grid.size``), and the scene
    padding ``scene_x``/``scene_y`` (``canvas.dimensions.sceneX/Y``); a token position is
    its document's top-left ``x``/``y``.  ``owlbear``: ``grid_size`` is the grid's dpi,
    no padding; a position is the item's centre.  Foundry hex grids count cells from
    the canvas origin, so there ``scene_x``/``scene_y`` are ignored.

    ``hex_shape`` is the shape of hex tokens larger than one hex (``HEX_SHAPES``); null
    means the VTT's default: Foundry's ``"rectangle_1"`` (its ``TOKEN_SHAPES``
    default), Owlbear's ``"hexagon"`` (the bridge's own, Owlbear has no shapes).
    """

    LATER = ("scene_x", "scene_y", "hex_shape")
    kind: VttKind
    grid_size: Positive
    scene_x: Float = 0.0
    scene_y: Float = 0.0
    hex_shape: HexShape | None = None
