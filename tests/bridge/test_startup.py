"""Start-up reads a bounded tail: the latest snapshot and the commands after it.

Older acknowledgements are still retransmitted (read from the log by index), older
events still reach a client catching up, and ``--verify-log`` still reads everything.
The log is built by ``bench.startup`` (the engine's real output, written through the
store), as the start-up bench builds its 200,000 rows.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer

import protocol
from bench.startup import PLAYERS, SNAPSHOT_EVERY, TAIL, build
from tests.bridge.conftest import token_of
from tests.wsclient import TableClient, wire_data
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.hub import Hub
from vtt_bridge.store import Store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


async def test_start_up_reads_the_tail_and_older_acks_and_events_come_from_the_log(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite3"
    (table_id,) = build(db, rows=1 + 2 * SNAPSHOT_EVERY + TAIL, tables=1)
    app = create_app(Config(database=db, outbound_queue=64))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        hub = app[HUB]
        table = hub.tables[table_id]
        report = hub.load_reports[table_id]
        total = 1 + 2 * SNAPSHOT_EVERY + TAIL
        assert report.positions == table.positions == total
        assert report.snapshot == total - TAIL and report.rows_read == TAIL
        # Only the tail is applied again; the catch-up window before it is refilled from
        # the log's events by index, up to the window's bound (here all of them).
        assert table.events.base == max(0, total - table.events.keep) and len(table.events) == total

        # p0's first command (seq 1, position 1) is far older than what was loaded.
        player = PLAYERS[0]
        client = await TableClient.connect(http, str(server.make_url("/ws")))
        await client.send(protocol.Join, token=token_of(table, player), last_event=-1, client="vtt")
        await client.wait_for(protocol.Welcome)
        caught_up = [await client.wait_for(protocol.Event) for _ in range(total)]
        assert [e.index for e in caught_up] == list(range(total))
        assert wire_data(caught_up[1]) == {"token": "t-p0", "at": [0, 1]}
        first = protocol.Move(seq=1, token=f"t-{player}", path=((0, 5),))
        await client.send_raw(protocol.encode_json(first))
        reply = await client.reply_to(1)
        assert isinstance(reply, protocol.Ack), reply
        assert (reply.first_event, reply.last_event) == (1, 1)
        assert table.positions == total  # answered from the log, not applied again
        assert hub.metrics.counts["retransmits"] == 1
        # A seq beyond any the client has in the log is a new command.
        client.seq = 10_000
        seq = await client.send(protocol.Move, token=f"t-{player}", path=((0, 1),))
        reply = await client.reply_to(seq)
        assert isinstance(reply, protocol.Ack) and reply.first_event == total
        await client.close()

    # The graceful stop snapshotted the table: the next start-up applies nothing again.
    hub = Hub(Store(db), verify_log=True)
    try:
        report = hub.load_reports[table_id]
        assert report.snapshot == total + 1 and report.rows_read == 0
        assert hub.verified[table_id].current
        assert hub.verified[table_id].full_hash == hub.tables[table_id].encounter.state_hash()
    finally:
        hub.close()


async def test_an_open_prompts_deadline_is_kept_in_the_snapshot(tmp_path: Path) -> None:
    # The fixture's "waiting" table has an attack of opportunity open, and no snapshot:
    # its deadline comes from the log.  Snapshotted (as a graceful stop does), the
    # deadline is in the snapshot and start-up reads no row at all.
    db = tmp_path / "db.sqlite3"
    shutil.copy(FIXTURES / "db_v1.sqlite3", db)
    tables = json.loads((FIXTURES / "db_v1.json").read_text(encoding="utf-8"))["tables"]
    waiting = next(t for t, e in tables.items() if e["name"] == "waiting")
    deadlines = tables[waiting]["deadlines"]
    assert deadlines
    hub = Hub(Store(db))
    try:
        assert hub.tables[waiting].deadlines == deadlines
        # A table carried forward from an older release is snapshotted as it loads;
        # one of this release's version is snapshotted by the graceful stop.
        written = await hub.committer.snapshot_tables([hub.tables[waiting]])
        assert written == (0 if hub.load_reports[waiting].carried_forward else 1)
        assert hub.store.latest_snapshot(waiting).deadlines == deadlines  # type: ignore[union-attr]
    finally:
        hub.close()
    hub = Hub(Store(db))
    try:
        report = hub.load_reports[waiting]
        assert report.snapshot == tables[waiting]["positions"] and report.rows_read == 0
        assert hub.tables[waiting].deadlines == deadlines
    finally:
        hub.close()
