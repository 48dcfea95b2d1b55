"""Map features a scene carries besides its tokens: walls and doors, and terrain.

Coordinates are points in the scene's distance unit (a 1 m grid's cell (3, 4) spans
x 3..4, y 4..5), finite and within the grid's bounds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from protocol.errors import ProtocolError
from protocol.validate import (
    MAX_MAGNITUDE,
    at,
    check_bool,
    check_choice,
    check_float,
    check_keys,
    check_str,
    check_tuple,
    index_segment,
    show,
)

#: Most walls and most terrain regions in one scene.
MAX_WALLS: Final = 4000
MAX_TERRAIN: Final = 512
#: Most vertices of one terrain polygon.
MAX_VERTICES: Final = 256
DOOR_STATES: Final[frozenset[str]] = frozenset({"none", "open", "closed"})
TERRAIN_KINDS: Final[frozenset[str]] = frozenset(
    {"difficult", "water", "climbable", "gap", "impassable"}
)
_FEATURE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")

Point = tuple[float, float]


def _set(obj: object, name: str, value: object) -> None:
    object.__setattr__(obj, name, value)


def check_point(value: object, path: str) -> Point:
    """An ``[x, y]`` pair of finite numbers within ``MAX_MAGNITUDE`` (ints become floats)."""
    pair = check_tuple(value, path, min_items=2, max_items=2)
    x = check_float(pair[0], f"{path}[0]", minimum=-MAX_MAGNITUDE)
    y = check_float(pair[1], f"{path}[1]", minimum=-MAX_MAGNITUDE)
    return (x, y)


def check_feature_id(value: object, path: str) -> str:
    """A wall id: 1..64 of letters, digits and ``_.:-``."""
    text = check_str(value, path, min_len=1, max_len=64)
    if not _FEATURE_ID.fullmatch(text):
        raise ProtocolError(
            "bad_value", f"ids use letters, digits and _.:- only: {show(text)}", path=path
        )
    return text


@dataclass(frozen=True, slots=True, kw_only=True)
class WallSpec:
    """A wall segment from ``a`` to ``b``.  A window blocks movement but not sight; a door
    (``door`` "open" or "closed") blocks both while closed and neither while open."""

    FIELDS: ClassVar[tuple[str, ...]] = ("id", "a", "b", "blocks_move", "blocks_sight", "door")
    id: str
    a: Point
    b: Point
    blocks_move: bool = True
    blocks_sight: bool = True
    door: str = "none"

    def __post_init__(self) -> None:
        check_feature_id(self.id, "id")
        _set(self, "a", check_point(self.a, "a"))
        _set(self, "b", check_point(self.b, "b"))
        if self.a == self.b:
            raise ProtocolError(
                "bad_value", f"a wall needs two distinct ends, got {self.a} twice", path="b"
            )
        check_bool(self.blocks_move, "blocks_move")
        check_bool(self.blocks_sight, "blocks_sight")
        check_choice(self.door, "door", DOOR_STATES)

    @classmethod
    def from_wire(cls, value: object) -> WallSpec:
        """Read a wall map."""
        return cls(**check_keys(value, cls.FIELDS))

    def to_wire(self) -> dict[str, Any]:
        """The wall as a JSON-safe map."""
        return {
            "id": self.id,
            "a": list(self.a),
            "b": list(self.b),
            "blocks_move": self.blocks_move,
            "blocks_sight": self.blocks_sight,
            "door": self.door,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class TerrainSpec:
    """A polygon of one terrain ``kind`` (3 to 256 vertices, not closed explicitly)."""

    kind: str
    polygon: tuple[Point, ...]

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", TERRAIN_KINDS)
        points = check_tuple(self.polygon, "polygon", min_items=3, max_items=MAX_VERTICES)
        _set(
            self,
            "polygon",
            tuple(check_point(p, f"polygon{index_segment(i)}") for i, p in enumerate(points)),
        )

    @classmethod
    def from_wire(cls, value: object) -> TerrainSpec:
        """Read a terrain map."""
        return cls(**check_keys(value, ("kind", "polygon")))

    def to_wire(self) -> dict[str, Any]:
        """The region as a JSON-safe map."""
        return {"kind": self.kind, "polygon": [list(p) for p in self.polygon]}


VTT_KINDS: Final[frozenset[str]] = frozenset({"foundry", "owlbear"})
#: Shapes of hex tokens larger than one hex: the bridge's own ("hexagon") and Foundry's
#: ``CONST.TOKEN_SHAPES`` (geometry/hexshapes.py says which hexes each covers).
HEX_SHAPES: Final[frozenset[str]] = frozenset(
    {
        "hexagon",
        "ellipse_1",
        "ellipse_2",
        "trapezoid_1",
        "trapezoid_2",
        "rectangle_1",
        "rectangle_2",
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class VttSpec:
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

    kind: str
    grid_size: float
    scene_x: float = 0.0
    scene_y: float = 0.0
    hex_shape: str | None = None

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", VTT_KINDS)
        if self.hex_shape is not None:
            check_choice(self.hex_shape, "hex_shape", HEX_SHAPES)
        for name in ("grid_size", "scene_x", "scene_y"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or value != value
                or value in (float("inf"), float("-inf"))
            ):
                raise ProtocolError(
                    "bad_type", f"expected a finite number, got {show(value)}", path=name
                )
            _set(self, name, float(value))
        if not self.grid_size > 0:
            raise ProtocolError(
                "bad_value", f"grid_size must be positive, got {self.grid_size!r}", path="grid_size"
            )

    @classmethod
    def from_wire(cls, value: object) -> VttSpec:
        """Read a vtt map."""
        return cls(**check_keys(value, ("kind", "grid_size"), ("scene_x", "scene_y", "hex_shape")))

    def to_wire(self) -> dict[str, Any]:
        """The spec as a JSON-safe map."""
        return {
            "kind": self.kind,
            "grid_size": self.grid_size,
            "scene_x": self.scene_x,
            "scene_y": self.scene_y,
            "hex_shape": self.hex_shape,
        }


def read_list(value: object, name: str, limit: int, reader: Any) -> tuple[Any, ...]:
    """Read the list ``name`` of features with ``reader``, paths ``name[i]...``."""
    items = []
    for i, item in enumerate(check_tuple(value, name, max_items=limit)):
        with at(f"{name}{index_segment(i)}"):
            items.append(reader(item))
    return tuple(items)
