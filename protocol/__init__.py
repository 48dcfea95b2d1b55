"""Wire protocol of the combat backend: typed, validated, versioned messages.

Sans-I/O (in the manner of h11): this package turns frames into message values and
back, and never touches a socket or a clock. Text frames carry JSON, binary frames
msgpack; both carry the same envelope ``{"v": 1, "type", "seq", "body"}``. See
``protocol/README.md`` for every message.

Every refusal is a :class:`ProtocolError` with a stable ``code`` and the ``path`` of
the offending field.
"""

from protocol.actions import SetDoor
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
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    Message,
    client_from_wire,
    decode_client,
    decode_server,
    encode,
    encode_json,
    encode_msgpack,
    parse_frame,
    server_from_wire,
    to_wire,
)
from protocol.errors import ERROR_CODES, ProtocolError
from protocol.features import DOOR_STATES, TERRAIN_KINDS, TerrainSpec, WallSpec
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
    "MAX_DEPTH",
    "MAX_FRAME_BYTES",
    "MAX_MAP_LEN",
    "PROTOCOL_VERSION",
    "ROLES",
    "SERVER_MESSAGE_TYPES",
    "TERRAIN_KINDS",
    "Ack",
    "AnswerPrompt",
    "ClientMessage",
    "ConfigureTable",
    "EndPhase",
    "ErrorMessage",
    "Event",
    "GridSpec",
    "IssueToken",
    "Join",
    "LoadScene",
    "Message",
    "Move",
    "Ping",
    "Pong",
    "Prompt",
    "ProtocolError",
    "Resync",
    "RevokeToken",
    "SceneSpec",
    "ServerMessage",
    "SetDoor",
    "StartCombat",
    "StatValue",
    "State",
    "TerrainSpec",
    "TokenIssued",
    "TokenRevoked",
    "TokenSpec",
    "WallSpec",
    "Welcome",
    "client_from_wire",
    "decode_client",
    "decode_server",
    "encode",
    "encode_json",
    "encode_msgpack",
    "parse_frame",
    "server_from_wire",
    "to_wire",
]
