"""Wire protocol of the combat backend: typed, validated, versioned messages.

Sans-I/O (in the manner of h11): this package turns frames into message values and
back, and never touches a socket or a clock. Text frames carry JSON, binary frames
msgpack; both carry the same envelope ``{"v": 1, "type", "seq", "body"}``. See
``protocol/README.md`` for every message.

Every refusal is a :class:`ProtocolError` with a stable ``code`` and the ``path`` of
the offending field.
"""

from protocol.actions import ImageGrid, MovePoints
from protocol.admin import (
    DICE_POLICIES,
    ISSUABLE_ROLES,
    LIST_TOKENS_PAGE,
    ConfigureTable,
    IssueToken,
    ListedToken,
    ListTokens,
    RevokeToken,
    TokenIssued,
    TokenList,
    TokenRevoked,
)
from protocol.codec import (
    MAX_BATCH,
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    Message,
    client_from_wire,
    decode_client,
    decode_server,
    decode_server_frame,
    encode,
    encode_batch,
    encode_json,
    encode_msgpack,
    parse_frame,
    server_from_wire,
    to_wire,
)
from protocol.errors import ERROR_CODES, ProtocolError
from protocol.features import DOOR_STATES, TERRAIN_KINDS, TerrainSpec, VttSpec, WallSpec
from protocol.fight import EditScene, JoinCombat
from protocol.messages import (
    CLIENT_MESSAGE_TYPES,
    ClientMessage,
    Join,
    LoadScene,
    Move,
    Ping,
    Resync,
    StartCombat,
)
from protocol.queries import AskOptions, AskPath, Clock, Options, PathPlan, Unavailable
from protocol.scene import (
    DIAGONAL_RULES,
    GRID_KINDS,
    HEX_OFFSETS,
    GridSpec,
    SceneSpec,
    StatValue,
    TokenSpec,
)
from protocol.server_messages import (
    EVENT_BODIES,
    SERVER_MESSAGE_TYPES,
    Ack,
    ErrorMessage,
    Event,
    EventBody,
    Pong,
    Prompt,
    PromptWaiting,
    Redirect,
    ServerMessage,
    State,
    Welcome,
    register_event_body,
)
from protocol.validate import MAX_ARRAY_LEN, MAX_DEPTH, MAX_MAP_LEN
from protocol.wire import Wire

__all__ = [
    "CLIENT_MESSAGE_TYPES",
    "DIAGONAL_RULES",
    "DICE_POLICIES",
    "DOOR_STATES",
    "ERROR_CODES",
    "EVENT_BODIES",
    "GRID_KINDS",
    "HEX_OFFSETS",
    "ISSUABLE_ROLES",
    "LIST_TOKENS_PAGE",
    "MAX_ARRAY_LEN",
    "MAX_BATCH",
    "MAX_DEPTH",
    "MAX_FRAME_BYTES",
    "MAX_MAP_LEN",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGE_TYPES",
    "TERRAIN_KINDS",
    "Ack",
    "AskOptions",
    "AskPath",
    "ClientMessage",
    "Clock",
    "ConfigureTable",
    "EditScene",
    "ErrorMessage",
    "Event",
    "EventBody",
    "GridSpec",
    "ImageGrid",
    "IssueToken",
    "Join",
    "JoinCombat",
    "ListTokens",
    "ListedToken",
    "LoadScene",
    "Message",
    "Move",
    "MovePoints",
    "Options",
    "PathPlan",
    "Ping",
    "Pong",
    "Prompt",
    "PromptWaiting",
    "ProtocolError",
    "Redirect",
    "Resync",
    "RevokeToken",
    "SceneSpec",
    "ServerMessage",
    "StartCombat",
    "StatValue",
    "State",
    "TerrainSpec",
    "TokenIssued",
    "TokenList",
    "TokenRevoked",
    "TokenSpec",
    "Unavailable",
    "VttSpec",
    "WallSpec",
    "Welcome",
    "Wire",
    "client_from_wire",
    "decode_client",
    "decode_server",
    "decode_server_frame",
    "encode",
    "encode_batch",
    "encode_json",
    "encode_msgpack",
    "parse_frame",
    "register_event_body",
    "server_from_wire",
    "to_wire",
]


def __getattr__(name: str) -> type[Wire]:
    """A client message registered from outside the package, by its class name (the
    commands the server derives from their engine declaration, such as ``SetDoor``:
    ``protocol.SetDoor`` once the server's rows are loaded)."""
    for cls in CLIENT_MESSAGE_TYPES.values():
        if cls.__name__ == name:
            return cls
    raise AttributeError(f"module 'protocol' has no attribute {name!r}")
