"""Wire protocol of the combat backend: typed, validated, versioned messages.

Sans-I/O (in the manner of h11): this package turns frames into message values and
back, and never touches a socket or a clock. Text frames carry JSON, binary frames
msgpack; both carry the same envelope ``{"v": 1, "type", "seq", "body"}``. See
``protocol/README.md`` for every message.

Every refusal is a :class:`ProtocolError` with a stable ``code`` and the ``path`` of
the offending field.
"""

from protocol.actions import MovePoints, SetCondition, SetDoor
from protocol.admin import (
    DICE_POLICIES,
    ISSUABLE_ROLES,
    ConfigureTable,
    IssueToken,
    RevokeToken,
    TokenIssued,
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
from protocol.fight import Act, EndEffect, JoinCombat, LeaveCombat, SetEffect
from protocol.messages import (
    CLIENT_MESSAGE_TYPES,
    AnswerPrompt,
    ClientMessage,
    EndPhase,
    Join,
    LoadScene,
    Move,
    Ping,
    Resync,
    StartCombat,
)
from protocol.queries import AskOptions, AskPath, Options, PathPlan
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
    ROLES,
    SERVER_MESSAGE_TYPES,
    Ack,
    ErrorMessage,
    Event,
    Pong,
    Prompt,
    ServerMessage,
    State,
    Welcome,
)
from protocol.validate import MAX_ARRAY_LEN, MAX_DEPTH, MAX_MAP_LEN

__all__ = [
    "CLIENT_MESSAGE_TYPES",
    "DIAGONAL_RULES",
    "DICE_POLICIES",
    "DOOR_STATES",
    "ERROR_CODES",
    "GRID_KINDS",
    "HEX_OFFSETS",
    "ISSUABLE_ROLES",
    "MAX_ARRAY_LEN",
    "MAX_BATCH",
    "MAX_DEPTH",
    "MAX_FRAME_BYTES",
    "MAX_MAP_LEN",
    "PROTOCOL_VERSION",
    "ROLES",
    "SERVER_MESSAGE_TYPES",
    "TERRAIN_KINDS",
    "Ack",
    "Act",
    "AnswerPrompt",
    "AskOptions",
    "AskPath",
    "ClientMessage",
    "ConfigureTable",
    "EndEffect",
    "EndPhase",
    "ErrorMessage",
    "Event",
    "GridSpec",
    "IssueToken",
    "Join",
    "JoinCombat",
    "LeaveCombat",
    "LoadScene",
    "Message",
    "Move",
    "MovePoints",
    "Options",
    "PathPlan",
    "Ping",
    "Pong",
    "Prompt",
    "ProtocolError",
    "Resync",
    "RevokeToken",
    "SceneSpec",
    "ServerMessage",
    "SetCondition",
    "SetDoor",
    "SetEffect",
    "StartCombat",
    "StatValue",
    "State",
    "TerrainSpec",
    "TokenIssued",
    "TokenRevoked",
    "TokenSpec",
    "VttSpec",
    "WallSpec",
    "Welcome",
    "client_from_wire",
    "decode_client",
    "decode_server",
    "decode_server_frame",
    "encode",
    "encode_batch",
    "encode_json",
    "encode_msgpack",
    "parse_frame",
    "server_from_wire",
    "to_wire",
]
