"""``vtt-bridge migrate``: a SQLite database moved into PostgreSQL, every table checked by
its log and by replaying it on both sides, then served from PostgreSQL as it was."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import aiohttp
import psycopg
from aiohttp.test_utils import TestServer

import protocol
from tests.bridges import ENV, ROOT
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.backup import ServerLock
from vtt_bridge.hub import Hub
from vtt_bridge.loading import full_replay_hash
from vtt_bridge.store import Store
from vtt_bridge.store_pg import PostgresStore

#: A database an older release wrote (rules and wire version 1): a Hero fight with
#: snapshots, a tail after them, an open prompt and stored acknowledgements.
OLD = ROOT / "tests" / "fixtures" / "db_v1.sqlite3"


def migrate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vtt_bridge", "migrate", *args],
        capture_output=True, text=True, timeout=120, env=ENV, cwd=ROOT,
    )  # fmt: skip


def test_an_old_database_moves_over_whole_and_serves_the_same(tmp_path: Path, pg_dsn: str) -> None:
    source = tmp_path / "old.sqlite3"
    shutil.copy(OLD, source)
    before = Store(source)
    tables = {
        t.id: (before.positions(t.id), full_replay_hash(before, t.id)) for t in before.tables()
    }
    before.close()
    assert sum(n for n, _ in tables.values()) > 0  # fights in it (and an empty table)

    done = migrate("--db", str(source), "--to", pg_dsn)
    assert done.returncode == 0, done.stderr
    assert f"{len(tables)} tables checked ({len(tables)} copied, 0 already there)" in done.stdout

    # Run again: nothing is copied twice, everything is checked again.
    again = migrate("--db", str(source), "--to", pg_dsn)
    assert again.returncode == 0, again.stderr
    assert f"(0 copied, {len(tables)} already there)" in again.stdout

    with psycopg.connect(pg_dsn) as db:
        assert db.execute("SELECT DISTINCT epoch FROM log").fetchall() == [(0,)]
        assert db.execute("SELECT count(*) FROM owners").fetchone() == (0,)  # nobody's yet
    pg = PostgresStore(pg_dsn)
    try:
        for table_id, (positions, replayed) in tables.items():
            assert pg.positions(table_id) == positions
            assert full_replay_hash(pg, table_id) == replayed
    finally:
        pg.close()


async def test_a_migrated_table_is_joined_with_its_old_tokens(tmp_path: Path, pg_dsn: str) -> None:
    source = tmp_path / "old.sqlite3"
    shutil.copy(OLD, source)
    assert migrate("--db", str(source), "--to", pg_dsn).returncode == 0
    sqlite_hub = Hub(Store(source))
    table = max(sqlite_hub.tables.values(), key=lambda t: t.positions)  # the longest fight
    state_hash, events = table.encounter.state_hash(), len(table.events)
    gm_token = next(t.token for t in table.tokens.values() if t.role == "gm")
    sqlite_hub.close()
    app = create_app(Config(database=pg_dsn))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        gm = await TableClient.connect(http, str(server.make_url("/ws")))
        await gm.send(protocol.Join, token=gm_token, last_event=None)
        await gm.wait_for(protocol.Welcome)
        served = app[HUB].tables[table.id]
        assert served.encounter.state_hash() == state_hash and len(served.events) == events
        await gm.close()


def test_a_difference_found_is_an_error(tmp_path: Path, pg_dsn: str) -> None:
    source = tmp_path / "old.sqlite3"
    shutil.copy(OLD, source)
    assert migrate("--db", str(source), "--to", pg_dsn).returncode == 0
    with psycopg.connect(pg_dsn) as db:
        db.execute("UPDATE log SET events = '[]' WHERE position = 1")
    checked = migrate("--db", str(source), "--to", pg_dsn)
    assert checked.returncode == 1
    assert "the log in PostgreSQL differs from SQLite's" in checked.stderr


def test_it_refuses_while_a_server_holds_the_file_or_without_a_url(
    tmp_path: Path, pg_dsn: str
) -> None:
    source = tmp_path / "old.sqlite3"
    shutil.copy(OLD, source)
    with ServerLock(source):
        held = migrate("--db", str(source), "--to", pg_dsn)
    assert held.returncode == 1 and "stop it first" in held.stderr
    wrong = migrate("--db", str(source), "--to", str(tmp_path / "other.sqlite3"))
    assert wrong.returncode == 2 and "--to must be a postgresql:// URL" in wrong.stderr
    missing = migrate("--db", str(tmp_path / "none.sqlite3"), "--to", pg_dsn)
    assert missing.returncode == 1 and "no SQLite database" in missing.stderr
    with psycopg.connect(pg_dsn) as db:  # nothing was written by the refusals
        assert db.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'log'"
        ).fetchone() == (0,)
