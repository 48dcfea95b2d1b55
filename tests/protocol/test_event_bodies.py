"""Every event kind decodes into its typed body (``protocol.EVENT_BODIES``, written from
the engine's and the rulesets' declarations and registered by ``import protocol``) and
re-encodes to the bytes the server sent; a body that does not fit its kind is refused
with a path; a kind nobody registered stays a map."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protocol
import vtt_bridge
from protocol import Event, EventBody, ProtocolError, decode_server, decode_server_frame, encode
from tests.golden import RECORDINGS, recorded_events
from tests.protocol.strategies import for_struct
from tests.protocol_alone import protocol_alone
from vtt_bridge import event_types
from vtt_bridge.event_types import event_sources

MOVE = {"token": "hero", "start": [1, 1], "path": [[2, 1], [3, 1]], "mode": "combat"}


def frame(kind: str, data: dict[str, Any], *, seq: int = 5) -> str:
    body = {"index": 3, "kind": kind, "data": data}
    return json.dumps({"v": 1, "type": "event", "seq": seq, "body": body})


def refusal(text: str) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        decode_server(text)
    return info.value


def test_importing_the_bridge_registers_every_event_kind_it_sends() -> None:
    assert vtt_bridge.register_event_bodies is not None
    kinds = {cls.kind for _, cls in event_sources()}
    assert kinds == set(protocol.EVENT_BODIES)
    assert {body.KIND for body in protocol.EVENT_BODIES.values()} == kinds
    assert protocol.EVENT_BODIES["combatant_joined"].VERSION == 8  # a token's elevation
    assert protocol.EVENT_BODIES["token_placed"].VERSION == 1


def test_the_protocol_alone_reads_every_event_kind_typed() -> None:
    # A Python client imports the protocol alone: no engine, no server, yet every kind's
    # body is registered, the very struct the bridge then uses.
    assert protocol_alone("sorted(protocol.EVENT_BODIES)") == str(
        sorted(cls.kind for _, cls in event_sources())
    )
    for _, cls in event_sources():
        assert protocol.EVENT_BODIES[cls.kind] is event_types.event_body(cls)


def test_the_written_bodies_are_what_the_bridge_derives() -> None:
    # Each written body has the kind, version, fields, types and defaults the bridge
    # derives from its event's dataclass (the tool's drift check compares the source too).
    for _, cls in event_sources():
        written, fresh = protocol.EVENT_BODIES[cls.kind], event_types.derived_body(cls)
        assert (written.KIND, written.VERSION, written.LATER, written.__doc__) == (
            fresh.KIND, fresh.VERSION, fresh.LATER, fresh.__doc__
        )  # fmt: skip
        assert _fields(written) == _fields(fresh), cls.kind


def _fields(struct: type) -> str:
    """``struct``'s fields, types and defaults, nested structs by name."""
    info = repr(msgspec.inspect.type_info(struct).fields)  # type: ignore[attr-defined]
    return re.sub(r"<class '[\w.]+\.(\w+)'>", r"\1", info)


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
async def test_every_recorded_event_decodes_typed_and_re_encodes_to_the_same_bytes(
    path: Path,
) -> None:
    events = await recorded_events(path)
    for index, event in enumerate(events):
        # What the server sends: its own map, untouched (ServerWire.trusted).
        sent = Event.trusted(seq=index + 1, index=index, kind=event["kind"], data=event["data"])
        for binary in (False, True):
            wire = encode(sent, binary=binary)
            decoded = decode_server(wire)
            assert isinstance(decoded, Event)
            assert isinstance(decoded.data, EventBody), event["kind"]
            assert event["kind"] == decoded.data.KIND
            assert encode(decoded, binary=binary) == wire
            assert protocol.to_wire(decoded) == protocol.to_wire(sent)


def test_a_typed_body_reads_as_its_fields() -> None:
    event = decode_server(frame("move_started", MOVE))
    assert isinstance(event, Event)
    body = event.data
    assert type(body) is protocol.EVENT_BODIES["move_started"]
    assert body.token == "hero" and body.start == (1, 1)  # type: ignore[attr-defined]
    assert body.path == ((2, 1), (3, 1)) and body.mode == "combat"  # type: ignore[attr-defined]
    assert protocol.to_wire(event)["body"]["data"] == MOVE


def test_an_event_built_in_python_takes_its_body_or_its_map() -> None:
    body = protocol.EVENT_BODIES["move_started"](**MOVE)
    from_body = Event(seq=1, index=3, kind="move_started", data=body)  # type: ignore[arg-type]
    from_map = Event(seq=1, index=3, kind="move_started", data=MOVE)
    assert from_body == from_map and from_map.data == body
    assert decode_server(encode(from_map, binary=True)) == from_map
    # The server's own map stays a map, and still encodes the same.
    trusted = Event.trusted(seq=1, index=3, kind="move_started", data=MOVE)
    assert trusted.data is MOVE
    assert encode(trusted, binary=False) == encode(from_body, binary=False)


def test_a_kind_nobody_registered_stays_a_map() -> None:
    data = {"anything": [1, 2], "goes": {"here": None}}
    event = decode_server(frame("from_a_newer_server", data))
    assert isinstance(event, Event) and event.data == data


@pytest.mark.parametrize(
    ("data", "code", "path"),
    [
        ({**MOVE, "start": [1, "x"]}, "bad_type", "body.data.start[1]"),
        ({**MOVE, "path": [[2, 1], [3]]}, "bad_value", "body.data.path[1]"),
        ({k: v for k, v in MOVE.items() if k != "mode"}, "missing_field", "body.data.mode"),
        ({**MOVE, "speed": 3}, "unknown_field", "body.data.speed"),
        ({**MOVE, "token": None}, "bad_type", "body.data.token"),
    ],
)
def test_a_body_that_does_not_fit_its_kind_is_refused_with_its_path(
    data: dict[str, Any], code: str, path: str
) -> None:
    error = refusal(frame("move_started", data, seq=9))
    assert (error.code, error.path, error.seq) == (code, path, 9)


def test_a_nested_body_is_checked_to_the_leaf() -> None:
    token = {"id": "nix", "name": "Nix", "owner": "gm", "side": "gang", "x": 1, "y": 2}
    token |= {"size": 1, "reach": 2.0, "movement": 0.0, "stats": {"ref": 7, "bad": [1]}}
    data = {"combatant": "nix", "score": 14, "token": token}
    error = refusal(frame("combatant_joined", data))
    assert (error.code, error.path) == ("bad_type", "body.data.token.stats.bad")


def test_a_bad_body_in_a_batch_frame_names_its_envelope() -> None:
    good = json.loads(frame("move_started", MOVE, seq=1))
    bad = json.loads(frame("move_started", {**MOVE, "mode": 3}, seq=2))
    with pytest.raises(ProtocolError) as info:
        decode_server_frame(json.dumps([good, bad]))
    assert (info.value.code, info.value.path) == ("bad_type", "[1].body.data.mode")


@pytest.mark.parametrize("kind", sorted(protocol.EVENT_BODIES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_event_body_round_trips(kind: str, data: st.DataObject) -> None:
    body = data.draw(for_struct(protocol.EVENT_BODIES[kind]))
    event = Event(seq=1, index=0, kind=kind, data=body)  # type: ignore[arg-type]
    for binary in (False, True):
        wire = encode(event, binary=binary)
        assert decode_server(wire) == event
        assert encode(decode_server(wire), binary=binary) == wire
