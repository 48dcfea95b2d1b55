"""Client messages every game shares beyond moving: the GM's scene edits.

A ruleset's action (``act``), joining and leaving a fight and the GM's effects are
declared once as engine commands (``engine/commands.py``), their wire structs derived
from them (:mod:`protocol.commands`).
``act`` carries a ruleset's action by name with its ``params`` as a map: the wire checks
only the shape (a map of JSON-safe values, bounded in depth and size); what the action
and its params mean belongs to the ruleset, which declares them once, typed, in its
folder (``engine/rulesets/<game>/``), and the bridge checks ``params`` against that
declaration before the engine sees them.  So a new game needs no new message type.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from protocol.features import MAX_TERRAIN, MAX_WALLS, TerrainSpec, WallSpec
from protocol.scene import check_unique
from protocol.wire import ClientWire


class EditScene(ClientWire, frozen=True, kw_only=True):
    """GM only: replace the scene's ``walls`` and/or its ``terrain`` (absent or null:
    kept), during a fight or between fights; the grid and the tokens stay.  Walls are
    as ``load_scene``'s (unique ids), each point on the scene.  Refused while a prompt is
    open or a move is under way (priced through the old walls)."""

    TYPE = "edit_scene"
    LATER = ("walls", "terrain")
    walls: Annotated[tuple[WallSpec, ...], Meta(max_length=MAX_WALLS)] | None = None
    terrain: Annotated[tuple[TerrainSpec, ...], Meta(max_length=MAX_TERRAIN)] | None = None

    def check(self) -> None:
        """Unique wall ids."""
        check_unique([wall.id for wall in self.walls or ()], "wall id", "walls[{}].id")
