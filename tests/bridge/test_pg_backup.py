"""``vtt-bridge backup`` and ``restore`` with ``--db postgresql://...``: a dump of the
live database as of one commit (pg_dump on an exported snapshot), refused over an
existing file; a restore refused while a process serves from the database, then the
dump in place whole and every table checked by a full replay; a process started on
the restored database claims the table afresh and play goes on from the backup."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import aiohttp

import protocol
from tests.bridge.test_pg_bridges import join, logged, move, new_table, opened
from tests.bridges import ENV, ROOT, BridgeProcess, cli


def refused(*args: str) -> str:
    """``vtt-bridge ARGS``, which must fail with exit status 1; what it said."""
    done = subprocess.run(
        [sys.executable, "-m", "vtt_bridge", *args],
        capture_output=True, text=True, timeout=120, env=ENV, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1, (done.stdout, done.stderr)
    return done.stderr


async def test_a_live_database_is_dumped_and_restored_once_nobody_serves_it(
    pg_dsn: str, tmp_path: Path
) -> None:
    tokens = new_table(pg_dsn)
    dump = tmp_path / "vtt.dump"
    a = BridgeProcess(pg_dsn, tmp_path / "a.log").start()
    try:
        async with aiohttp.ClientSession() as http:
            gm = await opened(http, a, tokens)
            acks = [await move(gm, "alice", step) for step in range(3)]
            saved = cli("backup", str(dump), "--db", pg_dsn)  # while a serves the table
            assert "pg_restore reads it back" in saved
            assert "(fight): 4 logged commands" in saved  # the scene and three moves
            for step in range(3, 5):  # after the backup: not in it
                await move(gm, "alice", step)
            assert "never overwrites" in refused("backup", str(dump), "--db", pg_dsn)
            assert "serve from this database" in refused("restore", str(dump), "--db", pg_dsn)
            await gm.close()
        assert a.stop() == 0
    finally:
        a.kill()
    restored = cli("restore", str(dump), "--db", pg_dsn)
    assert "(fight): 4 logged commands, replays to its state" in restored
    rows = logged(pg_dsn)
    assert [(p, e) for p, e, _, _ in rows] == [(p, 1) for p in range(4)]

    b = BridgeProcess(pg_dsn, tmp_path / "b.log").start()
    try:
        async with aiohttp.ClientSession() as http:
            again, welcome = await join(http, b.url, tokens["gm"], "gm-vtt", acks[-1].last_event)
            assert isinstance(welcome, protocol.Welcome)  # claimed afresh: nobody is live
            again.seq = 100
            ack = await move(again, "alice", 3)
            assert ack.first_event == acks[-1].last_event + 1  # on from the backup's state
    finally:
        b.kill()
    assert [(p, e) for p, e, _, _ in logged(pg_dsn)] == [(p, 1) for p in range(4)] + [(4, 2)]
