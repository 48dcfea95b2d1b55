"""Client -> server messages.

Each is a frozen dataclass whose ``TYPE`` is its wire ``type`` and whose
``__post_init__`` checks every field, so a bad message cannot be built in Python
either. ``from_body`` reads the wire ``body`` map (errors carry paths relative to
the body; the codec adds ``body.``) and ``to_body`` writes it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, TypeAlias

from protocol.actions import (
    ACTION_MESSAGES,
    MovePoints,
    SetCondition,
    SetDoor,
    check_move_options,
    check_rolls,
    move_options_wire,
    read_maneuver,
    read_move_body,
)
from protocol.admin import ConfigureTable, IssueToken, ListTokens, RevokeToken
from protocol.errors import ProtocolError
from protocol.fight import FIGHT_MESSAGES, Act, EndEffect, JoinCombat, LeaveCombat, SetEffect
from protocol.queries import AskOptions, AskPath
from protocol.scene import MAX_TOKENS, SceneSpec
from protocol.threat import AskExits, AskThreat
from protocol.token_message import TokenMessage
from protocol.validate import (
    INT_MAX,
    INT_MIN,
    SEQ_MAX,
    at,
    check_bool,
    check_id,
    check_int,
    check_keys,
    check_seq,
    check_str,
    check_tuple,
    index_segment,
    show,
)

__all__ = [
    "CLIENT_MESSAGE_TYPES",
    "Act",
    "AnswerPrompt",
    "ClientMessage",
    "EndEffect",
    "EndPhase",
    "Join",
    "JoinCombat",
    "LeaveCombat",
    "LoadScene",
    "Move",
    "Ping",
    "Resync",
    "SetEffect",
    "StartCombat",
]

MAX_PATH: Final = 1000
MAX_ROLLS: Final = 100
MAX_GROUPS: Final = 256


def _set(obj: object, name: str, value: object) -> None:
    # Frozen dataclasses normalise their own fields (list -> tuple) here.
    object.__setattr__(obj, name, value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Join:
    """Join a table with a join ``token``. ``last_event`` is the last event index the
    client already holds (-1 for none) so the server can send just the rest; ``None``
    asks for the full state. ``client`` (optional) is a stable id the client keeps across
    reconnects: a command it retransmits with the same ``seq`` gets its original result
    and is not applied twice.  ``batch`` (optional) lets the server put several messages
    in one frame, an array of envelopes (see :func:`protocol.decode_server_frame`)."""

    TYPE: ClassVar[str] = "join"
    seq: int
    token: str
    last_event: int | None = None
    client: str | None = None
    batch: bool = False

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_str(self.token, "token", min_len=1, max_len=128)
        if self.last_event is not None:
            check_int(self.last_event, "last_event", lo=-1, hi=SEQ_MAX)
        if self.client is not None:
            check_str(self.client, "client", min_len=1, max_len=64)
        check_bool(self.batch, "batch")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Join:
        """Read the wire body."""
        obj = check_keys(body, ("token", "last_event"), optional=("client", "batch"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        body: dict[str, Any] = {"token": self.token, "last_event": self.last_event}
        if self.client is not None:
            body["client"] = self.client
        if self.batch:
            body["batch"] = True
        return body


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadScene:
    """Replace the table's scene (grid and tokens) before or between combats."""

    TYPE: ClassVar[str] = "load_scene"
    seq: int
    scene: SceneSpec

    def __post_init__(self) -> None:
        check_seq(self.seq)
        if not isinstance(self.scene, SceneSpec):
            raise ProtocolError(
                "bad_type", f"expected a SceneSpec, got {show(self.scene)}", path="scene"
            )

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> LoadScene:
        """Read the wire body."""
        obj = check_keys(body, ("scene",))
        with at("scene"):
            scene = SceneSpec.from_wire(obj["scene"])
        return cls(seq=seq, scene=scene)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"scene": self.scene.to_wire()}


def _check_ids(value: object, path: str) -> tuple[str, ...]:
    ids = check_tuple(value, path, max_items=MAX_TOKENS)
    seen: set[str] = set()
    for i, item in enumerate(ids):
        token = check_id(item, f"{path}{index_segment(i)}")
        if token in seen:
            raise ProtocolError(
                "bad_value", f"duplicate token id {token!r}", path=f"{path}{index_segment(i)}"
            )
        seen.add(token)
    return ids


@dataclass(frozen=True, slots=True, kw_only=True)
class StartCombat:
    """Start combat under ``ruleset``. ``aware`` lists the combatants aware of their foes
    at the start (``None``: everyone is); ``seed`` seeds the dice (``None``: server picks).
    ``rolls`` (optional) are the table's own dice for the rolls starting a fight makes
    (initiative tie-breaks), in the order the ruleset makes them; ``[]`` says there are
    none to make.  Absent or ``None``: the server rolls.  ``groups`` (optional) lists
    sets of token ids that share one initiative roll and act at one count."""

    TYPE: ClassVar[str] = "start_combat"
    seq: int
    ruleset: str
    aware: tuple[str, ...] | None = None
    seed: int | None = None
    rolls: tuple[int, ...] | None = None
    groups: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_str(self.ruleset, "ruleset", min_len=1, max_len=64)
        if self.aware is not None:
            _set(self, "aware", _check_ids(self.aware, "aware"))
        if self.seed is not None:
            check_int(self.seed, "seed", lo=0, hi=INT_MAX)
        if self.rolls is not None:
            _set(self, "rolls", _check_rolls(self.rolls, min_items=0))
        groups = check_tuple(self.groups, "groups", max_items=MAX_GROUPS)
        _set(
            self,
            "groups",
            tuple(_check_ids(g, f"groups{index_segment(i)}") for i, g in enumerate(groups)),
        )

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> StartCombat:
        """Read the wire body (``rolls`` and ``groups`` may be left out)."""
        obj = check_keys(body, ("ruleset", "aware", "seed"), ("rolls", "groups"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body (``rolls`` only when given, so older servers read it)."""
        aware = None if self.aware is None else list(self.aware)
        body: dict[str, Any] = {"ruleset": self.ruleset, "aware": aware, "seed": self.seed}
        if self.rolls is not None:
            body["rolls"] = list(self.rolls)
        if self.groups:
            body["groups"] = [list(g) for g in self.groups]
        return body


def _check_path(value: object) -> tuple[tuple[int, int], ...]:
    cells: list[tuple[int, int]] = []
    for i, item in enumerate(check_tuple(value, "path", min_items=1, max_items=MAX_PATH)):
        # Every move carries a path: a well-formed cell is taken without building the
        # error paths; anything else gets the full check and its exact error.
        if type(item) in (list, tuple) and len(item) == 2:
            x, y = item
            ints = type(x) is int and type(y) is int
            if ints and INT_MIN <= x <= INT_MAX and INT_MIN <= y <= INT_MAX:
                cells.append((x, y))
                continue
        where = f"path{index_segment(i)}"
        cell = check_tuple(item, where, min_items=2, max_items=2)
        x = check_int(cell[0], f"{where}[0]")
        y = check_int(cell[1], f"{where}[1]")
        cells.append((x, y))
    return tuple(cells)


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """Move ``token`` through ``path``: the cells ``(x, y)`` after its current position,
    in order. The engine decides whether the move is legal; this only checks shape.
    ``rolls`` (optional) are the table's own dice for the ``attack`` at the end."""

    TYPE: ClassVar[str] = "move"
    seq: int
    token: str
    path: tuple[tuple[int, int], ...]
    mode: str | None = None
    attack: str | None = None
    maneuver: dict[str, Any] | None = field(default=None, hash=False)
    rolls: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")
        _set(self, "path", _check_path(self.path))
        check_move_options(self, self.mode, self.attack, self.maneuver)
        _set(self, "rolls", check_rolls(self.rolls))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Move:
        """Read the wire body."""
        return cls(seq=seq, **read_move_body(body, "path"))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "token": self.token,
            "path": [[x, y] for x, y in self.path],
            **move_options_wire(self.mode, self.attack, self.maneuver, self.rolls),
        }


def _check_rolls(value: object, *, min_items: int = 1) -> tuple[int, ...]:
    rolls = check_tuple(value, "rolls", min_items=min_items, max_items=MAX_ROLLS)
    for i, roll in enumerate(rolls):
        check_int(roll, f"rolls{index_segment(i)}", lo=1, hi=1000)
    return rolls


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerPrompt:
    """Answer the server's ``prompt`` (e.g. "take the opportunity attack?").
    ``rolls`` are dice the table rolled itself; ``None`` lets the server roll."""

    TYPE: ClassVar[str] = "answer_prompt"
    seq: int
    prompt: str
    accept: bool
    rolls: tuple[int, ...] | None = None
    maneuver: dict[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_str(self.prompt, "prompt", min_len=1, max_len=64)
        check_bool(self.accept, "accept")
        if self.rolls is not None:
            _set(self, "rolls", _check_rolls(self.rolls))
        _set(self, "maneuver", read_maneuver(self.maneuver, "maneuver"))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> AnswerPrompt:
        """Read the wire body."""
        obj = dict(check_keys(body, ("prompt", "accept", "rolls"), ("maneuver",)))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        rolls = None if self.rolls is None else list(self.rolls)
        maneuver = self.maneuver
        return {"prompt": self.prompt, "accept": self.accept, "rolls": rolls, "maneuver": maneuver}


@dataclass(frozen=True, slots=True, kw_only=True)
class EndPhase(TokenMessage):
    """``token`` is done with its current phase (turn segment)."""

    TYPE: ClassVar[str] = "end_phase"


@dataclass(frozen=True, slots=True, kw_only=True)
class Resync:
    """Ask for every event after index ``after`` (-1: from the start)."""

    TYPE: ClassVar[str] = "resync"
    seq: int
    after: int

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.after, "after", lo=-1, hi=SEQ_MAX)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Resync:
        """Read the wire body."""
        obj = check_keys(body, ("after",))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"after": self.after}


@dataclass(frozen=True, slots=True, kw_only=True)
class Ping:
    """Keep-alive; the server answers with ``pong``."""

    TYPE: ClassVar[str] = "ping"
    seq: int

    def __post_init__(self) -> None:
        check_seq(self.seq)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Ping:
        """Read the wire body."""
        check_keys(body, ())
        return cls(seq=seq)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {}


#: Any client -> server message.
ClientMessage: TypeAlias = (
    Join
    | LoadScene
    | StartCombat
    | Move
    | AnswerPrompt
    | EndPhase
    | Resync
    | Ping
    | IssueToken
    | RevokeToken
    | ConfigureTable
    | ListTokens
    | SetDoor
    | SetCondition
    | MovePoints
    | Act
    | JoinCombat
    | LeaveCombat
    | SetEffect
    | EndEffect
    | AskOptions
    | AskPath
    | AskThreat
    | AskExits
)

#: Wire ``type`` -> class, for every client message.
CLIENT_MESSAGE_TYPES: Final[Mapping[str, type[ClientMessage]]] = {
    cls.TYPE: cls
    for cls in (
        *(Join, LoadScene, StartCombat, Move, AnswerPrompt, EndPhase, Resync, Ping),
        *(IssueToken, RevokeToken, ConfigureTable, ListTokens),
        *ACTION_MESSAGES,
        *FIGHT_MESSAGES,
        AskOptions,
        AskPath,
        AskThreat,
        AskExits,
    )
}
