"""Every message, generated from its declaration alone (tests/protocol/strategies.py),
survives encode -> decode over JSON and msgpack: a new message or field is covered
without a hand-written strategy."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import (
    CLIENT_MESSAGE_TYPES,
    SERVER_MESSAGE_TYPES,
    decode_client,
    decode_server,
    encode,
)
from tests.protocol.strategies import for_struct

SLOW = [HealthCheck.filter_too_much, HealthCheck.too_slow]


@pytest.mark.parametrize(
    "cls",
    [*CLIENT_MESSAGE_TYPES.values(), *SERVER_MESSAGE_TYPES.values()],
    ids=lambda c: c.TYPE,
)
@settings(max_examples=30, deadline=None, suppress_health_check=SLOW)
@given(data=st.data())
def test_declared_messages_round_trip(cls: type[Any], data: st.DataObject) -> None:
    message = data.draw(for_struct(cls))
    decode = decode_client if cls.TYPE in CLIENT_MESSAGE_TYPES else decode_server
    for binary in (False, True):
        assert decode(encode(message, binary=binary)) == message
