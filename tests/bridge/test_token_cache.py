"""Joins read their token from memory while the database is unchanged
(:mod:`vtt_bridge.token_cache`), and never admit a token the database no longer does:
revoked by another process (no revocation poll running: the join itself must see it),
by this one, or with its table archived; a token issued elsewhere joins at once."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge, running, token_of
from tests.bridges import cli
from vtt_bridge import Config, create_app

#: Joins sent at once with one cached token.
AT_ONCE = 12


@pytest.fixture
async def unpolled(tmp_path: Path) -> AsyncIterator[Bridge]:
    """A server that never polls for revocations: only the joins read the database."""
    async with running(tmp_path, revocation_poll=0, max_connections_per_token=0) as started:
        yield started


async def join_reply(bridge: Bridge, token: str) -> protocol.Welcome | protocol.ErrorMessage:
    """What a new connection joining with ``token`` is answered first."""
    client = await bridge.connect()
    await client.send(protocol.Join, token=token, last_event=None)
    reply: protocol.Welcome | protocol.ErrorMessage = await client.wait_for(
        (protocol.Welcome, protocol.ErrorMessage)
    )
    return reply


async def test_joins_at_once_with_a_known_token_share_one_trip_to_the_database(
    unpolled: Bridge,
) -> None:
    table = unpolled.table("cached", ["alice"])
    token = token_of(table, "alice")
    assert isinstance(await join_reply(unpolled, token), protocol.Welcome)
    # Connected first, so that the joins themselves arrive together.
    clients = await asyncio.gather(*(unpolled.connect() for _ in range(AT_ONCE)))
    before = unpolled.hub.join_tokens.reads
    await asyncio.gather(*(c.send(protocol.Join, token=token, last_event=None) for c in clients))
    replies = await asyncio.gather(
        *(c.wait_for((protocol.Welcome, protocol.ErrorMessage)) for c in clients)
    )
    assert all(isinstance(reply, protocol.Welcome) for reply in replies)
    trips = unpolled.hub.join_tokens.reads - before
    # One counter read per loop turn the joins arrived in, not one row read per join.
    assert 1 <= trips < AT_ONCE // 2


async def test_a_token_revoked_by_another_connection_is_refused_at_the_next_join(
    unpolled: Bridge,
) -> None:
    table = unpolled.table("cached", ["alice", "bob"])
    alice, bob = token_of(table, "alice"), token_of(table, "bob")
    for token in (alice, bob):  # both read, so both are in memory
        assert isinstance(await join_reply(unpolled, token), protocol.Welcome)
    other = sqlite3.connect(unpolled.config.database, isolation_level=None)
    try:
        other.execute("UPDATE join_tokens SET revoked = 1 WHERE token = ?", (alice,))
    finally:
        other.close()
    refused = await join_reply(unpolled, alice)
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "bad_token"
    assert isinstance(await join_reply(unpolled, bob), protocol.Welcome)


async def test_a_token_issued_by_another_process_joins_at_once(unpolled: Bridge) -> None:
    table = unpolled.table("cached", ["alice"])
    unknown = "0" * 32
    first = await join_reply(unpolled, unknown)  # remembered as no token at all
    assert isinstance(first, protocol.ErrorMessage) and first.code == "bad_token"
    other = sqlite3.connect(unpolled.config.database, isolation_level=None)
    try:
        other.execute(
            "INSERT INTO join_tokens (token, table_id, participant, role, revoked) "
            "VALUES (?, ?, 'carol', 'player', 0)",
            (unknown, table.id),
        )
    finally:
        other.close()
    welcome = await join_reply(unpolled, unknown)
    assert isinstance(welcome, protocol.Welcome) and welcome.participant == "carol"


async def test_a_token_this_process_revokes_is_refused_at_the_next_join(
    unpolled: Bridge,
) -> None:
    # SQLite's change counter does not move for this process's own writes.
    table = unpolled.table("cached", ["alice"])
    token = token_of(table, "alice")
    assert isinstance(await join_reply(unpolled, token), protocol.Welcome)
    assert await unpolled.hub.revoke(table, token, unpolled.config.clock())
    refused = await join_reply(unpolled, token)
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "bad_token"


async def test_on_postgresql_a_token_revoked_elsewhere_is_refused_at_the_next_join(
    pg_dsn: str,
) -> None:
    config = Config(database=pg_dsn, revocation_poll=0)
    server = TestServer(create_app(config))
    async with server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        try:
            table = bridge.table("cached", ["alice"])
            token = token_of(table, "alice")
            assert isinstance(await join_reply(bridge, token), protocol.Welcome)
            revoked = await asyncio.to_thread(cli, "revoke-token", token, "--db", pg_dsn)
            assert "revoked player alice" in revoked
            refused = await join_reply(bridge, token)
            assert isinstance(refused, protocol.ErrorMessage) and refused.code == "bad_token"
        finally:
            for client in bridge.clients:
                await client.close()
