"""New connections' first reads are parsed a few per loop iteration
(:mod:`vtt_bridge.listener`): a burst of handshakes is spread over iterations, and
every one of them is still upgraded and served, in a real server on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import protocol
from tests.bridge.conftest import Bridge, running, token_of
from vtt_bridge.app import LIMITS
from vtt_bridge.limits import ARRIVALS_PER_TURN

#: Handshakes sent at once: several iterations' worth.
BURST = 6 * ARRIVALS_PER_TURN


@pytest.fixture
async def roomy(tmp_path: Path) -> AsyncIterator[Bridge]:
    """A bridge that admits a burst from one address with one token."""
    async with running(
        tmp_path, join_burst=1000, join_rate=1000, max_connections_per_token=0
    ) as started:
        yield started


async def raw_handshake(bridge: Bridge) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection that has sent a WebSocket upgrade request."""
    host, port = bridge.server.host, bridge.server.port
    assert port is not None
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await writer.drain()
    return reader, writer


async def test_a_burst_of_handshakes_is_parsed_over_several_iterations(roomy: Bridge) -> None:
    reads = roomy.server.app[LIMITS].first_reads
    before = reads.waited
    opened = await asyncio.gather(*(raw_handshake(roomy) for _ in range(BURST)))
    try:
        status = await asyncio.gather(
            *(asyncio.wait_for(reader.readline(), 10) for reader, _ in opened)
        )
        assert all(line.startswith(b"HTTP/1.1 101") for line in status)
        # Some first reads found their iteration full and went on in a later one.
        assert reads.waited > before
    finally:
        for _, writer in opened:
            writer.close()
    # The server goes on serving: a join after the burst is welcomed.
    table = roomy.table("after", ["alice"])
    assert (await roomy.member(table, "alice")) is not None
    assert roomy.hub.metrics.snapshot()["joins"] >= 1


async def test_a_client_that_leaves_while_its_handshake_is_held_costs_nothing(
    roomy: Bridge,
) -> None:
    opened = await asyncio.gather(*(raw_handshake(roomy) for _ in range(BURST)))
    for _, writer in opened:  # every one gone before most are parsed
        writer.transport.abort()
    await asyncio.sleep(0.2)
    member = await roomy.connect()
    table = roomy.table("after", ["alice"])
    await member.send(protocol.Join, token=token_of(table, "alice"), last_event=None)
    assert isinstance(await member.wait_for(protocol.Welcome), protocol.Welcome)


def test_on_uvloop_every_handshake_is_served(tmp_path: Path) -> None:
    # uvloop's transports are not asyncio.Transport instances: the paced protocol must
    # take them as they are (``--event-loop uvloop``).
    uvloop = pytest.importorskip("uvloop")

    async def burst() -> list[bytes]:
        async with running(tmp_path, join_burst=1000, join_rate=1000) as bridge:
            opened = await asyncio.gather(*(raw_handshake(bridge) for _ in range(BURST)))
            try:
                return await asyncio.gather(
                    *(asyncio.wait_for(reader.readline(), 10) for reader, _ in opened)
                )
            finally:
                for _, writer in opened:
                    writer.close()

    status = uvloop.run(burst())
    assert len(status) == BURST and all(line.startswith(b"HTTP/1.1 101") for line in status)
