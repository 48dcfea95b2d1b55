"""Frames <-> messages. Sans-I/O: bytes and strings in, bytes and strings out.

Theory of operation. Decoding runs in three steps, each refusing with a
:class:`ProtocolError` and never any other exception:

1. *Parse*: a ``str`` is a WebSocket text frame holding JSON, ``bytes`` a binary
   frame holding msgpack. Size is checked before parsing, JSON nesting depth is
   pre-scanned on the raw text (so ``json`` never recurses deeply), and msgpack is
   parsed with explicit limits.
2. *Scan*: the parsed tree must be JSON-safe (finite floats, ints with
   ``|i| < 2**63``, string keys, no bytes, bounded depth and sizes). The parsers'
   hooks leave :class:`~protocol.validate.Rejected` markers where they refused
   something so this step can report the path.  A frame whose parse and whose text or
   bytes already rule all that out (most frames) skips it: see :class:`_Doubts`.
3. *Read*: the envelope ``{"v", "type", "seq", "body"}``, then the body through the
   message's declaration (:func:`protocol.wire.read`: msgspec's compiled validator).

Once the envelope's ``seq`` is readable, every later error carries it in
:attr:`ProtocolError.seq`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, TypeAlias, TypeVar

import msgpack
import msgspec

from protocol.errors import ProtocolError
from protocol.messages import CLIENT_MESSAGE_TYPES, ClientMessage
from protocol.server_messages import SERVER_MESSAGE_TYPES, ServerMessage
from protocol.validate import (
    MAX_ARRAY_LEN,
    MAX_DEPTH,
    MAX_MAP_LEN,
    Rejected,
    check_seq,
    checked_tree,
    key_segment,
    show,
)
from protocol.wire import ClientWire, read
from protocol.wire import prepare as prepare_wire

#: The protocol version every envelope's ``v`` must equal.
PROTOCOL_VERSION: Final = 1
#: Largest inbound frame, in bytes (UTF-8 bytes for text frames).
MAX_FRAME_BYTES: Final = 65536
#: Longest JSON integer literal, in digits. 20 digits hold every int64; refusing
#: longer ones before ``int()`` keeps a 5,000-digit number from costing CPU.
MAX_INT_DIGITS: Final = 20
ENVELOPE_KEYS: Final = ("v", "type", "seq", "body")

_JSON: Final = msgspec.json.Encoder()
_MSGPACK: Final = msgspec.msgpack.Encoder()

#: Any message, either direction (a command derived from the engine's declaration,
#: ``protocol.commands``, is a ``ClientWire`` outside the hand-declared union).
Message: TypeAlias = ClientMessage | ServerMessage | ClientWire
M = TypeVar("M", bound=Message)

# A JSON string (closing quote optional, so an unterminated one is still linear) or
# a bracket. Used only to count nesting depth before json.loads sees the text.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


# -- step 1: parse --------------------------------------------------------------------


def _json_tokens(text: str) -> Iterator[tuple[int, str, int]]:
    """Each string and bracket of a JSON text: its depth, itself and where it ends."""
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        depth -= token in ("]", "}")
        yield depth, token, match.end()
        depth += token in ("[", "{")


def _check_json_depth(text: str, max_depth: int) -> None:
    # Cheap bound first: a frame with few brackets cannot be too deep.
    if text.count("[") + text.count("{") > max_depth and any(
        depth >= max_depth and token in ("[", "{") for depth, token, _ in _json_tokens(text)
    ):
        raise ProtocolError("too_deep", f"nesting deeper than {max_depth}")


class _Doubts:
    """One parse's hooks: a :class:`Rejected` marker where they refuse a value (a duplicate
    key, which both parsers would let the last win; a 5,000-digit integer), and in
    ``found`` whether the scan has anything to judge (a marker, a number maybe out of
    range, a map over its limit, or what :func:`_doubted` saw in the frame)."""

    def __init__(self, found: bool) -> None:
        self.found = found

    def pairs(self, pairs: list[tuple[Any, Any]]) -> dict[Any, Any] | Rejected:
        out = dict(pairs)
        if len(out) == len(pairs) <= MAX_MAP_LEN:
            return out
        self.found = True
        seen: set[Any] = set()
        for key, _ in pairs:
            if key in seen:
                return Rejected("duplicate_key", f"duplicate key {show(key)}", key=str(key))
            seen.add(key)
        return out

    def integer(self, text: str) -> int | Rejected:
        digits = len(text.lstrip("-"))
        self.found |= digits > 18  # 19 digits may leave int64
        if digits > MAX_INT_DIGITS:
            return Rejected("bad_value", f"integer of {digits} digits is too long")
        return int(text)

    def real(self, text: str) -> float:
        value = float(text)  # 1e400 is inf; NaN and Infinity come here too
        self.found |= not math.isfinite(value)
        return value


def _parse_json(text: str, max_depth: int, doubts: _Doubts) -> object:
    _check_json_depth(text, max_depth)
    try:
        return json.loads(
            text,
            object_pairs_hook=doubts.pairs,
            parse_constant=doubts.real,
            parse_float=doubts.real,
            parse_int=doubts.integer,
        )
    except json.JSONDecodeError as exc:
        raise ProtocolError(
            "invalid_json", f"invalid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})"
        ) from None


def _refuse_ext(code: int, data: bytes) -> object:
    raise ProtocolError("bad_type", f"msgpack extension type {code} is not allowed")


def _parse_msgpack(data: bytes, max_bytes: int, doubts: _Doubts) -> object:
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=max_bytes,
            max_bin_len=0,
            max_array_len=MAX_ARRAY_LEN,
            max_map_len=MAX_MAP_LEN,
            max_ext_len=0,
            ext_hook=_refuse_ext,
            object_pairs_hook=doubts.pairs,
        )
    except ProtocolError:
        raise
    except msgpack.ExtraData:
        raise ProtocolError("invalid_msgpack", "trailing bytes after the message") from None
    except msgpack.StackError:
        raise ProtocolError("too_deep", f"nesting deeper than {MAX_DEPTH}") from None
    except UnicodeDecodeError as exc:
        raise ProtocolError("invalid_msgpack", f"invalid UTF-8 in a string: {exc}") from None
    except ValueError as exc:
        # msgpack reports limits only through the message text ("5 exceeds max_ext_len(0)").
        text = str(exc)
        if "max_ext_len" in text:
            raise ProtocolError("bad_type", "msgpack extension types are not allowed") from None
        if "max_bin_len" in text:
            raise ProtocolError("bad_type", "binary values are not allowed") from None
        if "exceeds max_" in text:
            raise ProtocolError("too_large", f"msgpack {text}") from None
        if "map key" in text:
            raise ProtocolError("bad_type", f"map keys must be strings ({text})") from None
        raise ProtocolError(
            "invalid_msgpack", f"invalid msgpack: {text or type(exc).__name__}"
        ) from None
    except Exception as exc:
        # The C unpacker may raise TypeError, OverflowError, ... on hostile input; the
        # promise is "only ProtocolError", so anything else is malformed msgpack too.
        raise ProtocolError("invalid_msgpack", f"invalid msgpack: {exc!r}") from None


# msgpack tags whose values only the scan can judge: binary (bin 8/16/32), floats (32,
# 64), ints that may leave int64 (uint 64, int 64); and the bytes that may open a map or
# an array (fixmap, fixarray, array 16/32, map 16/32), at least as many as the nesting.
_MSGPACK_DOUBTS: Final = re.compile(rb"[\xc4-\xc6\xca\xcb\xcf\xd3]")
_NOT_CONTAINERS: Final = bytes(
    b for b in range(256) if not (0x80 <= b <= 0x9F or 0xDC <= b <= 0xDF)
)


def _doubted(frame: bytes | bytearray | memoryview | str, max_depth: int) -> bool:
    """Whether the frame's text or bytes leave room for what the parsers let through and
    the scan refuses.  JSON: non-ASCII (a lone surrogate), a ``\\u`` escape (one written
    as an escape), a text long enough for a list over :data:`MAX_ARRAY_LEN`; its depth is
    pre-scanned.  msgpack: a tag above, or more container headers than ``max_depth``."""
    if isinstance(frame, str):
        return not frame.isascii() or "\\u" in frame or len(frame) > 2 * MAX_ARRAY_LEN
    data = bytes(frame)
    too_deep = len(data.translate(None, _NOT_CONTAINERS)) > max_depth
    return too_deep or _MSGPACK_DOUBTS.search(data) is not None


def _check_size(frame: bytes | bytearray | memoryview | str, max_bytes: int) -> None:
    if isinstance(frame, str):
        size = len(frame)
        # A str of n characters is n..4n UTF-8 bytes; encode only when it matters.
        # surrogatepass: a lone surrogate is refused later, with its path.
        if size <= max_bytes < 4 * size:
            size = len(frame.encode("utf-8", "surrogatepass"))
    else:
        size = memoryview(frame).nbytes
    if size > max_bytes:
        raise ProtocolError("too_large", f"frame of {size} bytes > {max_bytes}")


def parse_frame(
    frame: bytes | bytearray | memoryview | str,
    *,
    max_bytes: int = MAX_FRAME_BYTES,
    max_depth: int = MAX_DEPTH,
) -> object:
    """Parse a frame into a checked JSON-safe tree (steps 1 and 2), without reading
    the envelope. ``str`` is JSON, bytes-like is msgpack."""
    if not isinstance(frame, str | bytes | bytearray | memoryview):
        # The caller's bug, not the peer's: not a ProtocolError.
        raise TypeError(f"frame must be str or bytes, got {type(frame).__name__}")
    _check_size(frame, max_bytes)
    doubts = _Doubts(_doubted(frame, max_depth))
    if isinstance(frame, str):
        try:
            tree = _parse_json(frame, max_depth, doubts)
        except ProtocolError as exc:
            # Too deep, or broken further on: the envelope's seq may still be readable.
            exc.seq = _peek_json_seq(frame)
            raise
    else:
        data = bytes(frame)
        try:
            tree = _parse_msgpack(data, max_bytes, doubts)
        except ProtocolError as exc:
            # The tree was refused whole (a list over its limit, say), yet the envelope's
            # seq may still be readable: the refusal then names the message it answers.
            exc.seq = _peek_msgpack_seq(data)
            raise
    if not doubts.found:
        return tree
    try:
        return checked_tree(tree, max_depth=max_depth)
    except ProtocolError as exc:
        exc.seq = _peek_seq(tree)
        raise


_SEQ_VALUE = re.compile(r"\s*:\s*(\d{1,16})\s*[,}]")


def _peek_json_seq(text: str) -> int | None:
    """The envelope's ``seq`` of a JSON frame that failed to parse: the value of a
    ``"seq"`` key at the top level, found with the depth scan's tokens (strings and
    brackets, so a ``"seq"`` inside the body or inside a string does not count)."""
    for depth, token, end in _json_tokens(text):
        if depth == 1 and token == '"seq"':
            value = _SEQ_VALUE.match(text, end)
            return None if value is None else _peek_seq({"seq": int(value.group(1))})
    return None


def _peek_msgpack_seq(data: bytes) -> int | None:
    """The envelope's ``seq`` of a msgpack frame that failed to parse, read key by key
    without building the values before it (skipped); None when it cannot be read."""
    unpacker = msgpack.Unpacker(
        raw=False, max_buffer_size=len(data) or 1, max_bin_len=0, max_ext_len=0
    )
    try:
        unpacker.feed(data)
        for _ in range(unpacker.read_map_header()):
            key = unpacker.unpack()
            if key == "seq":
                return _peek_seq({"seq": unpacker.unpack()})
            unpacker.skip()
    except Exception:  # whatever stops the reading, the seq is simply not known
        return None
    return None


def _is_array(frame: bytes | str) -> bool:
    """Whether a frame holds an array at its top: a batch frame."""
    if isinstance(frame, str):
        return frame.lstrip()[:1] == "["
    # msgpack fixarray (0x90-0x9f), array 16 (0xdc), array 32 (0xdd)
    return isinstance(frame, bytes) and frame[:1] in _ARRAY_TAGS


_ARRAY_TAGS: Final = {bytes([tag]) for tag in (*range(0x90, 0xA0), 0xDC, 0xDD)}


# -- step 3: read ---------------------------------------------------------------------


def _peek_seq(tree: object) -> int | None:
    try:  # the envelope's seq if it is one, before anything else is read
        return check_seq(tree.get("seq")) if isinstance(tree, dict) else None
    except ProtocolError:
        return None


def _from_wire(obj: object, registry: Mapping[str, type[M]], side: str) -> M:
    seq = _peek_seq(obj)
    try:
        if type(obj) is not dict and not isinstance(obj, Mapping):
            raise ProtocolError("not_a_map", f"expected a map envelope, got {show(obj)}")
        # The version first: a future version may change every other key.
        if "v" not in obj:
            raise ProtocolError("missing_field", "missing field 'v'", path="v")
        version = obj["v"]
        if isinstance(version, bool) or not isinstance(version, int):
            raise ProtocolError("bad_type", f"expected an integer, got {show(version)}", path="v")
        if version != PROTOCOL_VERSION:
            raise ProtocolError(
                "unsupported_version",
                f"protocol version {version} is not supported (this side speaks "
                f"{PROTOCOL_VERSION})",
                path="v",
            )
        for key in obj:
            if key not in ENVELOPE_KEYS:
                where = key_segment(key) if isinstance(key, str) else ""
                raise ProtocolError(
                    "unknown_field", f"unknown envelope field {show(key)}", path=where
                )
        for key in ENVELOPE_KEYS:
            if key not in obj:
                raise ProtocolError("missing_field", f"missing field {key!r}", path=key)
        kind = obj["type"]
        if not isinstance(kind, str):
            raise ProtocolError("bad_type", f"expected a string, got {show(kind)}", path="type")
        cls = registry.get(kind)
        if cls is None:
            raise ProtocolError(
                "unknown_type", f"unknown {side} message type {show(kind)}", path="type"
            )
        message_seq = check_seq(obj["seq"])
        try:
            return read(cls, obj["body"], seq=message_seq)
        except ProtocolError as exc:
            exc.prefix("body")
            raise
    except ProtocolError as exc:
        exc.seq = seq
        raise


def client_from_wire(obj: object) -> ClientMessage:
    """Read a client message from its wire map (the inverse of :func:`to_wire`)."""
    return _from_wire(obj, CLIENT_MESSAGE_TYPES, "client")


def server_from_wire(obj: object) -> ServerMessage:
    """Read a server message from its wire map (the inverse of :func:`to_wire`)."""
    return _from_wire(obj, SERVER_MESSAGE_TYPES, "server")


def prepare() -> None:
    """Work out now what reading and writing every message kind needs
    (:func:`protocol.wire.prepare`): a server calls it as it starts, so that the first
    join or command of each kind does not hold its loop up for it."""
    for cls in (*CLIENT_MESSAGE_TYPES.values(), *SERVER_MESSAGE_TYPES.values()):
        prepare_wire(cls)


def decode_client(frame: bytes | str, *, max_bytes: int = MAX_FRAME_BYTES) -> ClientMessage:
    """Decode a frame a client sent: ``str`` (text frame) as JSON, ``bytes`` (binary
    frame) as msgpack. Raises :class:`ProtocolError` and nothing else for bad input."""
    return client_from_wire(parse_frame(frame, max_bytes=max_bytes))


def decode_server(frame: bytes | str, *, max_bytes: int = MAX_FRAME_BYTES) -> ServerMessage:
    """Decode a frame a server sent; see :func:`decode_client`. A client expecting large
    ``state`` frames may raise ``max_bytes``."""
    return server_from_wire(parse_frame(frame, max_bytes=max_bytes))


def decode_server_frame(
    frame: bytes | str, *, max_bytes: int = MAX_FRAME_BYTES
) -> list[ServerMessage]:
    """Every message in a frame a server sent, in order.

    A client that joined with ``batch`` may be sent a *batch frame*: an array of 1 to
    :data:`MAX_BATCH` envelopes instead of one envelope (:func:`encode_batch`).  This
    reads both kinds; a bad envelope's error path starts with its index, ``[2].body``.
    """
    # The array is one level more: each envelope in it may still nest MAX_DEPTH deep.
    depth = MAX_DEPTH + 1 if _is_array(frame) else MAX_DEPTH
    tree = parse_frame(frame, max_bytes=max_bytes, max_depth=depth)
    if not isinstance(tree, list):
        return [server_from_wire(tree)]
    if not 1 <= len(tree) <= MAX_BATCH:
        raise ProtocolError("bad_value", f"a batch frame holds 1..{MAX_BATCH} messages")
    messages = []
    for i, item in enumerate(tree):
        try:
            messages.append(server_from_wire(item))
        except ProtocolError as exc:
            exc.prefix(f"[{i}]")
            raise
    return messages


# -- encoding -------------------------------------------------------------------------


def to_wire(message: Message) -> dict[str, Any]:
    """The message's envelope map, JSON-safe: ``{"v", "type", "seq", "body"}``."""
    return {**_envelope(message), "body": message.to_body()}


def _envelope(message: Message) -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "type": message.TYPE, "seq": message.seq, "body": message.body()}


def encode_json(message: Message) -> str:
    """The message as a compact JSON text frame (UTF-8, not ASCII escapes: the frame is
    sent as UTF-8 anyway, and escapes would count six bytes a character)."""
    return _JSON.encode(_envelope(message)).decode("utf-8")


def encode_msgpack(message: Message) -> bytes:
    """The message as a msgpack binary frame."""
    return _MSGPACK.encode(_envelope(message))


def encode(message: Message, *, binary: bool) -> bytes | str:
    """The message as a binary (msgpack) frame if ``binary``, else a text (JSON) frame.

    Encoding does not enforce :data:`MAX_FRAME_BYTES`: that limit guards the
    receiver, and a large ``state`` may legitimately exceed it.
    """
    return encode_msgpack(message) if binary else encode_json(message)


#: The most messages a server puts in one batch frame.
MAX_BATCH: Final = 256
_ARRAY_HEADER = msgpack.Packer()


def encode_batch(frames: Sequence[bytes | str]) -> bytes | str:
    """One batch frame of already encoded messages (all msgpack, or all JSON), in order.

    The frames are spliced, not decoded and re-encoded: a msgpack array header before
    the msgpack maps, or ``[``, commas and ``]`` around the JSON texts.  The result is
    exactly the encoding of the array of their envelopes.  Holds 1 to :data:`MAX_BATCH`.
    """
    if not 1 <= len(frames) <= MAX_BATCH:
        raise ValueError(f"a batch frame holds 1..{MAX_BATCH} messages, got {len(frames)}")
    texts = [f for f in frames if isinstance(f, str)]
    if len(texts) == len(frames):
        return "[" + ",".join(texts) + "]"
    blobs = [f for f in frames if isinstance(f, bytes)]
    if len(blobs) != len(frames):
        raise ValueError("a batch frame is all msgpack or all JSON")
    header: bytes = _ARRAY_HEADER.pack_array_header(len(blobs))
    return header + b"".join(blobs)
