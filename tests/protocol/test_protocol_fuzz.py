"""Whatever arrives, decoding either returns a message or raises ProtocolError."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import msgpack
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from protocol import (
    CLIENT_MESSAGE_TYPES,
    SERVER_MESSAGE_TYPES,
    ProtocolError,
    decode_client,
    decode_server,
)

# Surrogates included: a text frame can hold anything a Python str can.
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=300)

JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=10)
    | st.binary(max_size=4),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(), children, max_size=4)
    ),
    max_leaves=25,
)

# Bodies made of the right field names with arbitrary values exercise the validators.
FIELD_NAMES = sorted(
    {
        "token", "last_event", "scene", "grid", "tokens", "kind", "cell_size", "unit", "width",
        "height", "id", "name", "owner", "side", "x", "y", "size", "reach", "movement", "stats",
        "ruleset", "aware", "seed", "path", "prompt", "accept", "rolls", "after", "table",
        "participant", "role", "protocol", "server", "ref", "first_event", "code", "message",
        "index", "data", "attacker", "target", "at", "exit_point", "deadline_ms", "state",
    }
)  # fmt: skip
BODYISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(FIELD_NAMES), children, max_size=10)
    ),
    max_leaves=30,
)
TYPES = st.sampled_from(sorted({*CLIENT_MESSAGE_TYPES, *SERVER_MESSAGE_TYPES}))


def decode_both(frame: bytes | str) -> None:
    for decode in (decode_client, decode_server):
        with contextlib.suppress(ProtocolError):
            decode(frame)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
@example(b"\xdd\x80\x00\x00\x00")
@example(b"\x91" * 5000)
def test_arbitrary_bytes(frame: bytes) -> None:
    decode_both(frame)


@settings(max_examples=500)
@given(ANY_TEXT)
@example("[" * 5000)
@example('"' + "\\" * 5000)
@example("\ud800")
def test_arbitrary_text(frame: str) -> None:
    decode_both(frame)


@settings(max_examples=300)
@given(JSONISH)
def test_arbitrary_msgpack_values(value: Any) -> None:
    try:
        frame = msgpack.packb(value, use_bin_type=True)
    except (OverflowError, ValueError):
        return  # ints msgpack cannot pack
    decode_both(frame)


@settings(max_examples=1000)
@given(TYPES, st.integers(-1, 2**54), BODYISH, st.booleans())
def test_well_formed_envelopes_with_arbitrary_bodies(
    type_: str, seq: int, body: Any, binary: bool
) -> None:
    wire = {"v": 1, "type": type_, "seq": seq, "body": body}
    frame: bytes | str
    if binary:
        try:
            frame = msgpack.packb(wire, use_bin_type=True)
        except (OverflowError, ValueError):
            return
    else:
        frame = json.dumps(wire)
    decode_both(frame)


@settings(max_examples=300)
@given(st.data())
def test_mutated_valid_frames(data: st.DataObject) -> None:
    frame = bytearray(
        msgpack.packb(
            {"v": 1, "type": "move", "seq": 3, "body": {"token": "a", "path": [[1, 2], [3, 4]]}}
        )
    )
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(frame) - 1))
        frame[index] = data.draw(st.integers(0, 255))
    decode_both(bytes(frame))
