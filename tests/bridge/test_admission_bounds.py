"""The join gate's bounds over a real server on loopback: a member's ``resync`` takes a
turn as a join does, and clients that do not read hold a turn at most
``ADMISSION_TURN_S`` (their catch-up still being built) or ``ADMISSION_FLUSH_S`` (built,
not yet on the socket), so the next join is admitted long before the stall timeout
would free the gate.

The clients that do not read are raw sockets with a small receive buffer that send an
upgrade and a join, then never read again; the table's log holds a few MB of large
scene loads, far more than the sockets, the transport and the queue hold between
them."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from pathlib import Path

import protocol
from tests.bridge.conftest import Bridge, running, token_of
from tests.bridge.test_fair_turns import masked_text_frame, walled_scene
from tests.bridge.test_hardening import UPGRADE
from vtt_bridge.app import CONNECTIONS, LIMITS, Outbound
from vtt_bridge.limits import ADMISSIONS
from vtt_bridge.tables import Table

#: Scene loads in the log: about 45 KB each, 900 KB (within the memory window, 1 MB).
LOADS = 20
#: Far below the stall timeout the tests set (which would free the gate anyway).
PROMPTLY_S = 5.0


async def large_log(bridge: Bridge, table: Table, moves: int = 0) -> None:
    """Fill ``table``'s log with :data:`LOADS` large scene loads, then ``moves`` moves
    (many events: a catch-up waits for room in its queue every CATCH_UP_CHUNK)."""
    gm = await bridge.member(table, "gm")
    scene = walled_scene(side=200, tokens=300)
    for _ in range(LOADS):
        ack = await gm.reply_to(await gm.send(protocol.LoadScene, scene=scene))
        assert isinstance(ack, protocol.Ack)
    for i in range(moves):
        ack = await gm.reply_to(await gm.send(protocol.Move, token="hero", path=[[5, 6 - i % 2]]))
        assert isinstance(ack, protocol.Ack)


async def silent_join(bridge: Bridge, token: str) -> tuple[asyncio.StreamWriter, Outbound]:
    """Upgrade, join with a catch-up of the whole log, and never read again.

    Both ends' socket buffers are made small first (the server's once upgraded, before
    the join): loopback buffers would otherwise take megabytes, more than the table's
    memory window of events, and the catch-up would never have to wait."""
    port = bridge.server.port
    assert port is not None
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: the window
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=4096)
    before = set(bridge.server.app[CONNECTIONS])
    writer.write(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{UPGRADE}\r\n".encode())
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
    while not (new := set(bridge.server.app[CONNECTIONS]) - before):
        await asyncio.sleep(0.01)
    (outbound,) = new
    server_side = outbound._transport  # a slow network: the server's send buffer small
    assert server_side is not None
    server_side.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    join = protocol.Join(seq=1, token=token, last_event=0)
    writer.write(masked_text_frame(protocol.encode_json(join)))
    await writer.drain()
    return writer, outbound


async def admitted_after_silent_joins(
    bridge: Bridge, table: Table
) -> tuple[float, tuple[Outbound, ...]]:
    """Two clients that do not read take both turns; how long the next join then
    waits for its welcome (s), and the two silent connections."""
    players = [f"p{i}" for i in range(ADMISSIONS)]
    writers, silent = zip(
        *[await silent_join(bridge, token_of(table, p)) for p in players], strict=True
    )
    began = time.perf_counter()
    late = await bridge.connect()  # its upgrade takes a turn too
    await late.join(token_of(table, "alice"))
    waited = time.perf_counter() - began
    for writer in writers:
        writer.close()
    return waited, silent


async def test_a_catch_up_to_a_client_that_does_not_read_holds_its_turn_briefly(
    tmp_path: Path,
) -> None:
    # 400 events past the scenes: the catch-up soon waits for room that never comes.
    async with running(tmp_path, rate_limit=1e6, rate_burst=10**6, stall_timeout=60) as bridge:
        table = bridge.table("t", ["alice", "p0", "p1"])
        await large_log(bridge, table, moves=400)
        waited, silent = await admitted_after_silent_joins(bridge, table)
        assert waited < PROMPTLY_S
        for outbound in silent:  # still connected, still catching up: the turn bound
            assert not outbound.dropped and outbound.session.held is not None
        assert bridge.server.app[LIMITS].gate.waited >= 1


async def test_a_catch_up_built_but_not_read_holds_its_turn_briefly(tmp_path: Path) -> None:
    # A queue that holds the whole catch-up: it is built at once, then never sent.
    async with running(
        tmp_path, rate_limit=1e6, rate_burst=10**6, stall_timeout=60, outbound_queue=100_000
    ) as bridge:
        table = bridge.table("t", ["alice", "p0", "p1"])
        await large_log(bridge, table)
        waited, silent = await admitted_after_silent_joins(bridge, table)
        assert waited < PROMPTLY_S
        for outbound in silent:  # caught up in the queue, not on the socket: the flush bound
            assert not outbound.dropped and outbound.session.held is None
        assert bridge.server.app[LIMITS].gate.waited >= 1


async def test_a_resync_waits_for_a_turn_of_the_join_gate(tmp_path: Path) -> None:
    async with running(tmp_path, rate_limit=1e6, rate_burst=10**6) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        for _ in range(3):
            ack = await gm.reply_to(await gm.send(protocol.LoadScene, scene=walled_scene(50)))
            assert isinstance(ack, protocol.Ack)
        alice = await bridge.member(table, "alice")
        gate = bridge.server.app[LIMITS].gate
        async with contextlib.AsyncExitStack() as taken:
            for _ in range(ADMISSIONS):  # every turn taken: the resync's catch-up waits
                await taken.enter_async_context(gate)
            await alice.send(protocol.Resync, after=-1)
            reading = asyncio.ensure_future(alice.wait_for(protocol.Event))
            done, _ = await asyncio.wait({reading}, timeout=0.5)
            assert not done  # nothing sent while it waits for its turn
            assert gate.waited == 1
        first = await reading
        rest = [await alice.wait_for(protocol.Event) for _ in range(len(table.events) - 1)]
        assert [e.index for e in [first, *rest]] == list(range(len(table.events)))
