"""Client messages every game shares beyond moving: a ruleset action (``act``), a
combatant joining or leaving a running fight, and the GM's effects.

``act`` carries a ruleset's action by name with its ``params`` as a map.  The protocol
checks only the shape (a map of JSON-safe values, bounded in depth and size); what the
action and its params mean belongs to the ruleset, which declares them once, typed, in
its folder (``engine/rulesets/<game>/``), and the bridge checks ``params`` against that
declaration before the engine sees them.  So a new game needs no new message type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from protocol.scene import TokenSpec
from protocol.validate import (
    at,
    check_bool,
    check_id,
    check_int,
    check_keys,
    check_map,
    check_seq,
    check_str,
    json_safe,
)

#: How deep an ``act``'s params may nest (a list of cells is depth 2).
MAX_PARAMS_DEPTH = 6
#: The longest an effect may be set to last, in Turns (Rounds).
MAX_ROUNDS = 10_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Act:
    """``token`` takes the ruleset action ``action`` with ``params`` (a map; its fields
    are the action's, listed per game in the README)."""

    TYPE: ClassVar[str] = "act"
    seq: int
    token: str
    action: str
    # Left out of the hash (a map is not hashable); still compared.
    params: dict[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_id(self.action, "action")
        check_map(self.params, "params")
        object.__setattr__(
            self, "params", json_safe(self.params, "params", max_depth=MAX_PARAMS_DEPTH)
        )

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Act:
        """Read the wire body (``params`` may be left out: no params)."""
        obj = dict(check_keys(body, ("token", "action"), ("params",)))
        obj.setdefault("params", {})
        if obj["params"] is None:
            obj["params"] = {}
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token, "action": self.action, "params": self.params}


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinCombat:
    """GM only: bring a new ``token`` (a scene token spec) into the running fight; it is
    placed on the scene and rolls its place in the order."""

    TYPE: ClassVar[str] = "join_combat"
    seq: int
    token: TokenSpec

    def __post_init__(self) -> None:
        check_seq(self.seq)
        if not isinstance(self.token, TokenSpec):
            with at("token"):
                object.__setattr__(self, "token", TokenSpec.from_wire(self.token))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> JoinCombat:
        """Read the wire body."""
        obj = check_keys(body, ("token",))
        with at("token"):
            token = TokenSpec.from_wire(obj["token"])
        return cls(seq=seq, token=token)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token.to_wire()}


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveCombat:
    """GM only: take ``token`` out of the running fight (``remove``: off the scene too)."""

    TYPE: ClassVar[str] = "leave_combat"
    seq: int
    token: str
    remove: bool = False

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        check_bool(self.remove, "remove")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> LeaveCombat:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token",), ("remove",)))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token, "remove": self.remove}


@dataclass(frozen=True, slots=True, kw_only=True)
class SetEffect:
    """GM only: start an effect ``name`` on ``token`` (null: the scene) lasting
    ``rounds`` Turns (null: until ended); it ends just before the current initiative
    count comes up that many Turns later."""

    TYPE: ClassVar[str] = "set_effect"
    seq: int
    name: str
    token: str | None = None
    rounds: int | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_str(self.name, "name", min_len=1, max_len=64)
        if self.token is not None:
            check_id(self.token, "token")
        if self.rounds is not None:
            check_int(self.rounds, "rounds", lo=1, hi=MAX_ROUNDS)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> SetEffect:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("name",), ("token", "rounds")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"name": self.name, "token": self.token, "rounds": self.rounds}


@dataclass(frozen=True, slots=True, kw_only=True)
class EndEffect:
    """GM only: end the effect ``effect`` (its id, ``e<n>``) now."""

    TYPE: ClassVar[str] = "end_effect"
    seq: int
    effect: str

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.effect, "effect")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> EndEffect:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("effect",)))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"effect": self.effect}


FIGHT_MESSAGES = (Act, JoinCombat, LeaveCombat, SetEffect, EndEffect)
