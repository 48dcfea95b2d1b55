"""Regressions found by reviewing the speed work (commands no longer awaited, batch
frames, admin messages in queue order); each failed before its fix."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.test_batch_frames import SCENE
from tests.bridge.test_foundation_path import demo_tokens
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.recording import replay


class Server:
    """A demo server on loopback with its own database file."""

    def __init__(self, server: TestServer, http: aiohttp.ClientSession, db: Path) -> None:
        self.server, self.http, self.db = server, http, db

    async def client(self, participant: str, **join: object) -> TableClient:
        client = await TableClient.connect(self.http, str(self.server.make_url("/ws")))
        token = demo_tokens(self.server.app)[participant]
        await client.send(protocol.Join, token=token, last_event=None, **join)
        await client.wait_for(protocol.Welcome)
        return client

    async def gm_with_scene(self, **join: object) -> TableClient:
        """The GM, joined, with the small scene loaded."""
        gm = await self.client("gm", **join)
        await gm.reply_to(await gm.send(protocol.LoadScene, scene=SCENE))
        return gm


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Server]:
    db = tmp_path / "db.sqlite3"
    app = create_app(Config(database=db, demo=True, record_dir=tmp_path / "rec"))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        yield Server(server, http, db)


def hold_write_lock(db: Path) -> sqlite3.Connection:
    """Another process takes the write lock: the server's next commit waits for it."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


async def test_a_retransmission_is_answered_after_what_was_sent_before_it(
    demo: Server, tmp_path: Path
) -> None:
    gm = await demo.gm_with_scene(client="gm-ui")
    first = await gm.send(protocol.Move, token="ogre", path=((8, 7),))
    await gm.reply_to(first)
    again = protocol.encode_json(protocol.Move(seq=first, token="ogre", path=((8, 7),)))
    other = hold_write_lock(demo.db)
    try:
        second = await gm.send(protocol.Move, token="ogre", path=((8, 8),))
        await asyncio.sleep(0.2)
        await gm.send_raw(again)  # the first, sent again while the second commits
        await asyncio.sleep(0.2)
    finally:
        other.rollback()
        other.close()
    await gm.reply_to(second)
    await gm.wait_for(protocol.Ack, lambda m: m.ref == first)
    acks = [m.ref for m in gm.inbox if isinstance(m, protocol.Ack)]
    assert acks[-3:] == [first, second, first]  # the order the frames came in
    await gm.close()
    await asyncio.sleep(0.1)
    result = await replay(next((tmp_path / "rec").glob("*.jsonl")))
    assert result.ok, "\n".join(result.diff)


async def test_a_join_answered_after_its_token_is_revoked_does_not_stay(demo: Server) -> None:
    gm = await demo.gm_with_scene()
    tokens = demo_tokens(demo.server.app)
    other = hold_write_lock(demo.db)
    try:
        await gm.send(protocol.Move, token="ogre", path=((8, 7),))  # in flight
        await asyncio.sleep(0.1)
        bob = await TableClient.connect(demo.http, str(demo.server.make_url("/ws")))
        await bob.send(protocol.Join, token=tokens["bob"], last_event=None)
        await asyncio.sleep(0.1)
        revoke = await gm.send(protocol.RevokeToken, token=tokens["bob"])
        await asyncio.sleep(0.2)
    finally:
        other.rollback()
        other.close()
    await gm.wait_for(protocol.TokenRevoked, lambda m: m.ref == revoke)
    await gm.reply_to(await gm.send(protocol.Move, token="ogre", path=((8, 6),)))
    table = demo.server.app[HUB].table_by_name("demo")
    assert table is not None
    assert all(s.participant != "bob" for s in table.sessions)
    with pytest.raises(ConnectionError):  # admitted first (it came first), then closed
        while True:
            await bob.next()
    assert not [m for m in bob.inbox if isinstance(m, protocol.Event)]


@pytest.mark.parametrize("slow_commit", [False, True], ids=["plain", "slow-commit"])
async def test_a_burst_within_the_rate_limit_is_answered_in_full(
    demo: Server, slow_commit: bool
) -> None:
    # 150 commands sent at once (the default burst allows 200): each connection has
    # only a few in flight, so their answers never overflow its outbound queue (256).
    gm = await demo.gm_with_scene()
    other = hold_write_lock(demo.db) if slow_commit else None
    frames = []
    for i in range(150):
        gm.seq += 1
        move = protocol.Move(seq=gm.seq, token="ogre", path=((8, 7 + i % 2),))
        frames.append(protocol.encode_json(move))
    for frame in frames:
        await gm.ws.send_str(frame)
    if other is not None:
        await asyncio.sleep(0.05)
        other.rollback()
        other.close()
    await gm.wait_for(protocol.Ack, lambda m: m.ref == gm.seq)
    assert sum(isinstance(m, protocol.Ack) for m in gm.inbox) == 151


async def test_a_batch_frame_stays_within_the_frame_limit(demo: Server) -> None:
    big = protocol.SceneSpec.from_wire(
        {
            "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 40, "height": 40},
            "tokens": [
                {"id": f"t{i}", "name": f"Goblin skirmisher number {i:03d} of the east",
                 "owner": "gm", "side": "monsters", "x": i % 20, "y": i // 20, "size": 1,
                 "reach": 1.0, "movement": 6.0, "stats": {}}
                for i in range(30)
            ],
        }
    )  # fmt: skip
    gm = await demo.client("gm")
    batching = await demo.client("alice", batch=True)
    sent = [await gm.send(protocol.LoadScene, scene=big) for _ in range(30)]
    for seq in sent:
        await gm.reply_to(seq)
    for _ in range(30):  # the client's reader refuses any frame over MAX_FRAME_BYTES
        await batching.event("scene_loaded")
    assert max(batching.frame_sizes) > 1


async def test_settings_that_cannot_be_stored_are_refused_with_what_they_governed(
    demo: Server,
) -> None:
    alice = await demo.client("alice")
    gm = await demo.gm_with_scene()
    table = demo.server.app[HUB].table_by_name("demo")
    assert table is not None
    # Another process takes the tables away, so the settings' commit fails; Alice's
    # move, received after them and judged by them, is in flight behind them.
    other = hold_write_lock(demo.db)
    other.execute("ALTER TABLE tables RENAME TO tables_away")
    configure = await gm.send(protocol.ConfigureTable, dice=None, prompt_timeout_ms=123_456)
    await asyncio.sleep(0.1)
    move = await alice.send(protocol.Move, token="hero", path=((1, 1),))
    await asyncio.sleep(0.1)
    other.execute("COMMIT")
    refused = await gm.reply_to(configure)
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "internal"
    moved = await alice.reply_to(move)
    assert isinstance(moved, protocol.ErrorMessage) and moved.code == "internal"
    assert table.row.prompt_timeout == 30.0  # back to what the database holds
    other.execute("ALTER TABLE tables_away RENAME TO tables")
    other.close()
    again = await alice.send(protocol.Move, token="hero", path=((1, 1),))
    assert isinstance(await alice.reply_to(again), protocol.Ack)


async def test_a_join_replays_as_it_was_answered(demo: Server, tmp_path: Path) -> None:
    # The join arrives while a commit waits; a move arrives while the join's token is
    # read.  The join is answered (and recorded) before the move: replay agrees.
    gm = await demo.gm_with_scene()
    tokens = demo_tokens(demo.server.app)
    other = hold_write_lock(demo.db)
    try:
        first = await gm.send(protocol.Move, token="ogre", path=((8, 7),))
        await asyncio.sleep(0.1)
        bob = await TableClient.connect(demo.http, str(demo.server.make_url("/ws")))
        await bob.send(protocol.Join, token=tokens["bob"], last_event=None)
        await asyncio.sleep(0.1)
        second = await gm.send(protocol.Move, token="ogre", path=((8, 6),))
        await asyncio.sleep(0.1)
    finally:
        other.rollback()
        other.close()
    await gm.reply_to(first)
    await gm.reply_to(second)
    state = await bob.wait_for(protocol.State)
    assert state.last_event == 1  # the first move, not the second
    assert (await bob.event("token_placed")).index == 2  # the second, as an event
    await bob.close()
    await gm.close()
    await asyncio.sleep(0.1)
    result = await replay(next((tmp_path / "rec").glob("*.jsonl")))
    assert result.ok, "\n".join(result.diff)


async def test_a_revocation_closes_at_its_place_even_when_a_join_sees_it_first(
    demo: Server,
) -> None:
    bob = await demo.client("bob")
    gm = await demo.gm_with_scene()
    tokens = demo_tokens(demo.server.app)
    other = hold_write_lock(demo.db)
    try:
        await gm.send(protocol.Move, token="ogre", path=((8, 7),))  # its commit waits
        await asyncio.sleep(0.1)
        move = await gm.send(protocol.Move, token="ogre", path=((8, 6),))
        await asyncio.sleep(0.1)
        await gm.send(protocol.RevokeToken, token=tokens["bob"])  # after the move
        await asyncio.sleep(0.1)
        again = await TableClient.connect(demo.http, str(demo.server.make_url("/ws")))
        await again.send(protocol.Join, token=tokens["bob"], last_event=None)
        await asyncio.sleep(0.1)
    finally:
        other.rollback()
        other.close()
    await gm.reply_to(move)
    assert (await again.wait_for(protocol.ErrorMessage)).code == "bad_token"
    with pytest.raises(ConnectionError):
        while True:
            await bob.next()
    # Bob heard the move sent before his revocation, then was closed.
    assert [m.index for m in bob.inbox if isinstance(m, protocol.Event)][-1] == 2
