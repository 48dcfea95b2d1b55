"""``ask_threat`` -> ``threat``: which cells does a token threaten, and how far does it
reach?  ``ask_exits`` -> ``exits``: where would a move along this path be stopped?
Queries like ``ask_options``: they change nothing, and any member (spectators too) may
ask about any token, because the answers follow from what every member already holds
(the scene and the fight's events).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from protocol.errors import ProtocolError
from protocol.features import Point, check_point
from protocol.token_message import TokenMessage
from protocol.validate import (
    MAX_ARRAY_LEN,
    SEQ_MAX,
    at,
    check_choice,
    check_id,
    check_int,
    check_keys,
    check_seq,
    check_str,
    check_tuple,
    index_segment,
)

#: Rings in one outline (a reach area split by walls has a few; holes add more).
MAX_RINGS: Final = 256
#: The most steps a path may have: a ``move``'s (``protocol.messages.MAX_PATH``).
MAX_PATH: Final = 1000
#: What stops a move there: the prompt it opens.
EXIT_KINDS: Final = frozenset({"attack_of_opportunity", "readied_action"})


@dataclass(frozen=True, slots=True, kw_only=True)
class AskThreat(TokenMessage):
    """Ask which cells ``token`` threatens and its reach area; answered with ``threat``
    (``ref`` = this seq)."""

    TYPE: ClassVar[str] = "ask_threat"


def _cell(value: object, path: str) -> tuple[int, int]:
    pair = check_tuple(value, path, min_items=2, max_items=2)
    return (check_int(pair[0], f"{path}[0]"), check_int(pair[1], f"{path}[1]"))


def _ids(value: object, path: str) -> tuple[str, ...]:
    items = check_tuple(value, path, max_items=MAX_ARRAY_LEN)
    return tuple(check_id(item, f"{path}{index_segment(i)}") for i, item in enumerate(items))


@dataclass(frozen=True, slots=True, kw_only=True)
class Threat:
    """The answer to ``ask_threat`` ``ref``: the ``cells`` ``token`` threatens now (sorted
    ``[column, row]``; empty when the rules say it threatens nobody, then ``reason``
    says why), the ``foes`` it threatens under the fight's ruleset and those it still
    has an attack of opportunity against (``attacks``), and the ``outline`` of its reach
    area (its footprint and every cell within melee reach, walls respected) as rings of
    ``[x, y]`` points in the scene's distance units, the units of walls, terrain and
    exit points (fill them even-odd: a ring inside another is a hole)."""

    TYPE: ClassVar[str] = "threat"
    seq: int
    ref: int
    token: str
    cells: tuple[tuple[int, int], ...]
    outline: tuple[tuple[Point, ...], ...]
    foes: tuple[str, ...]
    attacks: tuple[str, ...]
    reason: str | None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_id(self.token, "token")
        cells = check_tuple(self.cells, "cells", max_items=MAX_ARRAY_LEN)
        object.__setattr__(
            self, "cells", tuple(_cell(c, f"cells{index_segment(i)}") for i, c in enumerate(cells))
        )
        rings = []
        for i, ring in enumerate(check_tuple(self.outline, "outline", max_items=MAX_RINGS)):
            where = f"outline{index_segment(i)}"
            points = check_tuple(ring, where, min_items=3, max_items=MAX_ARRAY_LEN)
            rings.append(
                tuple(check_point(p, f"{where}{index_segment(j)}") for j, p in enumerate(points))
            )
        object.__setattr__(self, "outline", tuple(rings))
        object.__setattr__(self, "foes", _ids(self.foes, "foes"))
        object.__setattr__(self, "attacks", _ids(self.attacks, "attacks"))
        if self.reason is not None:
            check_str(self.reason, "reason", max_len=1024)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Threat:
        """Read the wire body."""
        fields = ("ref", "token", "cells", "outline", "foes", "attacks", "reason")
        return cls(seq=seq, **check_keys(body, fields))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "ref": self.ref,
            "token": self.token,
            "cells": [list(c) for c in self.cells],
            "outline": [[list(p) for p in ring] for ring in self.outline],
            "foes": list(self.foes),
            "attacks": list(self.attacks),
            "reason": self.reason,
        }


def _path(value: object, path: str) -> tuple[tuple[int, int], ...]:
    cells = check_tuple(value, path, min_items=1, max_items=MAX_PATH)
    return tuple(_cell(c, f"{path}{index_segment(i)}") for i, c in enumerate(cells))


@dataclass(frozen=True, slots=True, kw_only=True)
class AskExits:
    """Ask where a move of ``token`` along ``path`` (the cells after its own, as a
    ``move`` sends them) in ``mode`` (null: the ruleset's first) would be stopped;
    answered with ``exits``."""

    TYPE: ClassVar[str] = "ask_exits"
    seq: int
    token: str
    path: tuple[tuple[int, int], ...]
    mode: str | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        object.__setattr__(self, "path", _path(self.path, "path"))
        if self.mode is not None:
            check_str(self.mode, "mode", min_len=1, max_len=64)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> AskExits:
        """Read the wire body (``mode`` may be left out)."""
        return cls(seq=seq, **check_keys(body, ("token", "path"), ("mode",)))

    def to_body(self) -> dict[str, Any]:
        """The wire body (``mode`` only when given)."""
        body: dict[str, Any] = {"token": self.token, "path": [list(c) for c in self.path]}
        if self.mode is not None:
            body["mode"] = self.mode
        return body


@dataclass(frozen=True, slots=True)
class PathExit:
    """One place a move would be stopped: the prompt ``kind`` it opens, ``by`` whom, at
    ``step`` (0: the first), standing on ``at``, about to cross ``point``."""

    kind: str
    by: str
    step: int
    at: tuple[int, int]
    point: Point

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", EXIT_KINDS)
        check_id(self.by, "by")
        check_int(self.step, "step", lo=0, hi=MAX_PATH)
        object.__setattr__(self, "at", _cell(self.at, "at"))
        object.__setattr__(self, "point", check_point(self.point, "point"))

    @classmethod
    def from_wire(cls, value: object) -> PathExit:
        """Read one exit map."""
        return cls(**check_keys(value, ("kind", "by", "step", "at", "point")))

    def to_wire(self) -> dict[str, Any]:
        """The exit as a JSON-safe map."""
        return {
            "kind": self.kind,
            "by": self.by,
            "step": self.step,
            "at": list(self.at),
            "point": list(self.point),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Exits:
    """The answer to ``ask_exits`` ``ref``: every place the move would be stopped, in
    path order (``exits``; each creature once), and ``reason`` when none can be (no
    fight).  ``point`` is in scene units, where the path leaves the threatened square
    (``move_interrupted``'s ``exit_point`` when the move is made)."""

    TYPE: ClassVar[str] = "exits"
    seq: int
    ref: int
    token: str
    exits: tuple[PathExit, ...]
    reason: str | None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_id(self.token, "token")
        items = check_tuple(self.exits, "exits", max_items=MAX_ARRAY_LEN)
        for i, item in enumerate(items):
            if not isinstance(item, PathExit):
                raise ProtocolError("bad_type", "expected a PathExit", path=f"exits[{i}]")
        object.__setattr__(self, "exits", items)
        if self.reason is not None:
            check_str(self.reason, "reason", max_len=1024)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Exits:
        """Read the wire body."""
        obj = dict(check_keys(body, ("ref", "token", "exits", "reason")))
        items = check_tuple(obj["exits"], "exits", max_items=MAX_ARRAY_LEN)
        exits = []
        for i, item in enumerate(items):
            with at(f"exits{index_segment(i)}"):
                exits.append(PathExit.from_wire(item))
        obj["exits"] = tuple(exits)
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "ref": self.ref,
            "token": self.token,
            "exits": [e.to_wire() for e in self.exits],
            "reason": self.reason,
        }
