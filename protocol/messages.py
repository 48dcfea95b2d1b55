"""Client -> server messages: the session (``join``, ``resync``, ``ping``), the scene
and the fight's core (``load_scene``, ``move``), and the registry of
every client message (with the commands declared as engine dataclasses,
:mod:`protocol.commands`).

Each is declared once, as a :class:`~protocol.wire.ClientWire` struct (see
:mod:`protocol.wire` for how the declaration gives decoding, encoding and checks) or as
the engine command its struct is derived from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Final, TypeAlias, cast, get_args

from msgspec import Meta

from protocol.actions import MoveOptions, MovePoints
from protocol.admin import ConfigureTable, IssueToken, ListTokens, RevokeToken
from protocol.commands import DERIVED
from protocol.describe import DescribeRuleset, ListRulesets
from protocol.errors import ProtocolError
from protocol.fight import EditScene
from protocol.queries import AskOptions, AskPath
from protocol.scene import SceneSpec
from protocol.threat import MAX_PATH, AskExits, AskThreat
from protocol.wire import ClientWire, EventIndex, Float, LongName, Name, Waypoint


class Join(ClientWire, frozen=True, kw_only=True):
    """Join a table with a join ``token``. ``last_event`` is the last event index the
    client already holds (-1 for none) so the server can send just the rest; ``None``
    asks for the full state. ``client`` (optional) is a stable id the client keeps across
    reconnects: a command it retransmits with the same ``seq`` gets its original result
    and is not applied twice.  ``batch`` (optional) lets the server put several messages
    in one frame, an array of envelopes (see :func:`protocol.decode_server_frame`).
    ``describe`` (optional) asks for the rulesets the server plays (``rulesets``) and
    the running fight's description (``ruleset``) right after the ``welcome``."""

    TYPE = "join"
    LATER = ("client", "batch", "describe")
    token: LongName
    last_event: EventIndex | None = None
    client: Name | None = None
    batch: bool = False
    describe: bool = False


class LoadScene(ClientWire, frozen=True, kw_only=True):
    """Replace the table's scene (grid and tokens) before or between combats."""

    TYPE = "load_scene"
    scene: SceneSpec


class Move(MoveOptions, frozen=True, kw_only=True):
    """Move ``token`` through ``path``: the cells ``(x, y)`` after its current position,
    in order (on a gridless scene, waypoints in the scene's unit, fractional allowed:
    the token's centre goes straight from one to the next). The engine decides whether
    the move is legal (a fractional cell on a grid is not); this only checks shape.
    ``elevations`` (optional) is the height of the token's base at each cell (gridless,
    each waypoint), one per ``path`` entry: a flight or a climb, which the fight's
    ruleset must allow.
    ``rolls`` (optional) are the table's own dice for the ``attack`` at the end."""

    TYPE = "move"
    LATER = (*MoveOptions.LATER, "elevations")
    path: Annotated[tuple[Waypoint, ...], Meta(min_length=1, max_length=MAX_PATH)]
    elevations: Annotated[tuple[Float, ...], Meta(max_length=MAX_PATH)] | None = None

    def check(self) -> None:
        """One elevation per waypoint, when there are any."""
        super().check()
        if self.elevations is not None and len(self.elevations) != len(self.path):
            raise ProtocolError(
                "bad_value",
                f"{len(self.elevations)} elevations for {len(self.path)} waypoints: one each",
                path="elevations",
            )


class Resync(ClientWire, frozen=True, kw_only=True):
    """Ask for every event after index ``after`` (-1: from the start)."""

    TYPE = "resync"
    after: EventIndex


class Ping(ClientWire, frozen=True, kw_only=True):
    """Keep-alive; the server answers with ``pong``."""

    TYPE = "ping"


#: Any client -> server message, in the order the README lists them.
ClientMessage: TypeAlias = (
    Join
    | LoadScene
    | Move
    | Resync
    | Ping
    | IssueToken
    | RevokeToken
    | ConfigureTable
    | ListTokens
    | MovePoints
    | EditScene
    | AskOptions
    | AskPath
    | AskThreat
    | AskExits
    | ListRulesets
    | DescribeRuleset
)

#: Wire ``type`` -> class, for every client message (the derived commands after the
#: structs declared here; a derived one is typed as the union for the decoder's sake).
CLIENT_MESSAGE_TYPES: Final[Mapping[str, type[ClientMessage]]] = {
    cls.TYPE: cast(type[ClientMessage], cls) for cls in (*get_args(ClientMessage), *DERIVED)
}
_SHIPPED: Final = frozenset(CLIENT_MESSAGE_TYPES)


def register_client_message(cls: type[ClientWire]) -> None:
    """Decode ``cls`` as a client message from now on: a message declared outside this
    package (a command a server adds, whose struct it derives from its engine
    declaration).  A ``type`` already taken is refused."""
    if CLIENT_MESSAGE_TYPES.get(cls.TYPE, cls) is not cls:
        raise ValueError(f"client message type {cls.TYPE!r} is already registered")
    types = cast(dict[str, type[ClientWire]], CLIENT_MESSAGE_TYPES)
    types[cls.TYPE] = cls


def unregister_client_message(cls: type[ClientWire]) -> None:
    """Stop decoding ``cls`` (one :func:`register_client_message` added; never a
    shipped message)."""
    if cls.TYPE not in _SHIPPED and CLIENT_MESSAGE_TYPES.get(cls.TYPE) is cls:
        del cast(dict[str, type[ClientWire]], CLIENT_MESSAGE_TYPES)[cls.TYPE]
