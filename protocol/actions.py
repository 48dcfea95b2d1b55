"""Client messages that move beyond a plain move, shared by every game: moves given in
the VTT's pixels, and the fields every kind of move shares.  (Doors and conditions are
declared once as engine commands, ``engine/commands.py``; the bridge derives their wire
structs.)

A game's own actions are not here: they travel as ``act`` (:mod:`protocol.fight`),
declared in the game's folder.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Final

from msgspec import Meta

from protocol.errors import ProtocolError
from protocol.validate import json_safe
from protocol.wire import ClientWire, Float, Point, Positive, Rolls, TokenId, Wire

MAX_AREA: Final = 1024
#: How deep a move's or an answer's ``maneuver`` map may nest.
MAX_OPTION_DEPTH: Final = 3


def check_maneuver(maneuver: dict[str, Any] | None) -> None:
    """A ``maneuver``: the ruleset's modifiers for an attack (a map whose fields the
    fight's ruleset declares, e.g. the Hero supplement's ``name``, ``ocv``, ``dcv``);
    the protocol checks only that it is a small JSON-safe map."""
    if maneuver is not None:
        json_safe(maneuver, "maneuver", max_depth=MAX_OPTION_DEPTH)


class MoveOptions(ClientWire, frozen=True, kw_only=True):
    """What any move may add to its path: its ``mode`` (a word of the fight's ruleset;
    null: its default), an ``attack`` at the end, that attack's ``maneuver`` map, and
    ``rolls``, the table's own dice for it."""

    LATER: ClassVar[tuple[str, ...]] = ("mode", "attack", "maneuver", "rolls")
    UNHASHED = ("maneuver",)
    token: TokenId
    mode: TokenId | None = None
    attack: TokenId | None = None
    maneuver: dict[str, Any] | None = None
    rolls: Rolls | None = None

    def check(self) -> None:
        """The manoeuvre map nests at most :data:`MAX_OPTION_DEPTH` deep."""
        check_maneuver(self.maneuver)


class ImageGrid(Wire, frozen=True, kw_only=True):
    """An Owlbear image item's own grid (SDK ``Image.grid``: ``offset`` in image pixels,
    ``dpi`` image pixels per cell) and the item's ``scale``: the item's ``position`` is
    where the image's offset lies."""

    LATER = ("scale",)
    offset: Point
    dpi: Positive
    scale: tuple[Positive, Positive] = (1.0, 1.0)


class MovePoints(MoveOptions, frozen=True, kw_only=True):
    """Move ``token`` through waypoints given in the VTT's own pixels (the scene's
    ``grid.vtt``): Foundry token-document ``x``/``y``, or Owlbear item positions (the
    item's centre, or where its ``image`` grid's offset lies when ``image`` is given).
    The server snaps each to a cell and walks the straight line between as the VTT does
    (Foundry's direct path on a Foundry scene); on a gridless scene it snaps nothing:
    each becomes a waypoint in scene units (a Foundry document's corner plus half the
    token's width; an Owlbear position as it is).  Then it is a ``move`` like any other
    (``mode``, ``attack``, ``maneuver``, ``rolls``).  ``elevations`` (optional) is the
    height of the token's base at each point (Foundry's waypoint elevations): a flight,
    as ``move``'s is."""

    TYPE = "move_points"
    LATER = (*MoveOptions.LATER, "image", "elevations")
    points: Annotated[tuple[Point, ...], Meta(min_length=1, max_length=MAX_AREA)]
    image: ImageGrid | None = None
    elevations: Annotated[tuple[Float, ...], Meta(max_length=MAX_AREA)] | None = None

    def check(self) -> None:
        """One elevation per point, when there are any."""
        super().check()
        if self.elevations is not None and len(self.elevations) != len(self.points):
            raise ProtocolError(
                "bad_value",
                f"{len(self.elevations)} elevations for {len(self.points)} points: one each",
                path="elevations",
            )
