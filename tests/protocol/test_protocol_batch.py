"""Batch frames: several server messages in one frame, for clients that join with ``batch``."""

from __future__ import annotations

import enum
import json

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

import protocol
from protocol import (
    MAX_BATCH,
    Ack,
    Pong,
    ProtocolError,
    ServerMessage,
    decode_server_frame,
    encode,
    encode_batch,
    to_wire,
)
from tests.protocol.test_protocol_roundtrip import SERVER_MESSAGES


@pytest.mark.parametrize("binary", [False, True], ids=["json", "msgpack"])
@given(messages=st.lists(SERVER_MESSAGES, min_size=1, max_size=8))
def test_a_batch_frame_holds_its_messages_in_order(
    messages: list[ServerMessage], binary: bool
) -> None:
    frame = encode_batch([encode(m, binary=binary) for m in messages])
    assert isinstance(frame, bytes if binary else str)
    assert decode_server_frame(frame) == messages
    # Spliced, yet exactly the encoding of the array of envelopes.
    wire = [to_wire(m) for m in messages]
    if binary:
        assert isinstance(frame, bytes)
        assert msgpack.unpackb(frame) == msgpack.unpackb(msgpack.packb(wire))
    else:
        assert json.loads(frame) == json.loads(json.dumps(wire))


@pytest.mark.parametrize("binary", [False, True], ids=["json", "msgpack"])
@given(message=SERVER_MESSAGES)
def test_a_single_envelope_frame_reads_as_one_message(message: ServerMessage, binary: bool) -> None:
    assert decode_server_frame(encode(message, binary=binary)) == [message]


def test_the_bad_envelope_of_a_batch_is_named_by_index() -> None:
    good = protocol.encode_json(Pong(seq=1))
    bad = '{"v":1,"type":"ack","seq":2,"body":{"ref":"x","first_event":null,"last_event":null}}'
    with pytest.raises(ProtocolError) as caught:
        decode_server_frame(f"[{good},{good},{bad}]")
    assert caught.value.code == "bad_type"
    assert caught.value.path == "[2].body.ref"


@pytest.mark.parametrize("count", [0, MAX_BATCH + 1])
def test_a_batch_frame_holds_one_to_max_batch_messages(count: int) -> None:
    frame = "[" + ",".join([protocol.encode_json(Pong(seq=1))] * count) + "]"
    with pytest.raises(ProtocolError) as caught:
        decode_server_frame(frame, max_bytes=1 << 20)
    assert caught.value.code == "bad_value"
    with pytest.raises(ValueError, match=r"holds 1\.\."):
        encode_batch([protocol.encode_json(Pong(seq=1))] * count)


def test_a_batch_frame_is_all_msgpack_or_all_json() -> None:
    ack = Ack(seq=1, ref=1, first_event=None, last_event=None)
    with pytest.raises(ValueError, match="all msgpack or all JSON"):
        encode_batch([encode(ack, binary=True), encode(ack, binary=False)])


@pytest.mark.parametrize("binary", [False, True], ids=["json", "msgpack"])
def test_a_message_as_deep_as_allowed_also_decodes_in_a_batch(binary: bool) -> None:
    # The array is a level of its own: each envelope may nest as deep as it could alone.
    data: dict[str, object] = {"leaf": 1}
    for _ in range(protocol.server_messages.MAX_DATA_DEPTH - 1):
        data = {"k": data}
    deep = protocol.Event(seq=1, index=0, kind="deep", data=data)
    assert decode_server_frame(encode(deep, binary=binary)) == [deep]
    frame = encode_batch([encode(deep, binary=binary), encode(Pong(seq=2), binary=binary)])
    assert decode_server_frame(frame) == [deep, Pong(seq=2)]


def test_event_data_keeps_a_string_enum_as_its_value() -> None:
    class Color(str, enum.Enum):  # noqa: UP042 - the mix-in whose str() is not its value
        RED = "red"

    event = protocol.Event(seq=1, index=0, kind="painted", data={"color": Color.RED})
    assert json.loads(protocol.encode_json(event))["body"]["data"] == {"color": "red"}
    assert msgpack.unpackb(protocol.encode_msgpack(event))["body"]["data"] == {"color": "red"}
