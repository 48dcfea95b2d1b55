"""``--record`` on PostgreSQL: each process records the tables it serves, from when it
loads one (its header holds the log so far, written by whichever process), so the
recording of a table that moved between processes replays identically on each side."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import aiohttp

import protocol
from tests.bridge.conftest import closed_with
from tests.bridge.test_pg_bridges import join, move, new_table, opened
from tests.bridges import BridgeProcess
from vtt_bridge.recording import replay


async def test_a_table_that_moved_is_recorded_by_each_owner_and_replays(
    pg_dsn: str, tmp_path: Path
) -> None:
    tokens = new_table(pg_dsn)
    a, b = (
        BridgeProcess(pg_dsn, tmp_path / f"{n}.log", extra=("--record", str(tmp_path / n)))
        for n in ("a", "b")
    )
    a.start()
    b.start()
    try:
        async with aiohttp.ClientSession() as http:
            gm = await opened(http, a, tokens)  # a claims the table: its recording starts
            acks = [await move(gm, "alice", step) for step in range(3)]
            a.signal(signal.SIGTERM)  # hands the table over
            assert await closed_with(gm.ws) == 1001 and a.wait() == 0
            again, welcome = await join(http, b.url, tokens["gm"], "gm-vtt", acks[-1].last_event)
            assert isinstance(welcome, protocol.Welcome)  # b loads it: its recording starts
            again.seq = gm.seq
            for step in range(3, 5):
                await move(again, "alice", step)
            await again.close()
        assert b.stop() == 0
    finally:
        a.kill()
        b.kill()
    (at_a,) = (tmp_path / "a").glob("*.jsonl")
    (at_b,) = (tmp_path / "b").glob("*.jsonl")
    header = json.loads(at_b.read_text().splitlines()[0])
    assert len(header["log"]) == 1 + 3  # the scene and a's three moves, read as b loaded it
    for recording in (at_a, at_b):
        result = await replay(recording)
        assert result.ok, "\n".join(result.diff)
        assert result.compared > 0
