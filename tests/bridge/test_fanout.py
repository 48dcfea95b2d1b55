"""A broadcast encoded once is byte for byte what the protocol's encoders write."""

from __future__ import annotations

from typing import Any

import pytest

import protocol
from vtt_bridge.fanout import Shared, encode

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


@pytest.mark.parametrize("seq", [1, 127, 128, 255, 256, 65_535, 65_536, 2**32, 2**53 - 1])
@pytest.mark.parametrize("bounds", [(None, None), (0, 0), (5, 9), (127, 128), (70_000, 2**40)])
def test_an_ack_spliced_from_its_counters_equals_the_protocol_encoders(
    seq: int, bounds: tuple[int | None, int | None]
) -> None:
    ack = protocol.Ack(seq=seq, ref=seq // 3 + 1, first_event=bounds[0], last_event=bounds[1])
    assert encode(ack, True) == protocol.encode_msgpack(ack)
    assert encode(ack, False) == protocol.encode_json(ack)
    assert protocol.decode_server(encode(ack, True)) == ack


def test_other_messages_go_through_the_protocol_encoders() -> None:
    pong = protocol.Pong(seq=3)
    assert encode(pong, True) == protocol.encode_msgpack(pong)
    assert encode(pong, False) == protocol.encode_json(pong)
