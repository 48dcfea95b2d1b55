"""Map features a scene carries besides its tokens: walls and doors, terrain, and how
the client's VTT places things on the grid.

Coordinates are points in the scene's distance unit (a 1 m grid's cell (3, 4) spans
x 3..4, y 4..5), finite and within the grid's bounds (the scene checks the bounds).
The shapes are declared once, as the engine's dataclasses, and written into
:mod:`protocol.commands`; here are their words and bounds, read off those structs.
"""

from __future__ import annotations

from typing import Final

from protocol.commands import SceneSpec, TerrainSpec, VttSpec, WallSpec
from protocol.scene import bound, words

#: Most walls and most terrain regions in one scene, and vertices of one polygon.
MAX_WALLS: Final[int] = bound(SceneSpec, "walls")
MAX_TERRAIN: Final[int] = bound(SceneSpec, "terrain")
MAX_VERTICES: Final[int] = bound(TerrainSpec, "polygon")
DOOR_STATES: Final = words(WallSpec, "door")
TERRAIN_KINDS: Final = words(TerrainSpec, "kind")
HEX_SHAPES: Final = words(VttSpec, "hex_shape")

__all__ = [
    "DOOR_STATES",
    "HEX_SHAPES",
    "MAX_TERRAIN",
    "MAX_VERTICES",
    "MAX_WALLS",
    "TERRAIN_KINDS",
    "TerrainSpec",
    "VttSpec",
    "WallSpec",
]
