"""A bridge serving from PostgreSQL (``--db postgresql://...``): group commit, snapshots,
retransmission after a restart, and a table loaded when its first join claims it."""

from __future__ import annotations

import asyncio

import aiohttp
import psycopg
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge, closed_with, token_of
from tests.bridge.test_durability import crowd_scene
from tests.bridges import cli
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.cli import build_parser, config_from_args
from vtt_bridge.config import ConfigError


def test_db_flag_keeps_a_postgresql_url_whole(pg_dsn: str) -> None:
    args = build_parser().parse_args(["serve", "--db", pg_dsn, "--lease", "3"])
    config = config_from_args(args)
    assert config.database == pg_dsn and config.lease == 3


async def test_group_commit_snapshots_and_retransmission_across_a_restart(pg_dsn: str) -> None:
    players = [f"p{i}" for i in range(4)]
    config = Config(database=pg_dsn, snapshot_every=10, rate_limit=10_000, rate_burst=10_000)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("crowd", players)
        gm = await bridge.member(table, "gm")
        seq = await gm.send(protocol.LoadScene, scene=crowd_scene(players))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        clients = [await bridge.member(table, p, client=f"{p}-vtt") for p in players]

        async def walk(index: int, client: TableClient) -> list[tuple[int, protocol.Ack]]:
            acked = []
            for step in range(8):
                path = ((2 * index, 1 + step % 2),)
                seq = await client.send(protocol.Move, token=f"t-p{index}", path=path)
                answer = await client.reply_to(seq)
                assert isinstance(answer, protocol.Ack), answer
                acked.append((seq, answer))
            return acked

        acked = await asyncio.gather(*(walk(i, c) for i, c in enumerate(clients)))
        metrics = bridge.hub.metrics.snapshot()
        assert metrics["commit_rows"] > metrics["commit_batches"]  # commits were shared
        assert metrics["snapshots"] >= 1
        total, state_hash = len(table.events), table.encounter.state_hash()
        for client in [gm, *clients]:
            await client.close()

    with psycopg.connect(pg_dsn) as db:
        logged = {r[0] for r in db.execute("SELECT first_event FROM log WHERE table_id = %s",
                                           (table.id,))}  # fmt: skip
        assert all(a.first_event in logged for run in acked for _, a in run)
        (snapshot_at,) = db.execute("SELECT max(position) FROM snapshots").fetchone() or (None,)
        assert snapshot_at is not None and snapshot_at >= 10

    app = create_app(Config(database=pg_dsn))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        hub = app[HUB]
        assert hub.tables == {}  # nothing loads before a join claims it
        client = await TableClient.connect(http, str(server.make_url("/ws")))
        await client.send(
            protocol.Join, token=token_of(table, "p1"), last_event=-1, client="p1-vtt"
        )
        await client.wait_for(protocol.Welcome)
        loaded = hub.tables[table.id]
        assert loaded.snapshot_position == snapshot_at
        assert len(loaded.events) == total
        assert loaded.encounter.state_hash() == state_hash == hub.full_replay_hash(table.id)
        seq, original = acked[1][-1]
        move = protocol.Move(seq=seq, token="t-p1", path=((2, 2),))
        await client.send_raw(protocol.encode_json(move))
        answer = await client.reply_to(seq)
        assert isinstance(answer, protocol.Ack)
        assert (answer.first_event, answer.last_event) == (
            original.first_event,
            original.last_event,
        )
        assert len(loaded.events) == total  # not applied twice
        await client.close()


def test_demo_is_refused_on_postgresql() -> None:
    # Every process would make a demo table of its own on every start.
    with pytest.raises(ConfigError, match=r"--demo .* is for one process on a SQLite file"):
        Config(demo=True, database="postgresql://vtt@db.internal/vtt")


def test_a_public_url_must_be_a_websocket_url() -> None:
    assert Config(public_url="wss://bridge-2.example/ws").public_url == "wss://bridge-2.example/ws"
    for bad in ("http://bridge.example/ws", "ws:///ws", "bridge:8080", "ws://a b/ws"):
        with pytest.raises(ConfigError, match="--public-url"):
            Config(public_url=bad)


async def test_a_token_revoked_by_another_process_closes_its_connections(pg_dsn: str) -> None:
    # The database is the truth: the revocation poll reads its change counter, which
    # ``vtt-bridge revoke-token`` (another process) moves.
    config = Config(database=pg_dsn, revocation_poll=0.05)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        alice = await bridge.member(table, "alice")
        token = token_of(table, "alice")
        revoked = await asyncio.to_thread(cli, "revoke-token", token, "--db", pg_dsn)
        assert "revoked player alice" in revoked
        assert await asyncio.wait_for(closed_with(alice.ws), 10) == 1008
        again = await bridge.connect()
        await again.send(protocol.Join, token=token, last_event=None)
        refused = await again.wait_for(protocol.ErrorMessage)
        assert refused.code == "bad_token"


async def test_loads_beyond_the_cap_are_asked_to_come_back(pg_dsn: str) -> None:
    # After a failover every client of the dead host's tables comes back at once: past
    # max_loads tables being loaded, a join is redirected to this same process with a
    # retry_after, and welcomed when it comes back with room to load.
    made = create_app(Config(database=pg_dsn))
    async with TestServer(made) as server, aiohttp.ClientSession() as http:
        hub = made[HUB]
        tokens = {t.participant: t.token for t in hub.create_table("t", ["alice"]).tokens.values()}
    app = create_app(Config(database=pg_dsn, public_url="ws://127.0.0.1:9/ws"))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        app[HUB].max_loads = 0
        url = str(server.make_url("/ws"))
        member = await TableClient.connect(http, url)
        seq = await member.send(protocol.Join, token=tokens["alice"], last_event=None)
        busy = await member.wait_for(protocol.Redirect)
        assert busy.ref == seq and busy.url == "ws://127.0.0.1:9/ws"
        assert busy.retry_after is not None and 0.5 <= busy.retry_after <= 2.0
        assert app[HUB].tables == {}  # nothing was claimed or loaded
        app[HUB].max_loads = 1
        member = await TableClient.connect(http, url)
        await member.send(protocol.Join, token=tokens["alice"], last_event=None)
        assert (await member.wait_for(protocol.Welcome)).participant == "alice"
        await member.close()
