"""Commits of different tables overlap on PostgreSQL (``--db-connections``): a table
always commits on one of the process's connections, in order, and one table's commit
held open does not hold back another table's acknowledgement on another connection."""

from __future__ import annotations

import asyncio

import aiohttp
import psycopg
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge
from tests.bridge.test_durability import crowd_scene
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.cli import build_parser, config_from_args
from vtt_bridge.config import ConfigError
from vtt_bridge.store_pg import PostgresStore
from vtt_bridge.store_pg_leases import session_name
from vtt_bridge.tables import Table


async def _scene(bridge: Bridge, name: str) -> tuple[Table, TableClient]:
    """A table with its scene committed (its first commit: it gets its connection)."""
    table = bridge.table(name, ["p0"])
    member = await bridge.member(table, "gm")
    seq = await member.send(protocol.LoadScene, scene=crowd_scene(["p0"]))
    assert isinstance(await member.reply_to(seq), protocol.Ack)
    return table, member


def _hold_owner_row(dsn: str, table_id: str) -> psycopg.Connection[tuple[object, ...]]:
    """An open transaction holding ``table_id``'s owner row locked: that table's next
    commit (which locks it first, to check its claim) waits until it ends."""
    db = psycopg.connect(dsn)
    db.execute("SELECT 1 FROM owners WHERE table_id = %s FOR UPDATE", (table_id,))
    return db


@pytest.mark.parametrize("connections", [2, 1])
async def test_a_commit_held_on_one_table_does_not_hold_back_another(
    pg_dsn: str, connections: int
) -> None:
    config = Config(database=pg_dsn, db_connections=connections)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        held, held_member = await _scene(bridge, "held")
        free, free_member = await _scene(bridge, "free")
        store = bridge.hub.store
        assert isinstance(store, PostgresStore) and store.bridge is not None
        lock = await asyncio.to_thread(_hold_owner_row, pg_dsn, held.id)
        try:
            held_seq = await held_member.send(protocol.Move, token="t-gm", path=((2, 1),))
            held_ack = asyncio.ensure_future(held_member.reply_to(held_seq))
            await asyncio.sleep(0.2)  # its commit is waiting on the lock
            free_seq = await free_member.send(protocol.Move, token="t-gm", path=((2, 1),))
            free_ack = asyncio.ensure_future(free_member.reply_to(free_seq))
            if connections == 1:
                # One connection: the other table's commit queues behind the held one.
                done, _ = await asyncio.wait({free_ack}, timeout=1.0)
                assert not done and not held_ack.done()
            else:
                answer = await asyncio.wait_for(free_ack, 10)
                assert isinstance(answer, protocol.Ack)
                assert not held_ack.done()  # still waiting, and not answered out of turn
                assert free.positions == 2 and held.positions == 1
        finally:
            await asyncio.to_thread(lock.rollback)
            await asyncio.to_thread(lock.close)
        assert isinstance(await asyncio.wait_for(held_ack, 10), protocol.Ack)
        assert isinstance(await asyncio.wait_for(free_ack, 10), protocol.Ack)
        assert held.positions == free.positions == 2
        # Every connection carries the process's name, so an expired owner's sessions can
        # all be ended by another process claiming its tables: each lane's, and the one
        # the constructing thread uses (start-up, and this test's table creation).
        with psycopg.connect(pg_dsn) as db:
            (named,) = db.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                (session_name(store.bridge),),
            ).fetchone() or (0,)
        assert named == connections + 1
        for member in (held_member, free_member):
            await member.close()


async def test_a_table_keeps_its_lane_while_it_has_commands_in_flight(pg_dsn: str) -> None:
    """A table whose commit is held has its next commands queued behind it on the same
    lane (never committed on another one ahead of it), while a table with nothing in
    flight starts a group on an idle lane; once all is answered no lane is remembered."""
    config = Config(database=pg_dsn, db_connections=3)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        held, held_member = await _scene(bridge, "held")
        _, free_member = await _scene(bridge, "free")
        lock = await asyncio.to_thread(_hold_owner_row, pg_dsn, held.id)
        try:
            first = await held_member.send(protocol.Move, token="t-gm", path=((2, 1),))
            await asyncio.sleep(0.2)  # its commit is waiting on the lock
            second = await held_member.send(protocol.Move, token="t-gm", path=((3, 1),))
            free_seq = await free_member.send(protocol.Move, token="t-gm", path=((2, 1),))
            answer = await asyncio.wait_for(free_member.reply_to(free_seq), 10)
            assert isinstance(answer, protocol.Ack)
            await asyncio.sleep(0.2)  # an idle lane would have committed the second
            assert held.positions == 1 and held.unanswered == 2
        finally:
            await asyncio.to_thread(lock.rollback)
            await asyncio.to_thread(lock.close)
        one = await asyncio.wait_for(held_member.reply_to(first), 10)
        two = await asyncio.wait_for(held_member.reply_to(second), 10)
        assert isinstance(one, protocol.Ack) and isinstance(two, protocol.Ack)
        assert one.first_event is not None and two.first_event is not None
        assert one.first_event < two.first_event and held.positions == 3
        await bridge.hub.committer.drain()
        assert not bridge.hub.committer._lane_of  # bounded by what is in flight
        for member in (held_member, free_member):
            await member.close()


def test_db_connections_is_checked_at_start(pg_dsn: str) -> None:
    args = build_parser().parse_args(["serve", "--db", pg_dsn, "--db-connections", "3"])
    assert config_from_args(args).db_connections == 3
    assert Config().db_connections == 4
    for bad in (0, 65):
        with pytest.raises(ConfigError, match=r"--db-connections .* in 1\.\.64"):
            Config(db_connections=bad)
