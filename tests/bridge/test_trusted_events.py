"""The hub builds ``ack`` and ``event`` without re-checking them (``ServerWire.trusted``):
that is safe only while what it passes is exactly what the checked constructor would
store.  These tests hold every event the engine emits to it: random command sequences
(the engine fuzz test's), every event of every golden bridge recording, and the events a
catch-up reads from an older release's log, upgraded.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protocol
from engine import CommandRejected
from tests.engine.helpers import fight, token
from tests.engine.test_engine_fuzz import COMMANDS, _concrete
from tests.golden import RECORDINGS, recorded_events
from vtt_bridge.store import Store
from vtt_bridge.translate import event_to_plain


def assert_trusted_equals_checked(index: int, event: dict[str, Any]) -> None:
    """The trusted event equals its checked twin (which raises on anything unsafe; its
    data, the kind's typed body, reads back as lists, so a tuple would make them differ)
    and its frames decode to that twin.  (The bytes may differ in key order alone: an
    event read back from the log has its keys sorted, a typed body writes them in field
    order.)"""
    fields = {"seq": 1, "index": index, "kind": event["kind"], "data": event["data"]}
    trusted = protocol.Event.trusted(**fields)
    checked = protocol.Event(**fields)
    assert protocol.to_wire(checked)["body"]["data"] == trusted.data, event
    assert protocol.decode_server(protocol.encode_msgpack(trusted)) == checked
    assert protocol.decode_server(protocol.encode_json(trusted)) == checked


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands=st.lists(COMMANDS, min_size=1, max_size=30))
def test_every_event_of_random_commands_is_in_wire_form(commands: list[object]) -> None:
    encounter = fight(
        token("hero", 2, 2, owner="alice", init=14, extra={"end": 20, "stun": 20, "rec": 4}),
        token("elf", 2, 4, owner="bob", init=12, movement=1.0),
        token("ogre", 3, 3, init=12, reach=2.0, reflexes=True),
        token("wolf", 6, 6, init=8, extra={"end": 10, "stun": 10, "rec": 2}),
        size=9,
    )
    for raw in commands:
        try:
            events = encounter.apply(_concrete(encounter, raw))  # type: ignore[arg-type]
        except CommandRejected:
            continue
        for offset, event in enumerate(events):
            assert_trusted_equals_checked(offset, event_to_plain(event))


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
async def test_every_event_of_the_golden_recordings_is_in_wire_form(path: Path) -> None:
    events = await recorded_events(path)
    for index, event in enumerate(events):
        assert_trusted_equals_checked(index, event)


def test_every_upgraded_event_of_a_release_1_log_is_in_wire_form(tmp_path: Path) -> None:
    db = tmp_path / "db_v1.sqlite3"
    shutil.copy(Path(__file__).parents[1] / "fixtures" / "db_v1.sqlite3", db)
    store = Store(db)
    try:
        with contextlib.closing(sqlite3.connect(db)) as con:
            tables = [row[0] for row in con.execute("SELECT DISTINCT table_id FROM log")]
        assert tables, "the fixture has logged tables"
        for table_id in tables:
            events = store.events_between(table_id, 0, 2**31)
            assert events, table_id
            for index, event in enumerate(events):
                assert_trusted_equals_checked(index, event)
    finally:
        store.close()
