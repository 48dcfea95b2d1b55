"""Nothing acknowledged is lost, nothing is applied twice.

* a command retransmitted with the same client id and seq gets its original reply and is
  not applied again, on a new connection and after a restart;
* group commit: many clients at once, every ack committed, events in one order for all;
* snapshots: a restart loads the latest snapshot plus the log's tail, and its state hash
  equals a full replay's;
* graceful shutdown answers in-flight commands, then closes with 1001 (GOING_AWAY).
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge, token_of
from tests.scenario import scene_body
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.translate import public_state


def crowd_scene(players: list[str]) -> protocol.SceneSpec:
    """One token per player on a 40x40 grid, spaced out, plus one for the GM."""
    tokens = [
        {
            "id": f"t-{owner}", "name": owner, "owner": owner, "side": "heroes",
            "x": 2 * i, "y": 0, "size": 1, "reach": 1.0, "movement": 6.0,
            "stats": {"ocv": 3, "dcv": 3, "init": 8},
        }
        for i, owner in enumerate([*players, "gm"])
    ]  # fmt: skip
    grid = {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 40, "height": 40}
    return protocol.SceneSpec.from_wire({"grid": grid, "tokens": tokens})


async def test_retransmission_gets_the_original_reply(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "db.sqlite3")
    app = create_app(config)
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm", client="gm-vtt")
        seq = await gm.send(protocol.LoadScene, scene=crowd_scene(["alice"]))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        alice = await bridge.member(table, "alice", client="alice-vtt")
        alice.seq = 40
        seq = await alice.send(protocol.Move, token="t-alice", path=((0, 1),))
        first = await alice.reply_to(seq)
        assert isinstance(first, protocol.Ack) and first.first_event is not None
        refused_seq = await alice.send(protocol.Move, token="t-gm", path=((6, 1),))
        refused = await alice.reply_to(refused_seq)
        assert isinstance(refused, protocol.ErrorMessage)
        events = len(table.events)
        await alice.close()

        # The same client on a new connection sends both again.
        again = await bridge.member(table, "alice", client="alice-vtt")
        for message, ref, original in (
            (protocol.Move(seq=seq, token="t-alice", path=((0, 1),)), seq, first),
            (protocol.Move(seq=refused_seq, token="t-gm", path=((6, 1),)), refused_seq, refused),
        ):
            await again.send_raw(protocol.encode_json(message))
            answer = await again.reply_to(ref)
            assert type(answer) is type(original)
            assert protocol.to_wire(answer)["body"] == protocol.to_wire(original)["body"]
        assert len(table.events) == events  # not applied twice
        # A different client reusing the seq is a new command (and here a legal one).
        other = await bridge.member(table, "alice", client="alice-phone")
        other.seq = seq - 1
        seq2 = await other.send(protocol.Move, token="t-alice", path=((0, 2),))
        assert seq2 == seq
        answer = await other.reply_to(seq2)
        assert isinstance(answer, protocol.Ack) and answer.first_event == events
        for client in (gm, again, other):
            await client.close()

    # After a restart the log remembers accepted commands' replies.
    app2 = create_app(config)
    async with TestServer(app2) as server, aiohttp.ClientSession() as http:
        table2 = app2[HUB].tables[table.id]
        events = len(table2.events)
        client = await TableClient.connect(http, str(server.make_url("/ws")))
        await client.send(
            protocol.Join, token=token_of(table2, "alice"), last_event=-1, client="alice-vtt"
        )
        await client.wait_for(protocol.Welcome)
        await client.send_raw(
            protocol.encode_json(protocol.Move(seq=seq, token="t-alice", path=((0, 1),)))
        )
        answer = await client.reply_to(seq)
        assert isinstance(answer, protocol.Ack)
        assert (answer.first_event, answer.last_event) == (first.first_event, first.last_event)
        assert len(table2.events) == events
        await client.close()


async def test_group_commit_under_concurrency_and_restart_with_snapshots(tmp_path: Path) -> None:
    players = [f"p{i}" for i in range(8)]
    config = Config(database=tmp_path / "db.sqlite3", snapshot_every=25)
    app = create_app(config)
    moves = 20
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("crowd", players)
        gm = await bridge.member(table, "gm")
        seq = await gm.send(protocol.LoadScene, scene=crowd_scene(players))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        clients = [await bridge.member(table, p, binary=i % 2 == 0) for i, p in enumerate(players)]

        async def walk(index: int, client: TableClient) -> list[int]:
            acked = []
            for step in range(moves):
                y = 1 + step % 2
                seq = await client.send(protocol.Move, token=f"t-p{index}", path=((2 * index, y),))
                answer = await client.reply_to(seq)
                assert isinstance(answer, protocol.Ack), answer
                assert answer.first_event is not None
                acked.append(answer.first_event)
            return acked

        acked = await asyncio.gather(*(walk(i, c) for i, c in enumerate(clients)))
        metrics = bridge.hub.metrics.snapshot()
        # Commands that arrived together shared transactions.
        assert metrics["commit_rows"] > metrics["commit_batches"]
        assert metrics["snapshots"] >= 1
        # Every member saw every event, in the one order of the log.
        for client in clients:
            while (
                len([m for m in client.inbox if isinstance(m, protocol.Event)])
                < len(table.events) - 1
            ):
                await client.next()
        total = len(table.events)
        hash_before = table.encounter.state_hash()
        await gm.close()
        for client in clients:
            await client.close()

    db = sqlite3.connect(config.database)
    logged = {row[0] for row in db.execute("SELECT first_event FROM log")}
    assert all(index in logged for run in acked for index in run)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    snapshot_at = db.execute("SELECT max(position) FROM snapshots").fetchone()[0]
    assert snapshot_at >= 25
    db.close()

    app2 = create_app(Config(database=config.database, verify_log=True))
    async with TestServer(app2):
        hub = app2[HUB]
        table2 = hub.tables[table.id]
        assert table2.snapshot_position == snapshot_at
        assert len(table2.events) == total
        assert table2.encounter.state_hash() == hash_before == hub.full_replay_hash(table.id)


async def test_shutdown_answers_in_flight_then_goes_away(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "db.sqlite3")
    app = create_app(config)
    server = TestServer(app)
    await server.start_server()
    async with aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        scene = protocol.SceneSpec.from_wire(scene_body())
        seq = await gm.send(protocol.LoadScene, scene=scene)
        closing = asyncio.create_task(server.close())
        answer = await gm.reply_to(seq)
        # Either it was read before the shutdown began (committed, then acknowledged) or
        # after (refused, so the client sends it again to the next server).
        acked = isinstance(answer, protocol.Ack)
        assert acked or answer.code == "shutting_down"
        while True:
            message = await gm.ws.receive(timeout=5)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
        assert gm.ws.close_code == 1001
        await closing
    db = sqlite3.connect(config.database)
    assert db.execute("SELECT count(*) FROM log").fetchone()[0] == int(acked)
    db.close()


async def test_catch_up_older_than_memory_sends_the_state(tmp_path: Path) -> None:
    # An outbound queue smaller than the catch-up: it is paced, not overflowed.
    config = Config(database=tmp_path / "db.sqlite3", outbound_queue=16)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        table.events.keep = 3  # keep few events in memory
        gm = await bridge.member(table, "gm")
        seq = await gm.send(protocol.LoadScene, scene=crowd_scene(["alice"]))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        for step in range(20):
            seq = await gm.send(protocol.Move, token="t-alice", path=((0, 1 + step % 2),))
            assert isinstance(await gm.reply_to(seq), protocol.Ack)
        base = table.events.base
        assert base > 0
        last = len(table.events) - 1
        seen = {
            m.index: m
            for m in [await gm.wait_for(protocol.Event, lambda m: m.index == last), *gm.inbox]
            if isinstance(m, protocol.Event)
        }
        # From before the window: the whole state, as of the last event, no events.
        late = await TableClient.connect(http, bridge.url)
        await late.join(token_of(table, "alice"), last_event=-1)
        state = await late.next()
        assert isinstance(state, protocol.State) and state.last_event == last
        assert state.state == public_state(table.committed)
        # From inside the window: the events after it, as they were broadcast.
        await late.send(protocol.Resync, after=base)
        again = [await late.wait_for(protocol.Event) for _ in range(last - base)]
        assert [(e.index, e.kind, e.data) for e in again] == [
            (seen[i].index, seen[i].kind, seen[i].data) for i in range(base + 1, last + 1)
        ]
        # A resync from before the window: the state again.
        await late.send(protocol.Resync, after=base - 2)
        state = await late.next()
        assert isinstance(state, protocol.State) and state.last_event == last
        await late.close()
        await gm.close()


async def test_a_snapshot_that_does_not_rebuild_is_ignored(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "db.sqlite3", snapshot_every=3)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        seq = await gm.send(protocol.LoadScene, scene=crowd_scene(["alice"]))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        for step in range(4):
            seq = await gm.send(protocol.Move, token="t-alice", path=((0, 1 + step % 2),))
            assert isinstance(await gm.reply_to(seq), protocol.Ack)
        state_hash = table.encounter.state_hash()
        await gm.close()
    db = sqlite3.connect(config.database)
    assert db.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 1
    db.execute("UPDATE snapshots SET hash = 'not-the-hash'")  # e.g. another engine version's
    db.commit()
    db.close()
    app = create_app(config)
    async with TestServer(app):
        table2 = app[HUB].tables[table.id]
        assert table2.snapshot_position == 0  # replayed from the start instead
        assert table2.encounter.state_hash() == state_hash
