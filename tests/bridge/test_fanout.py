"""A broadcast encoded once is byte for byte what the protocol's encoders write."""

from __future__ import annotations

from typing import Any

import pytest

import protocol
from vtt_bridge.fanout import Shared

DATA: list[dict[str, Any]] = [
    {},  # an event without details
    {"token": "hero", "path": [[4, 4], [5, 4]], "cost": 10.0},  # lists and floats
    {"name": "Ögre — 鬼", "emoji": "🐉", "quote": 'a "b" \\ c'},  # non-ASCII and escapes
    {"nested": {"deep": [{"x": None, "y": True, "z": -(2**62)}]}},  # nulls, bools, big ints
]


@pytest.mark.parametrize("data", DATA, ids=["empty", "lists", "unicode", "nested"])
@pytest.mark.parametrize("seq", [1, 127, 128, 65_536, 2**53 - 1])
def test_shared_encoding_equals_the_protocol_encoders(data: dict[str, Any], seq: int) -> None:
    shared = Shared(protocol.Event(seq=0, index=7, kind="moved", data=data))
    message = shared.numbered(seq)
    assert shared.encode_msgpack(seq) == protocol.encode_msgpack(message)
    assert shared.encode_json(seq) == protocol.encode_json(message)
    assert protocol.decode_server(shared.encode_msgpack(seq)) == message
