"""One message for many connections: encoded once, numbered per connection.

A broadcast sends each event to every member of a table under that member's own
``seq``.  Building and encoding the event once per member is most of a broadcast's cost,
so :class:`Shared` encodes the envelope's ``body`` once per frame kind and splices each
member's ``seq`` in.  The bytes are exactly what :func:`protocol.encode_msgpack` and
:func:`protocol.encode_json` produce for the renumbered message (the envelope's keys are
written in the same order); ``tests/bridge/test_fanout.py`` checks it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import msgpack
import msgspec

import protocol


def _packb(value: Any) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


# One packer for the loop thread's per-member counters: ``msgpack.packb`` builds a new
# Packer per call, which cost more than the rest of splicing a member's frame.
_pack: Callable[[Any], bytes] = msgpack.Packer(use_bin_type=True).pack


# The envelope up to ``seq``'s value, and the key after it: ``{"v": 1, "type": "event",
# "seq": <seq>, "body": <body>}`` as a msgpack map of four.
_HEAD = (
    b"\x84"
    + _packb("v")
    + _packb(protocol.PROTOCOL_VERSION)
    + _packb("type")
    + _packb(protocol.Event.TYPE)
    + _packb("seq")
)
_BODY_KEY = _packb("body")
# msgspec writes the body straight from the struct's fields, the same bytes as packing
# ``to_body()`` (which would build the builtins first) with msgpack.
_BODY_ENCODER = msgspec.msgpack.Encoder()


class Shared:
    """A server message sent to several connections, each under its own ``seq``."""

    __slots__ = ("_json", "_msgpack", "message")

    def __init__(self, message: protocol.Event) -> None:
        # Only events are broadcast; _HEAD is theirs.
        self.message = message
        self._msgpack: bytes | None = None
        self._json: str | None = None

    def numbered(self, seq: int) -> protocol.Event:
        """The message itself under ``seq`` (for recordings and in-process sinks)."""
        return self.message.renumbered(seq)

    def encode_msgpack(self, seq: int) -> bytes:
        """``protocol.encode_msgpack(self.numbered(seq))``, without rebuilding it."""
        if self._msgpack is None:
            self._msgpack = _BODY_ENCODER.encode(self.message.body())
        return _HEAD + _pack(seq) + _BODY_KEY + self._msgpack

    def encode_json(self, seq: int) -> str:
        """``protocol.encode_json(self.numbered(seq))``, without rebuilding it."""
        if self._json is None:
            self._json = json.dumps(
                self.message.to_body(), separators=(",", ":"), allow_nan=False, ensure_ascii=False
            )
        kind = json.dumps(self.message.TYPE)
        return f'{{"v":{protocol.PROTOCOL_VERSION},"type":{kind},"seq":{seq},"body":{self._json}}}'
