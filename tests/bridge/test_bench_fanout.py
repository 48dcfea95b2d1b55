"""The bench's fan-out echo and its lean load driver, against each other on loopback.

``bench.bridge`` compares the bridge with the fan-out echo (``bench/baselines.py``)
driven by ``bench/lean.py``'s client; if either did less than it says (an echo that
skipped the broadcast, a driver that miscounted), the figures would flatter the bridge.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

from bench import serving
from bench.lean import LeanSocket


@contextlib.asynccontextmanager
async def fanout_echo(
    tmp_path: Path, count: int, log: Path | None = None
) -> AsyncIterator[tuple[list[dict[str, str]], int, int]]:
    """A fan-out echo serving ``count`` bench tables: (their join tokens, port, pid);
    with ``log``, the durable fan-out echo committing to that SQLite file."""
    tables = serving.make_tables(tmp_path / "bench.sqlite3", 0, count=count)
    seats = tmp_path / "tables.json"
    seats.write_text(json.dumps(tables))
    port = serving.free_port()
    args = ["-m", "bench.bridge", "--serve-fanout", str(port), str(seats)]
    if log is not None:
        args += [str(log), "FULL"]
    with serving.running(args, tmp_path / "fanout.log") as server:
        await serving.wait_healthy(port, server)
        yield tables, port, server.pid


async def test_the_fanout_echo_acks_the_mover_and_sends_every_member_the_event(
    tmp_path: Path,
) -> None:
    async with fanout_echo(tmp_path, 2) as (tables, port, _):
        url = f"ws://127.0.0.1:{port}/ws"
        members: list[LeanSocket] = []
        for participant in ("gm", "p0", "p1", "p2", "p3"):
            ws = await LeanSocket.connect(url)
            body = {"token": tables[0][participant], "last_event": None, "batch": True}
            ws.send(serving.frame("join", 1, body))
            welcome = await ws.until("welcome")
            assert welcome["body"]["ref"] == 1
            members.append(ws)
        other_table = await LeanSocket.connect(url)
        body = {"token": tables[1]["gm"], "last_event": None, "batch": True}
        other_table.send(serving.frame("join", 1, body))
        await other_table.until("welcome")
        frames_before = other_table.frames

        mover = members[1]
        # A lean socket keeps only frames someone waits for: wait on every member first.
        watchers = [asyncio.ensure_future(ws.until("event")) for ws in members if ws is not mover]
        await asyncio.sleep(0)
        mover.send(serving.frame("move", 7, {"token": "t-p0", "path": [[0, 1]]}))
        ack = await mover.until("ack", 7)
        assert ack["body"] == {"ref": 7, "first_event": 0, "last_event": 0}
        # The mover's event shares the ack's batch frame; the others get it alone.
        for watcher in watchers:
            event = await asyncio.wait_for(watcher, 30)
            assert event["body"] == {
                "index": 0,
                "kind": "token_placed",
                "data": {"token": "t-p0", "at": [0, 1]},
            }
        assert other_table.frames == frames_before  # another table hears nothing
        for ws in [*members, other_table]:
            ws.close()


async def test_the_driver_counts_acknowledged_moves_and_both_sides_cpu(tmp_path: Path) -> None:
    async with fanout_echo(tmp_path, 1) as (tables, port, pid):
        run = await serving.drive(
            f"ws://127.0.0.1:{port}/ws", tables, 0.2, 1.0, setup=False, cpu_pid=pid
        )
    assert run.errors == 0
    assert run.acked == len(run.latencies_ms) > 0
    assert run.server_cpu_s > 0 and run.driver_cpu_s > 0


async def test_the_durable_fanout_echo_acks_only_what_its_log_holds(tmp_path: Path) -> None:
    log = tmp_path / "durable.sqlite3"
    async with fanout_echo(tmp_path, 1, log) as (tables, port, _):
        url = f"ws://127.0.0.1:{port}/ws"
        members: list[LeanSocket] = []
        for participant in ("gm", "p0"):
            ws = await LeanSocket.connect(url)
            body = {"token": tables[0][participant], "last_event": None, "batch": True}
            ws.send(serving.frame("join", 1, body))
            await ws.until("welcome")
            members.append(ws)
        gm, mover = members
        watcher = asyncio.ensure_future(gm.until("event"))
        await asyncio.sleep(0)
        for seq, cell in ((7, [0, 1]), (8, [0, 2])):
            mover.send(serving.frame("move", seq, {"token": "t-p0", "path": [cell]}))
            ack = await mover.until("ack", seq)
            # Acknowledged means committed: the row is there for another connection.
            with contextlib.closing(sqlite3.connect(log)) as db:
                rows = db.execute("SELECT command, events FROM log ORDER BY id").fetchall()
            assert len(rows) == ack["body"]["last_event"] + 1
            command, event = (json.loads(text) for text in rows[-1])
            assert command == {"token": "t-p0", "path": [cell]}
            assert event["data"] == {"token": "t-p0", "at": cell}
        first = await asyncio.wait_for(watcher, 30)
        assert first["body"]["data"] == {"token": "t-p0", "at": [0, 1]}
        for ws in members:
            ws.close()
