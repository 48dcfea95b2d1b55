"""A log written before each game had its own clock starts here, in each game's words.

``tests/fixtures/db_v6.sqlite3`` was written by the release before (rules version 5,
wire version 6; ``tests/fixtures/make_db_v6.py``): the golden Cyberpunk RED and M&M
fights, whose events said ``phase_started {turn, phase}`` and ``turn``/``phase`` on
``combatant_acts`` as if every game were the Hero supplement.  Started under this
release, every logged command replays to the events it logged once those are upgraded
(no divergence), and a member catching up, from the memory window or from the log, is
sent Rounds: ``pass_started {clock: {at: {round: n}, label: "Round n"}}``.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import token_of
from tests.wsclient import TableClient, wire_data
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.hub import Hub
from vtt_bridge.store import Store

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "db_v6.sqlite3"
#: The fixture's tables and what each fight's clock counts.
TABLES = {"cpr": "cyberpunk-red", "mm": "mm3e"}


def _copy(tmp_path: Path) -> Path:
    db = tmp_path / "db.sqlite3"
    shutil.copy(FIXTURE, db)
    return db


def _logged_kinds(db: Path) -> set[str]:
    """Every event kind the file logged, read with plain SQL."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT events FROM log").fetchall()
    con.close()
    return {
        kind for (events,) in rows for kind in ("phase_started", "pass_started") if kind in events
    }


def test_the_fixture_holds_the_old_shape() -> None:
    assert _logged_kinds(FIXTURE) == {"phase_started"}


def test_every_logged_command_replays_to_its_upgraded_events(tmp_path: Path) -> None:
    hub = Hub(Store(_copy(tmp_path)), verify_log=True)
    try:
        for name in TABLES:
            table = hub.table_by_name(name)
            assert table is not None
            assert not hub.load_reports[table.id].divergences
            # --verify-log replays every logged command from nothing and compares its
            # events with the logged ones, upgraded in the fight's ruleset's words.
            verified = hub.verified[table.id]
            assert verified.divergences == []
            assert verified.full_hash == verified.loaded_hash
    finally:
        hub.close()


async def _catch_up(db: Path, name: str) -> list[protocol.Event]:
    """The events a GM joining ``name`` from nothing is sent."""
    app = create_app(Config(database=db))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        table = app[HUB].table_by_name(name)
        assert table is not None
        member = await TableClient.connect(http, str(server.make_url("/ws")))
        await member.join(token_of(table, "gm"), last_event=-1)
        last = table.last_event()
        while not any(isinstance(m, protocol.Event) and m.index == last for m in member.inbox):
            await member.next()
        await member.close()
        return [m for m in member.inbox if isinstance(m, protocol.Event)]


@pytest.mark.parametrize("name", sorted(TABLES))
async def test_a_catch_up_says_rounds(tmp_path: Path, name: str) -> None:
    # The fights were snapshotted every 10 commands: at start-up the window before the
    # snapshot is read back from the log (Store.events_between, which finds the fight's
    # ruleset in the log), the rest replayed; both are upgraded.
    events = await _catch_up(_copy(tmp_path), name)
    assert events and not [e for e in events if e.kind == "phase_started"]
    (started,) = [wire_data(e) for e in events if e.kind == "combat_started"]
    assert started["ruleset"] == TABLES[name]
    assert started["time"]["units"][0]["key"] == "round"
    passes = [wire_data(e) for e in events if e.kind == "pass_started"]
    labels = [p["clock"]["label"] for p in passes]
    first = 0 if passes[0]["surprise"] else 1  # M&M's fight opens with a surprise round
    assert labels == [
        "Surprise Round" if n == 0 else f"Round {n}" for n in range(first, first + len(labels))
    ]
    assert [p["clock"]["at"] for p in passes] == [
        {"round": n} for n in range(first, first + len(labels))
    ]
    acts = [wire_data(e) for e in events if e.kind == "combatant_acts"]
    assert acts and all("turn" not in a and "phase" not in a for a in acts)
    assert {a["clock"]["label"] for a in acts} <= set(labels)
