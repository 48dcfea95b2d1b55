"""``vtt-bridge revoke-token`` against the database of a running server: the server closes
the token's connections (1008) within ``revocation_poll`` seconds, as a revocation over
the protocol does, and keeps every other connection."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge, closed_with, token_of
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.cli import build_parser, config_from_args

POLL = 0.05
#: How long a revoked connection may stay open once the command returns: many polls,
#: so a loaded test machine does not fail it.
CLOSE_WITHIN = 2.0


@contextlib.asynccontextmanager
async def running(tmp_path: Path, poll: float) -> AsyncIterator[Bridge]:
    """A real server on loopback over a real SQLite file, polling every ``poll`` s."""
    config = Config(
        database=tmp_path / "bridge.sqlite3",
        rate_limit=10_000,
        rate_burst=10_000,
        revocation_poll=poll,
    )
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        yield bridge
        for client in bridge.clients:
            await client.close()


@pytest.fixture
async def bridge(tmp_path: Path) -> AsyncIterator[Bridge]:
    async with running(tmp_path, POLL) as started:
        yield started


@pytest.fixture
async def unpolled(tmp_path: Path) -> AsyncIterator[Bridge]:
    """A server that never polls: the test calls ``apply_revocations`` itself."""
    async with running(tmp_path, 0) as started:
        yield started


async def vtt_bridge(*args: str) -> tuple[int, str]:
    """Run the real command line in its own process; its exit code and stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "vtt_bridge",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, err.decode()


async def revoke_with_cli(bridge: Bridge, token: str) -> tuple[int, str]:
    return await vtt_bridge("revoke-token", token, "--db", str(bridge.config.database))


async def eventually(condition: Callable[[], bool], within: float = CLOSE_WITHIN) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition never held"
        await asyncio.sleep(0.01)


async def still_works(member: TableClient) -> None:
    """``member`` is answered: its connection is open and served."""
    await member.send(protocol.Ping)
    assert isinstance(await member.wait_for((protocol.Pong, protocol.ErrorMessage)), protocol.Pong)


async def test_a_token_revoked_with_the_cli_closes_its_connections(bridge: Bridge) -> None:
    table = bridge.table("live", ["alice", "bob"])
    token = token_of(table, "alice")
    gm = await bridge.member(table, "gm")
    alice = await bridge.member(table, "alice")
    alice_again = await bridge.member(table, "alice")  # a second tab, same token
    bob = await bridge.member(table, "bob")

    # Read as a live client does: one that is not reading when the close frame comes
    # cannot answer it before the server drops the socket, and sees 1006 instead.
    closes = asyncio.gather(closed_with(alice.ws), closed_with(alice_again.ws))
    code, err = await revoke_with_cli(bridge, token)
    assert code == 0, err
    assert await asyncio.wait_for(closes, CLOSE_WITHIN) == [1008, 1008]

    # Memory agrees with the database, and it counts as a revocation.
    assert table.tokens[token].revoked
    assert token not in bridge.hub.by_token
    assert not [s for s in table.sessions if s.token == token]
    assert bridge.hub.metrics.snapshot()["tokens_revoked"] == 1
    # Everyone else stays, and is served.
    await still_works(gm)
    await still_works(bob)
    # A new join with the revoked token is refused.
    again = await bridge.connect()
    await again.send(protocol.Join, token=token, last_event=None)
    assert (await again.wait_for(protocol.ErrorMessage)).code == "bad_token"


async def test_the_cli_cannot_revoke_the_gm_token(bridge: Bridge) -> None:
    table = bridge.table("live", ["alice"])
    token = token_of(table, "gm")
    gm = await bridge.member(table, "gm")
    code, err = await revoke_with_cli(bridge, token)
    assert code == 1 and "no such player or spectator token" in err
    await asyncio.sleep(POLL * 5)  # several polls
    assert not table.tokens[token].revoked and bridge.hub.by_token[token] is table
    await still_works(gm)


async def test_a_join_refused_for_a_revoked_token_closes_its_connections(
    unpolled: Bridge,
) -> None:
    # No poll runs (revocation_poll 0): a join with the token revoked elsewhere is what
    # tells the server, and the connection already joined with it is closed at once.
    table = unpolled.table("live", ["alice"])
    token = token_of(table, "alice")
    alice = await unpolled.member(table, "alice")
    code, err = await revoke_with_cli(unpolled, token)
    assert code == 0, err
    await still_works(alice)
    closes = asyncio.ensure_future(closed_with(alice.ws))
    late = await unpolled.connect()
    await late.send(protocol.Join, token=token, last_event=None)
    assert (await late.wait_for(protocol.ErrorMessage)).code == "bad_token"
    assert await asyncio.wait_for(closes, CLOSE_WITHIN) == 1008
    assert unpolled.hub.metrics.counts["tokens_revoked"] == 1
    # A poll now finds nothing left to close, and the next one reads no table at all.
    assert await unpolled.hub.apply_revocations(unpolled.config.clock()) == 0
    assert await unpolled.hub.apply_revocations(unpolled.config.clock()) == 0


async def test_a_failed_poll_is_logged_and_the_next_one_closes(
    bridge: Bridge, caplog: pytest.LogCaptureFixture
) -> None:
    table = bridge.table("live", ["alice"])
    token = token_of(table, "alice")
    alice = await bridge.member(table, "alice")
    # Another process revokes the token and, in the same transaction, takes the join
    # tokens out of the server's reach: its polls fail until they are back.
    other = sqlite3.connect(bridge.config.database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE join_tokens SET revoked = 1 WHERE token = ?", (token,))
        other.execute("ALTER TABLE join_tokens RENAME TO join_tokens_away")
        other.execute("COMMIT")
        with caplog.at_level(logging.ERROR, logger="vtt_bridge"):
            await eventually(lambda: "revocation poll failed" in caplog.text)
        await still_works(alice)
        closes = asyncio.ensure_future(closed_with(alice.ws))
        other.execute("ALTER TABLE join_tokens_away RENAME TO join_tokens")
    finally:
        other.close()
    assert await asyncio.wait_for(closes, CLOSE_WITHIN) == 1008
    assert table.tokens[token].revoked and token not in bridge.hub.by_token


def test_the_poll_interval_is_a_serve_option(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Config().revocation_poll == 1.0
    monkeypatch.setenv("VTT_BRIDGE_REVOCATION_POLL", "0.25")
    parse = build_parser().parse_args
    assert config_from_args(parse(["serve"])).revocation_poll == 0.25
    assert config_from_args(parse(["serve", "--revocation-poll", "0"])).revocation_poll == 0
