"""Questions a client may ask without changing anything, and their answers.

``ask_options`` -> ``options``: what may this token do now?  The answer lists the
actions the rules allow and, for the others, the rule that forbids each, so a VTT can
grey out a button with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from protocol.errors import ProtocolError
from protocol.token_message import TokenMessage
from protocol.validate import (
    SEQ_MAX,
    check_bool,
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

MAX_LISTED = 64


@dataclass(frozen=True, slots=True, kw_only=True)
class AskOptions(TokenMessage):
    """Ask what ``token`` may do now; answered with ``options`` (``ref`` = this seq)."""

    TYPE: ClassVar[str] = "ask_options"


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """The answer to ``ask_options`` ``ref``: whether ``token`` may act now (else
    ``reason``), how far it may still move, the ``available`` actions, the ``refused``
    ones as ``[action, reason]`` pairs, and the prompts waiting on the asker."""

    TYPE: ClassVar[str] = "options"
    seq: int
    ref: int
    token: str
    can_act: bool
    reason: str | None
    movement_left: float
    available: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]
    prompts: tuple[str, ...]

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_id(self.token, "token")
        check_bool(self.can_act, "can_act")
        if self.reason is not None:
            check_str(self.reason, "reason", max_len=1024)
        object.__setattr__(
            self, "movement_left", check_float(self.movement_left, "movement_left", minimum=0)
        )
        names = check_tuple(self.available, "available", max_items=MAX_LISTED)
        for i, name in enumerate(names):
            check_str(name, f"available{index_segment(i)}", min_len=1, max_len=64)
        pairs = []
        for i, pair in enumerate(check_tuple(self.refused, "refused", max_items=MAX_LISTED)):
            where = f"refused{index_segment(i)}"
            items = check_tuple(pair, where, min_items=2, max_items=2)
            pairs.append(
                (
                    check_str(items[0], f"{where}[0]", min_len=1, max_len=64),
                    check_str(items[1], f"{where}[1]", max_len=1024),
                )
            )
        prompts = check_tuple(self.prompts, "prompts", max_items=MAX_LISTED)
        for i, prompt in enumerate(prompts):
            if not isinstance(prompt, str):
                raise ProtocolError(
                    "bad_type", f"expected a prompt id, got {show(prompt)}", path=f"prompts[{i}]"
                )
        object.__setattr__(self, "available", names)
        object.__setattr__(self, "refused", tuple(pairs))
        object.__setattr__(self, "prompts", prompts)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Options:
        """Read the wire body."""
        fields = (
            "ref",
            "token",
            "can_act",
            "reason",
            "movement_left",
            "available",
            "refused",
            "prompts",
        )
        return cls(seq=seq, **check_keys(body, fields))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "ref": self.ref,
            "token": self.token,
            "can_act": self.can_act,
            "reason": self.reason,
            "movement_left": self.movement_left,
            "available": list(self.available),
            "refused": [list(pair) for pair in self.refused],
            "prompts": list(self.prompts),
        }


def _cell(value: object, path: str) -> tuple[int, int]:
    pair = check_tuple(value, path, min_items=2, max_items=2)
    return (check_int(pair[0], f"{path}[0]"), check_int(pair[1], f"{path}[1]"))


@dataclass(frozen=True, slots=True, kw_only=True)
class AskPath:
    """Ask for the cheapest path for ``token`` to cell ``to``; answered with ``path_plan``."""

    TYPE: ClassVar[str] = "ask_path"
    seq: int
    token: str
    to: tuple[int, int]

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        object.__setattr__(self, "to", _cell(self.to, "to"))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> AskPath:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token", "to")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token, "to": list(self.to)}


@dataclass(frozen=True, slots=True, kw_only=True)
class PathPlan:
    """The answer to ``ask_path`` ``ref``: the cheapest ``path`` (cells after the token's
    own, empty when there is none, then ``reason`` says why) and its ``cost``, within
    ``budget`` (the movement the token has left now; null: no limit)."""

    TYPE: ClassVar[str] = "path_plan"
    seq: int
    ref: int
    token: str
    to: tuple[int, int]
    path: tuple[tuple[int, int], ...]
    cost: float
    budget: float | None
    reason: str | None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_id(self.token, "token")
        object.__setattr__(self, "to", _cell(self.to, "to"))
        cells = check_tuple(self.path, "path", max_items=100_000)
        object.__setattr__(
            self, "path", tuple(_cell(c, f"path{index_segment(i)}") for i, c in enumerate(cells))
        )
        object.__setattr__(self, "cost", check_float(self.cost, "cost", minimum=0))
        if self.budget is not None:
            object.__setattr__(self, "budget", check_float(self.budget, "budget", minimum=0))
        if self.reason is not None:
            check_str(self.reason, "reason", max_len=1024)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> PathPlan:
        """Read the wire body."""
        return cls(
            seq=seq, **check_keys(body, ("ref", "token", "to", "path", "cost", "budget", "reason"))
        )

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "ref": self.ref,
            "token": self.token,
            "to": list(self.to),
            "path": [list(c) for c in self.path],
            "cost": self.cost,
            "budget": self.budget,
            "reason": self.reason,
        }
