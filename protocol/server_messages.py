"""Server -> client messages.

Same shape as :mod:`protocol.messages`: frozen dataclasses that check themselves,
``from_body`` / ``to_body`` for the wire body. ``seq`` here is the server's
per-connection outbound counter.

``Event.data`` and ``State.state`` are free-form JSON-safe maps. They are stored as
plain ``dict``/``list`` copies (tuples given in are turned into lists, so a value
compares equal after a round trip); that makes ``Event`` and ``State`` compare by
value but unhashable. Treat the copies as read-only.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeAlias

from protocol.admin import TokenIssued, TokenList, TokenRevoked
from protocol.errors import ProtocolError
from protocol.queries import Options, PathPlan
from protocol.threat import Exits, Threat
from protocol.validate import (
    MAX_DEPTH,
    SEQ_MAX,
    check_choice,
    check_float,
    check_id,
    check_int,
    check_keys,
    check_map,
    check_seq,
    check_str,
    check_tuple,
    json_safe,
)

__all__ = [
    "ROLES",
    "SERVER_MESSAGE_TYPES",
    "Ack",
    "ErrorMessage",
    "Event",
    "Pong",
    "Prompt",
    "ServerMessage",
    "State",
    "Welcome",
]

#: What a participant may do at a table.
ROLES: Final[frozenset[str]] = frozenset({"gm", "player", "spectator"})
#: Longest ``ErrorMessage.message``; :meth:`ErrorMessage.from_protocol_error` cuts to fit.
MAX_ERROR_MESSAGE: Final = 1024
#: ``Event.data`` / ``State.state`` sit two levels inside the frame (envelope, body),
#: so they may nest two levels less than a frame.
MAX_DATA_DEPTH: Final = MAX_DEPTH - 2


def _set(obj: object, name: str, value: object) -> None:
    # Frozen dataclasses normalise their own fields here.
    object.__setattr__(obj, name, value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome:
    """Reply to ``join``: which ``table`` and ``participant`` this connection is, its
    ``role``, the ``protocol`` version spoken and the ``server`` software."""

    TYPE: ClassVar[str] = "welcome"
    seq: int
    table: str
    participant: str
    role: str
    protocol: int
    server: str

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_str(self.table, "table", min_len=1, max_len=128)
        check_str(self.participant, "participant", min_len=1, max_len=128)
        check_choice(self.role, "role", ROLES)
        check_int(self.protocol, "protocol", lo=1, hi=SEQ_MAX)
        check_str(self.server, "server", min_len=1, max_len=128)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Welcome:
        """Read the wire body."""
        obj = check_keys(body, ("table", "participant", "role", "protocol", "server"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "table": self.table,
            "participant": self.participant,
            "role": self.role,
            "protocol": self.protocol,
            "server": self.server,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Ack:
    """The client message with seq ``ref`` was accepted. If it produced events, they are
    ``first_event..last_event`` (inclusive); else both are ``None``."""

    TYPE: ClassVar[str] = "ack"
    seq: int
    ref: int
    first_event: int | None = None
    last_event: int | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        if self.first_event is not None:
            check_int(self.first_event, "first_event", lo=0, hi=SEQ_MAX)
        if self.last_event is not None:
            check_int(self.last_event, "last_event", lo=0, hi=SEQ_MAX)
        if (self.first_event is None) != (self.last_event is None):
            raise ProtocolError(
                "bad_value",
                f"first_event and last_event must both be set or both be null, got "
                f"{self.first_event!r} and {self.last_event!r}",
                path="last_event" if self.last_event is None else "first_event",
            )
        if self.first_event is not None and self.last_event is not None:
            check_int(self.last_event, "last_event", lo=self.first_event, hi=SEQ_MAX)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Ack:
        """Read the wire body."""
        obj = check_keys(body, ("ref", "first_event", "last_event"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"ref": self.ref, "first_event": self.first_event, "last_event": self.last_event}


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorMessage:
    """Something went wrong. ``ref`` is the client seq at fault (``None`` if unknown),
    ``code`` a machine-readable reason (a :class:`ProtocolError` code or an engine
    one such as ``illegal_move``), ``path`` the bad field if any. Wire type ``error``."""

    TYPE: ClassVar[str] = "error"
    seq: int
    ref: int | None
    code: str
    message: str
    path: str | None = None

    def __post_init__(self) -> None:
        check_seq(self.seq)
        if self.ref is not None:
            check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_str(self.code, "code", min_len=1, max_len=64)
        check_str(self.message, "message", max_len=MAX_ERROR_MESSAGE)
        if self.path is not None:
            check_str(self.path, "path", max_len=MAX_ERROR_MESSAGE)

    @classmethod
    def from_protocol_error(cls, error: ProtocolError, *, seq: int) -> ErrorMessage:
        """The reply to a frame that failed to decode with ``error``."""
        message = str(error)
        if len(message) > MAX_ERROR_MESSAGE:
            message = message[: MAX_ERROR_MESSAGE - 3] + "..."
        path = error.path[:MAX_ERROR_MESSAGE] or None
        return cls(seq=seq, ref=error.seq, code=error.code, message=message, path=path)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> ErrorMessage:
        """Read the wire body."""
        obj = check_keys(body, ("ref", "code", "message", "path"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"ref": self.ref, "code": self.code, "message": self.message, "path": self.path}


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Event number ``index`` of the table's log: ``kind`` (e.g. ``moved``) and its
    JSON-safe ``data``. Unhashable (``data`` is a dict)."""

    TYPE: ClassVar[str] = "event"
    seq: int
    index: int
    kind: str
    data: Mapping[str, Any]

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.index, "index", lo=0, hi=SEQ_MAX)
        check_str(self.kind, "kind", min_len=1, max_len=64)
        check_map(self.data, "data")
        _set(self, "data", json_safe(self.data, "data", max_depth=MAX_DATA_DEPTH))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Event:
        """Read the wire body."""
        obj = check_keys(body, ("index", "kind", "data"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"index": self.index, "kind": self.kind, "data": self.data}

    def renumbered(self, seq: int) -> Event:
        """This event under another connection's ``seq``.

        A broadcast sends one event to every member, each under its own counter; the
        ``data`` was checked and copied when this event was built, so the copy shares
        it instead of checking it again per member.
        """
        check_seq(seq)
        twin = copy.copy(self)
        _set(twin, "seq", seq)
        return twin


@dataclass(frozen=True, slots=True, kw_only=True)
class Prompt:
    """A question for the table, answered with ``answer_prompt``: e.g. ``kind``
    ``"opportunity_attack"``: may ``attacker`` strike ``target``, who is at cell ``at``
    and leaves reach at ``exit_point``? Unanswered after ``deadline_ms`` the server
    takes the default."""

    TYPE: ClassVar[str] = "prompt"
    seq: int
    prompt: str
    kind: str
    attacker: str
    target: str
    at: tuple[int, int]
    exit_point: tuple[float, float]
    deadline_ms: int

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_str(self.prompt, "prompt", min_len=1, max_len=64)
        check_str(self.kind, "kind", min_len=1, max_len=64)
        check_id(self.attacker, "attacker")
        check_id(self.target, "target")
        at = check_tuple(self.at, "at", min_items=2, max_items=2)
        _set(self, "at", (check_int(at[0], "at[0]"), check_int(at[1], "at[1]")))
        point = check_tuple(self.exit_point, "exit_point", min_items=2, max_items=2)
        inf = float("-inf")
        _set(
            self,
            "exit_point",
            (
                check_float(point[0], "exit_point[0]", minimum=inf),
                check_float(point[1], "exit_point[1]", minimum=inf),
            ),
        )
        check_int(self.deadline_ms, "deadline_ms", lo=0, hi=SEQ_MAX)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Prompt:
        """Read the wire body."""
        obj = check_keys(
            body, ("prompt", "kind", "attacker", "target", "at", "exit_point", "deadline_ms")
        )
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "prompt": self.prompt,
            "kind": self.kind,
            "attacker": self.attacker,
            "target": self.target,
            "at": list(self.at),
            "exit_point": list(self.exit_point),
            "deadline_ms": self.deadline_ms,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    """The full table ``state`` as of event ``last_event`` (-1: before any event).
    Unhashable (``state`` is a dict)."""

    TYPE: ClassVar[str] = "state"
    seq: int
    last_event: int
    state: Mapping[str, Any]

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_int(self.last_event, "last_event", lo=-1, hi=SEQ_MAX)
        check_map(self.state, "state")
        _set(self, "state", json_safe(self.state, "state", max_depth=MAX_DATA_DEPTH))

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> State:
        """Read the wire body."""
        obj = check_keys(body, ("last_event", "state"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"last_event": self.last_event, "state": self.state}


@dataclass(frozen=True, slots=True, kw_only=True)
class Pong:
    """Answer to ``ping``."""

    TYPE: ClassVar[str] = "pong"
    seq: int

    def __post_init__(self) -> None:
        check_seq(self.seq)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Pong:
        """Read the wire body."""
        check_keys(body, ())
        return cls(seq=seq)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {}


#: Any server -> client message.
ServerMessage: TypeAlias = (
    Welcome
    | Ack
    | ErrorMessage
    | Event
    | Prompt
    | State
    | Pong
    | TokenIssued
    | TokenRevoked
    | TokenList
    | Options
    | PathPlan
    | Threat
    | Exits
)

#: Wire ``type`` -> class, for every server message.
SERVER_MESSAGE_TYPES: Final[Mapping[str, type[ServerMessage]]] = {
    cls.TYPE: cls
    for cls in (
        *(Welcome, Ack, ErrorMessage, Event, Prompt, State, Pong),
        *(TokenIssued, TokenRevoked, TokenList),
        Options,
        PathPlan,
        Threat,
        Exits,
    )
}
