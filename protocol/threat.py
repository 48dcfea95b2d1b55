"""``ask_threat`` -> ``threat``: which cells does a token threaten, and how far does it
reach?  A query like ``ask_options``: it changes nothing, and any member (spectators
too) may ask about any token, because the answer follows from what every member
already holds (the scene and the fight's events).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from protocol.features import Point, check_point
from protocol.token_message import TokenMessage
from protocol.validate import (
    MAX_ARRAY_LEN,
    SEQ_MAX,
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
