"""Client messages that act on the map or in combat beyond a plain move.

Kept apart from :mod:`protocol.messages` so the core session messages stay short;
they are registered with the others in ``CLIENT_MESSAGE_TYPES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from protocol.errors import ProtocolError
from protocol.features import check_feature_id, check_point
from protocol.token_message import TokenMessage
from protocol.validate import (
    at,
    check_bool,
    check_choice,
    check_float,
    check_id,
    check_int,
    check_keys,
    check_seq,
    check_str,
    check_tuple,
    index_segment,
    show,
)


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


MOVE_MODES = ("combat", "step", "withdraw", "noncombat", "crawl", "hampered")
HOLD_ACTIONS = ("attack", "move", "free")
CONDITIONS = (
    "stunned",
    "underwater",
    "prone",
    "cannot_act",
    "darkness",
    "invisible",
    "no_recovery",
)
#: Largest manoeuvre modifier and combat-level bonus accepted (Hero values are single digits).
MAX_MODIFIER = 50
MAX_AREA = 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class ManeuverSpec:
    """A combat manoeuvre as the table names it: OCV and DCV modifiers (seed 000 leaves
    the list of manoeuvres to the game)."""

    name: str
    ocv: int = 0
    dcv: int = 0

    def __post_init__(self) -> None:
        check_str(self.name, "name", min_len=1, max_len=64)
        check_int(self.ocv, "ocv", lo=-MAX_MODIFIER, hi=MAX_MODIFIER)
        check_int(self.dcv, "dcv", lo=-MAX_MODIFIER, hi=MAX_MODIFIER)

    @classmethod
    def from_wire(cls, value: object) -> ManeuverSpec:
        """Read a manoeuvre map."""
        return cls(**check_keys(value, ("name",), ("ocv", "dcv")))

    def to_wire(self) -> dict[str, Any]:
        """The manoeuvre as a JSON-safe map."""
        return {"name": self.name, "ocv": self.ocv, "dcv": self.dcv}


def read_maneuver(value: object, path: str) -> ManeuverSpec | None:
    """An optional manoeuvre field."""
    if value is None:
        return None
    with at(path):
        return ManeuverSpec.from_wire(value)


def check_maneuver(value: object, path: str) -> None:
    """Refuse anything but a ManeuverSpec or None."""
    if value is not None and not isinstance(value, ManeuverSpec):
        raise ProtocolError("bad_type", f"expected a manoeuvre, got {show(value)}", path=path)


def _wire(maneuver: ManeuverSpec | None) -> dict[str, Any] | None:
    return None if maneuver is None else maneuver.to_wire()


def _optional_id(value: object, path: str) -> str | None:
    return None if value is None else check_id(value, path)


#: The optional fields ``move`` and ``move_points`` share.
MOVE_OPTIONS = ("mode", "attack", "maneuver", "rolls")


def check_move_options(mode: object, attack: object, maneuver: object) -> None:
    """Check the fields a move may add to its path: its mode, an attack, its manoeuvre.

    ``mode`` is checked for shape only (a word, or None for the ruleset's first): which
    modes exist is the ruleset's vocabulary, and the engine refuses one it lacks."""
    if mode is not None:
        check_id(mode, "mode")
    _optional_id(attack, "attack")
    check_maneuver(maneuver, "maneuver")


def check_rolls(value: object) -> tuple[int, ...] | None:
    """Dice the table rolled itself (``None``: the server rolls), each ``1..1000``."""
    if value is None:
        return None
    rolls = check_tuple(value, "rolls", min_items=1, max_items=100)
    for i, roll in enumerate(rolls):
        check_int(roll, f"rolls{index_segment(i)}", lo=1, hi=1000)
    return rolls


def read_move_body(body: object, path_field: str) -> dict[str, Any]:
    """A move body's fields: ``token``, the path under ``path_field``, and the options."""
    obj = dict(check_keys(body, ("token", path_field), MOVE_OPTIONS))
    obj["maneuver"] = read_maneuver(obj.get("maneuver"), "maneuver")
    return obj


def move_options_wire(
    mode: str | None,
    attack: str | None,
    maneuver: ManeuverSpec | None,
    rolls: tuple[int, ...] | None,
) -> dict[str, Any]:
    """The move options as wire fields (``rolls`` only when given, so older servers read
    the rest)."""
    wire: dict[str, Any] = {"mode": mode, "attack": attack, "maneuver": _wire(maneuver)}
    if rolls is not None:
        wire["rolls"] = list(rolls)
    return wire


@dataclass(frozen=True, slots=True, kw_only=True)
class Attack:
    """``token`` makes an attack action against ``target``: melee (within reach), or
    ``ranged`` within ``range`` distance units and in line of sight.  ``ocv_bonus`` adds
    combat levels and the like; ``rolls`` are the table's own 3d6 (GM only)."""

    TYPE: ClassVar[str] = "attack"
    seq: int
    token: str
    target: str
    ranged: bool = False
    range: float = 0.0
    maneuver: ManeuverSpec | None = None
    ocv_bonus: int = 0
    rolls: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_id(self.target, "target")
        check_bool(self.ranged, "ranged")
        object.__setattr__(self, "range", check_float(self.range, "range", minimum=0))
        check_maneuver(self.maneuver, "maneuver")
        check_int(self.ocv_bonus, "ocv_bonus", lo=-MAX_MODIFIER, hi=MAX_MODIFIER)
        object.__setattr__(self, "rolls", check_rolls(self.rolls))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Attack:
        """Read the wire body."""
        obj = dict(
            check_keys(
                body, ("token", "target"), ("ranged", "range", "maneuver", "ocv_bonus", "rolls")
            )
        )
        obj["maneuver"] = read_maneuver(obj.get("maneuver"), "maneuver")
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "token": self.token,
            "target": self.target,
            "ranged": self.ranged,
            "range": self.range,
            "maneuver": _wire(self.maneuver),
            "ocv_bonus": self.ocv_bonus,
            "rolls": None if self.rolls is None else list(self.rolls),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeAction:
    """A named action: ``draw_focus``, ``stow_focus``, ``stand_up``, ``drop_item``,
    ``drop_prone``, ``start_full_phase`` / ``complete_full_phase`` (``detail`` names it),
    ``full_phase``, or ``defend`` with a ``maneuver``."""

    TYPE: ClassVar[str] = "take_action"
    seq: int
    token: str
    action: str
    detail: str | None = None
    maneuver: ManeuverSpec | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_str(self.action, "action", min_len=1, max_len=64)
        if self.detail is not None:
            check_str(self.detail, "detail", min_len=1, max_len=128)
        check_maneuver(self.maneuver, "maneuver")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> TakeAction:
        """Read the wire body."""
        obj = dict(check_keys(body, ("token", "action"), ("detail", "maneuver")))
        obj["maneuver"] = read_maneuver(obj.get("maneuver"), "maneuver")
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "token": self.token,
            "action": self.action,
            "detail": self.detail,
            "maneuver": _wire(self.maneuver),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Delay:
    """``token`` delays: no action on its INIT; act later, or just ``before`` someone."""

    TYPE: ClassVar[str] = "delay"
    seq: int
    token: str
    before: str | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        _optional_id(self.before, "before")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Delay:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token",), ("before",)))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token, "before": self.before}


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeDelayed(TokenMessage):
    """``token`` takes its delayed action now, before whoever is up and has not acted."""

    TYPE: ClassVar[str] = "take_delayed"


@dataclass(frozen=True, slots=True, kw_only=True)
class Ready:
    """``token`` readies an ``action`` (``attack``, ``move``, ``free``) for a trigger:
    ``trigger_by``'s action, or a token (``trigger_by``, or anyone) entering ``area``."""

    TYPE: ClassVar[str] = "ready"
    seq: int
    token: str
    action: str
    trigger_by: str | None = None
    area: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_choice(self.action, "action", HOLD_ACTIONS)
        _optional_id(self.trigger_by, "trigger_by")
        cells = []
        for i, item in enumerate(check_tuple(self.area, "area", max_items=MAX_AREA)):
            pair = check_tuple(item, f"area{index_segment(i)}", min_items=2, max_items=2)
            cells.append((check_int(pair[0], f"area[{i}][0]"), check_int(pair[1], f"area[{i}][1]")))
        object.__setattr__(self, "area", tuple(cells))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Ready:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token", "action"), ("trigger_by", "area")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "token": self.token,
            "action": self.action,
            "trigger_by": self.trigger_by,
            "area": [[x, y] for x, y in self.area],
        }


ABORT_ACTIONS: Final = ("defend", "move")


@dataclass(frozen=True, slots=True, kw_only=True)
class Abort:
    """``token`` aborts out of turn to a defensive action, giving up its next action:
    ``action`` ``"defend"`` (the default) holds the defensive ``maneuver``; ``"move"``
    takes a move action at once (``maneuver`` null)."""

    TYPE: ClassVar[str] = "abort"
    seq: int
    token: str
    maneuver: ManeuverSpec | None
    action: str = "defend"

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_str(self.action, "action", min_len=1, max_len=32)
        if self.action not in ABORT_ACTIONS:
            raise ProtocolError(
                "bad_value", f"abort to one of {list(ABORT_ACTIONS)}, not {self.action!r}",
                path="action",
            )  # fmt: skip
        if self.action == "move":
            if self.maneuver is not None:
                raise ProtocolError(
                    "bad_value", "an abort to a move action names no manoeuvre", path="maneuver"
                )
        elif not isinstance(self.maneuver, ManeuverSpec):
            raise ProtocolError(
                "bad_type", f"expected a manoeuvre, got {show(self.maneuver)}", path="maneuver"
            )

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Abort:
        """Read the wire body."""
        obj = dict(check_keys(body, ("token", "maneuver"), ("action",)))
        if obj["maneuver"] is not None:
            with at("maneuver"):
                obj["maneuver"] = ManeuverSpec.from_wire(obj["maneuver"])
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body (``action`` only for a move, so older servers read the rest)."""
        maneuver = None if self.maneuver is None else self.maneuver.to_wire()
        body: dict[str, Any] = {"token": self.token, "maneuver": maneuver}
        if self.action != "defend":
            body["action"] = self.action
        return body


@dataclass(frozen=True, slots=True, kw_only=True)
class SetCondition:
    """GM only: set or clear a ``condition`` on ``token`` (``CONDITIONS``)."""

    TYPE: ClassVar[str] = "set_condition"
    seq: int
    token: str
    condition: str
    on: bool

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_choice(self.condition, "condition", CONDITIONS)
        check_bool(self.on, "on")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> SetCondition:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token", "condition", "on")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token, "condition": self.condition, "on": self.on}


@dataclass(frozen=True, slots=True, kw_only=True)
class SetVitals:
    """GM only: ``token``'s current END and STUN (damage and spending are the table's)."""

    TYPE: ClassVar[str] = "set_vitals"
    seq: int
    token: str
    end: int
    stun: int

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_int(self.end, "end", lo=0, hi=1_000_000)
        check_int(self.stun, "stun", lo=-1_000_000, hi=1_000_000)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> SetVitals:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token", "end", "stun")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token, "end": self.end, "stun": self.stun}


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
    maneuver: ManeuverSpec | None = None
    rolls: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        points = check_tuple(self.points, "points", min_items=1, max_items=MAX_AREA)
        object.__setattr__(
            self, "points", tuple(check_point(p, f"points[{i}]") for i, p in enumerate(points))
        )
        check_move_options(self.mode, self.attack, self.maneuver)
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


ACTION_MESSAGES = (
    MovePoints,
    SetDoor,
    Attack,
    TakeAction,
    Delay,
    TakeDelayed,
    Ready,
    Abort,
    SetCondition,
    SetVitals,
)
