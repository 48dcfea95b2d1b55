"""Server -> client messages, and the registry of every server message.

Same shape as :mod:`protocol.messages`: structs declared once. ``seq`` here is the
server's per-connection outbound counter: the first message a connection gets has seq 1.

``State.state`` and an unregistered kind's ``Event.data`` are free-form JSON-safe maps,
stored as plain ``dict``/``list`` copies (tuples given in become lists, so a value
compares equal after a round trip); treat them as read-only.  Every event kind's
``data`` is documented in ``protocol/README.md`` (generated from the rulesets' event
declarations) and read as its :class:`EventBody` once registered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Final, TypeAlias, get_args

from msgspec import Meta
from msgspec.structs import force_setattr

from protocol.admin import Role, TokenIssued, TokenList, TokenRevoked
from protocol.describe import RulesetDescription, RulesetList
from protocol.errors import ProtocolError
from protocol.queries import Options, PathPlan
from protocol.threat import Exits, Threat
from protocol.validate import MAX_DEPTH, SEQ_MAX
from protocol.wire import (
    EventIndex,
    LongName,
    Name,
    Seq,
    ServerWire,
    TokenId,
    Waypoint,
    Wire,
    read,
    trusting,
)

#: Longest ``ErrorMessage.message``; :meth:`ErrorMessage.from_protocol_error` cuts to fit.
MAX_ERROR_MESSAGE: Final = 1024
#: ``Event.data`` / ``State.state`` sit two levels inside the frame (envelope, body),
#: so they may nest two levels less than a frame.
MAX_DATA_DEPTH: Final = MAX_DEPTH - 2
ErrorText = Annotated[str, Meta(max_length=MAX_ERROR_MESSAGE)]


class Welcome(ServerWire, frozen=True, kw_only=True):
    """Reply to ``join``: which ``table`` and ``participant`` this connection is, its
    ``role``, the ``protocol`` version spoken and the ``server`` software."""

    TYPE = "welcome"
    table: LongName
    participant: LongName
    role: Role
    protocol: Annotated[int, Meta(ge=1, le=SEQ_MAX)]
    server: LongName


class Ack(ServerWire, frozen=True, kw_only=True):
    """The client message with seq ``ref`` was accepted. If it produced events, they are
    ``first_event..last_event`` (inclusive); else both are ``None``."""

    TYPE = "ack"
    ref: Seq
    first_event: Seq | None = None
    last_event: Seq | None = None

    def check(self) -> None:
        """Both event bounds or neither, in order."""
        first, last = self.first_event, self.last_event
        if (first is None) != (last is None):
            raise ProtocolError(
                "bad_value",
                f"first_event and last_event must both be set or both be null, got "
                f"{first!r} and {last!r}",
                path="last_event" if last is None else "first_event",
            )
        if first is not None and last is not None and last < first:
            raise ProtocolError(
                "bad_value", f"expected {first}..{SEQ_MAX}, got {last}", path="last_event"
            )


class ErrorMessage(ServerWire, frozen=True, kw_only=True):
    """Something went wrong. ``ref`` is the client seq at fault (``None`` if unknown),
    ``code`` a machine-readable reason (a :class:`ProtocolError` code or an engine
    one such as ``illegal_move``), ``path`` the bad field if any. Wire type ``error``."""

    TYPE = "error"
    ref: Seq | None
    code: Name
    message: ErrorText
    path: ErrorText | None = None

    @classmethod
    def from_protocol_error(cls, error: ProtocolError, *, seq: int) -> ErrorMessage:
        """The reply to a frame that failed to decode with ``error``."""
        message = str(error)
        if len(message) > MAX_ERROR_MESSAGE:
            message = message[: MAX_ERROR_MESSAGE - 3] + "..."
        path = error.path[:MAX_ERROR_MESSAGE] or None
        return cls(seq=seq, ref=error.seq, code=error.code, message=message, path=path)


class EventBody(Wire, frozen=True, kw_only=True):
    """The typed ``data`` of one event kind: ``KIND`` is its wire ``kind``, ``VERSION``
    the wire version (:data:`protocol.versions.WIRE_VERSION`) its fields last changed in.
    The protocol declares no kind by hand: see :data:`EVENT_BODIES`."""

    KIND: ClassVar[str]
    VERSION: ClassVar[int] = 1


#: Event ``kind`` -> the :class:`EventBody` its ``data`` is read as: the engine and the
#: rulesets declare the kinds, ``import protocol`` registers their written bodies
#: (:mod:`protocol.events`).  A kind left out (one a newer server added) stays a map.
EVENT_BODIES: dict[str, type[EventBody]] = {}


def register_event_body(body: type[EventBody]) -> None:
    """Read events of ``body.KIND`` as ``body`` from now on (again: no change)."""
    known = EVENT_BODIES.setdefault(body.KIND, body)
    if known is not body:
        raise ValueError(f"event kind {body.KIND!r} is already read as {known.__name__}")


class Event(ServerWire, frozen=True, kw_only=True):
    """Event number ``index`` of the table's log: ``kind`` (e.g. ``move_started``) and
    its ``data``, a map on the wire whose fields each kind declares.

    Decoded or built in Python, ``data`` is the kind's :class:`EventBody` when
    :data:`EVENT_BODIES` has one (a body that does not fit is refused with a path under
    ``data``), else a JSON-safe map; :meth:`trusted` keeps the server's map as it is.
    Unhashable while ``data`` is or holds a map."""

    TYPE = "event"
    index: Seq
    kind: Name
    data: dict[str, Any]

    def __post_init__(self) -> None:
        super().__post_init__()
        body = EVENT_BODIES.get(self.kind)
        if body is not None and type(self.data) is dict and not trusting():
            try:
                force_setattr(self, "data", read(body, self.data))
            except ProtocolError as exc:
                exc.prefix("data")
                raise


class Prompt(ServerWire, frozen=True, kw_only=True):
    """A question for the table, answered with ``answer_prompt``: e.g. ``kind``
    ``"attack_of_opportunity"``: may ``attacker`` strike ``target``, who is at cell
    ``at`` (gridless: the point in scene units where it stands) and leaves reach at
    ``exit_point``? Unanswered by ``deadline_ms`` (the
    server's wall clock, milliseconds since the Unix epoch) the server takes the
    default; ``remaining_ms`` is how long that was when the message was sent."""

    TYPE = "prompt"
    prompt: Name
    kind: Name
    attacker: TokenId
    target: TokenId
    at: Waypoint
    exit_point: tuple[float, float]
    deadline_ms: Seq
    remaining_ms: Seq


class PromptWaiting(ServerWire, frozen=True, kw_only=True):
    """A prompt of ``kind`` waits on ``controller``'s answer until ``deadline_ms`` (the
    server's wall clock), ``remaining_ms`` from when the message was sent: sent to every
    member of the table but the controller (who is sent the ``prompt``), so the whole
    table sees whom the fight waits on, and for how long.  Only the controller may
    answer; what the prompt asks is in its ``prompt_opened`` event."""

    TYPE = "prompt_waiting"
    prompt: Name
    kind: Name
    controller: Name
    deadline_ms: Seq
    remaining_ms: Seq


class State(ServerWire, frozen=True, kw_only=True):
    """The full table ``state`` as of event ``last_event`` (-1: before any event).
    Unhashable (``state`` is a dict)."""

    TYPE = "state"
    last_event: EventIndex
    state: dict[str, Any]


class Pong(ServerWire, frozen=True, kw_only=True):
    """Answer to ``ping``."""

    TYPE = "pong"


#: Longest ``Redirect.url``.
MAX_URL: Final = 2048
#: A WebSocket URL: ``ws://`` or ``wss://``, a host, no spaces or control characters.
WS_URL_PATTERN: Final = r"^wss?://[^\s/?#]+[^\s\x00-\x1f\x7f]*$"
#: Longest ``Redirect.retry_after``, in seconds.
MAX_RETRY_AFTER: Final = 3600.0


class Redirect(ServerWire, frozen=True, kw_only=True):
    """This bridge process does not serve the table: another one does, at ``url``.

    Several bridge processes may share one database, each table served by one of them.
    The answer to a ``join`` (``ref``: the join's seq) whose table another process
    serves, or sent to every member (``ref`` null) when the table moves away mid-game
    (its owner lost its lease).  The server closes the connection after it (1000); the
    client connects to ``url`` after ``retry_after`` seconds (null: at once) and joins
    again with the same token, ``client`` id and last event, resending what is
    unanswered under the same seqs (the new owner answers each from the log, or applies
    it once).  If it cannot reach ``url`` it goes back to the address it started from."""

    TYPE = "redirect"
    ref: Seq | None
    url: Annotated[str, Meta(max_length=MAX_URL, pattern=WS_URL_PATTERN)]
    retry_after: Annotated[float, Meta(ge=0, le=MAX_RETRY_AFTER)] | None = None


#: Any server -> client message.
ServerMessage: TypeAlias = (
    Welcome
    | Ack
    | ErrorMessage
    | Event
    | Prompt
    | PromptWaiting
    | State
    | Pong
    | Redirect
    | TokenIssued
    | TokenRevoked
    | TokenList
    | Options
    | PathPlan
    | Threat
    | Exits
    | RulesetList
    | RulesetDescription
)

#: Wire ``type`` -> class, for every server message.
SERVER_MESSAGE_TYPES: Final[Mapping[str, type[ServerMessage]]] = {
    cls.TYPE: cls for cls in get_args(ServerMessage)
}
