"""Wire protocol of the combat backend: typed, validated, versioned messages.

Sans-I/O (in the manner of h11): this package turns frames into message values and
back, and never touches a socket or a clock. Text frames carry JSON, binary frames
msgpack; both carry the same envelope ``{"v": 1, "type", "seq", "body"}``. See
``protocol/README.md`` for every message.

Every refusal is a :class:`ProtocolError` with a stable ``code`` and the ``path`` of
the offending field.
"""

from protocol.actions import ImageGrid
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
from protocol.commands import (
    Act,
    AnswerPrompt,
    EditScene,
    EndCombat,
    EndEffect,
    EndPhase,
    JoinCombat,
    LeaveCombat,
    LoadScene,
    Move,
    MovePoints,
    RollInitiative,
    SetCondition,
    SetDoor,
    SetEffect,
    SetStats,
    StartCombat,
)
from protocol.errors import ERROR_CODES, ProtocolError
from protocol.events import BODIES as _EVENT_BODIES
from protocol.features import DOOR_STATES, TERRAIN_KINDS, TerrainSpec, VttSpec, WallSpec
from protocol.messages import (
    CLIENT_MESSAGE_TYPES,
    ClientMessage,
    Join,
    Ping,
    Resync,
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

# Every shipped event kind's body, written from the engine's declarations
# (tools/eventstructs.py): a client importing the protocol alone reads events typed.
for _body in _EVENT_BODIES:
    register_event_body(_body)

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
    "Act",
    "AnswerPrompt",
    "AskOptions",
    "AskPath",
    "ClientMessage",
    "Clock",
    "ConfigureTable",
    "EditScene",
    "EndCombat",
    "EndEffect",
    "EndPhase",
    "ErrorMessage",
    "Event",
    "EventBody",
    "GridSpec",
    "ImageGrid",
    "IssueToken",
    "Join",
    "JoinCombat",
    "LeaveCombat",
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
    "RollInitiative",
    "SceneSpec",
    "ServerMessage",
    "SetCondition",
    "SetDoor",
    "SetEffect",
    "SetStats",
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
