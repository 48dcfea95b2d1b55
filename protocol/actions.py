"""Client messages that act on the map or in combat beyond a plain move, shared by every
game: doors, conditions, and moves given in the VTT's pixels.

A game's own actions are not here: they travel as ``act`` (:mod:`protocol.fight`),
declared in the game's folder.  Kept apart from :mod:`protocol.messages` so the core
session messages stay short; registered with the others in ``CLIENT_MESSAGE_TYPES``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from protocol.errors import ProtocolError
from protocol.features import check_feature_id, check_point
from protocol.validate import (
    at,
    check_bool,
    check_id,
    check_int,
    check_keys,
    check_seq,
    check_tuple,
    index_segment,
    json_safe,
    show,
)

MAX_AREA = 1024
#: How deep a move's or an answer's ``maneuver`` map may nest.
MAX_OPTION_DEPTH = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class SetDoor:
    """Open or close the door ``wall`` (a wall of the scene whose ``door`` is not "none")."""

    TYPE: ClassVar[str] = "set_door"
    seq: int
    wall: str
    open: bool

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_feature_id(self.wall, "wall")
        check_bool(self.open, "open")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> SetDoor:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("wall", "open")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"wall": self.wall, "open": self.open}


def read_maneuver(value: object, path: str) -> dict[str, Any] | None:
    """An optional ``maneuver``: the ruleset's modifiers for an attack (a map whose
    fields the fight's ruleset declares, e.g. the Hero supplement's ``name``, ``ocv``,
    ``dcv``); the protocol checks only that it is a small JSON-safe map."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ProtocolError("bad_type", f"expected a map, got {show(value)}", path=path)
    copied: dict[str, Any] = json_safe(value, path, max_depth=MAX_OPTION_DEPTH)
    return copied


def check_rolls(value: object) -> tuple[int, ...] | None:
    """Dice the table rolled itself (``None``: the server rolls), each ``1..1000``."""
    if value is None:
        return None
    rolls = check_tuple(value, "rolls", min_items=1, max_items=100)
    for i, roll in enumerate(rolls):
        check_int(roll, f"rolls{index_segment(i)}", lo=1, hi=1000)
    return rolls


#: The optional fields ``move`` and ``move_points`` share.
MOVE_OPTIONS = ("mode", "attack", "maneuver", "rolls")


def check_move_options(obj: object, mode: object, attack: object, maneuver: object) -> None:
    """Check the fields a move may add to its path: its mode (a word of the fight's
    ruleset; null: its default), an attack at the end, its manoeuvre map."""
    if mode is not None:
        check_id(mode, "mode")
    if attack is not None:
        check_id(attack, "attack")
    object.__setattr__(obj, "maneuver", read_maneuver(maneuver, "maneuver"))


def read_move_body(body: object, path_field: str) -> dict[str, Any]:
    """A move body's fields: ``token``, the path under ``path_field``, and the options."""
    return dict(check_keys(body, ("token", path_field), MOVE_OPTIONS))


def move_options_wire(
    mode: str | None,
    attack: str | None,
    maneuver: dict[str, Any] | None,
    rolls: tuple[int, ...] | None,
) -> dict[str, Any]:
    """The move options as wire fields (``rolls`` only when given, so older servers read
    the rest)."""
    wire: dict[str, Any] = {"mode": mode, "attack": attack, "maneuver": maneuver}
    if rolls is not None:
        wire["rolls"] = list(rolls)
    return wire


@dataclass(frozen=True, slots=True, kw_only=True)
class SetCondition:
    """GM only: set or clear a ``condition`` on ``token`` (a word of the fight's ruleset;
    the engine refuses one it does not know)."""

    TYPE: ClassVar[str] = "set_condition"
    seq: int
    token: str
    condition: str
    on: bool

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_id(self.condition, "condition")
        check_bool(self.on, "on")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> SetCondition:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token", "condition", "on")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token, "condition": self.condition, "on": self.on}


@dataclass(frozen=True, slots=True, kw_only=True)
class MovePoints:
    """Move ``token`` through waypoints given in the VTT's own pixels (the scene's
    ``grid.vtt``): Foundry token-document ``x``/``y``, or Owlbear item centres.  The
    server snaps each to a cell and walks the straight line between; then it is a
    ``move`` like any other (``mode``, ``attack``, ``maneuver``, ``rolls``)."""

    TYPE: ClassVar[str] = "move_points"
    seq: int
    token: str
    points: tuple[tuple[float, float], ...]
    mode: str | None = None
    attack: str | None = None
    maneuver: dict[str, Any] | None = field(default=None, hash=False)
    rolls: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        points = check_tuple(self.points, "points", min_items=1, max_items=MAX_AREA)
        object.__setattr__(
            self, "points", tuple(check_point(p, f"points[{i}]") for i, p in enumerate(points))
        )
        check_move_options(self, self.mode, self.attack, self.maneuver)
        object.__setattr__(self, "rolls", check_rolls(self.rolls))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> MovePoints:
        """Read the wire body."""
        return cls(seq=seq, **read_move_body(body, "points"))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "token": self.token,
            "points": [list(p) for p in self.points],
            **move_options_wire(self.mode, self.attack, self.maneuver, self.rolls),
        }


ACTION_MESSAGES = (MovePoints, SetDoor, SetCondition)

__all__ = [
    "ACTION_MESSAGES",
    "MAX_AREA",
    "MOVE_OPTIONS",
    "MovePoints",
    "SetCondition",
    "SetDoor",
    "at",
    "check_move_options",
    "check_rolls",
    "move_options_wire",
    "read_maneuver",
    "read_move_body",
]
