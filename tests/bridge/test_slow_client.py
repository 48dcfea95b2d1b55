"""A client that stops reading hurts only itself: it is cut off, nobody else waits."""

from __future__ import annotations

import asyncio
from pathlib import Path

import protocol
from bench.event_window import big_scene
from tests.bridge.conftest import running, token_of

BURST = 400


async def test_a_stalled_reader_is_dropped_and_nobody_else_waits(tmp_path: Path) -> None:
    # 400 scenes of about 20 KB cost far more than the default rate limit allows.
    limits = {"outbound_queue": 32, "rate_limit": 100_000, "rate_burst": 100_000}
    async with running(tmp_path, demo=True, **limits) as bridge:
        table = bridge.hub.table_by_name("demo")
        assert table is not None
        gm = await bridge.connect()
        bob = await bridge.connect()
        await gm.join(token_of(table, "gm"))
        await bob.join(token_of(table, "bob"))
        # Alice joins, then never reads again.
        alice = await bridge.http.ws_connect(bridge.url)
        join = protocol.Join(seq=1, token=token_of(table, "alice"))
        await alice.send_str(protocol.encode_json(join))
        await asyncio.sleep(0.1)
        assert len(table.sessions) == 3

        scene = big_scene(150)  # its scene_loaded broadcast is about 20 KB
        bob_events = 0

        async def bob_reads() -> None:
            nonlocal bob_events
            while bob_events < BURST:
                message = await bob.next()
                if isinstance(message, protocol.Event) and message.kind == "scene_loaded":
                    bob_events += 1

        reader = asyncio.create_task(bob_reads())
        for _ in range(BURST):
            seq = await gm.send(protocol.LoadScene, scene=scene)
            assert isinstance(await gm.reply_to(seq), protocol.Ack)
        await asyncio.wait_for(reader, 30)

        assert bob_events == BURST  # the reader that keeps up missed nothing
        participants = {s.participant for s in table.sessions}
        assert participants == {"gm", "bob"}  # alice was cut off, not waited for
        await alice.close()


#: Scenes broadcast while a member does not read: enough (8 MB) to fill its socket's
#: buffers on loopback, so its writer takes over from the write-at-once path.
LATE = BURST


async def test_a_reader_that_falls_behind_gets_everything_in_order(tmp_path: Path) -> None:
    # Alice reads nothing while 400 scenes of about 20 KB (8 MB) are broadcast: once
    # her socket's buffers are full, what is queued for her is sent by her writer,
    # waiting on the socket, not written at once (``Outbound.flush``); her queue holds
    # it all, so she is not cut off.  Once she reads, every message is there, in order,
    # numbered 1, 2, 3 ...
    limits = {"outbound_queue": 4 * LATE, "rate_limit": 100_000, "rate_burst": 100_000}
    async with running(tmp_path, demo=True, **limits) as bridge:
        table = bridge.hub.table_by_name("demo")
        assert table is not None
        gm = await bridge.connect()
        alice = await bridge.connect()
        await gm.join(token_of(table, "gm"))
        await alice.join(token_of(table, "alice"))
        alice.max_bytes = 1 << 20
        scene = big_scene(150)
        for _ in range(LATE):
            seq = await gm.send(protocol.LoadScene, scene=scene)
            assert isinstance(await gm.reply_to(seq), protocol.Ack)
        last = table.last_event()
        await alice.wait_for(protocol.Event, lambda m: m.index == last)
        loaded = [m for m in alice.inbox if isinstance(m, protocol.Event)]
        assert sum(m.kind == "scene_loaded" for m in loaded) == LATE
        assert [m.index for m in loaded] == sorted(m.index for m in loaded)
        assert [m.seq for m in alice.inbox] == list(range(1, len(alice.inbox) + 1))
        assert "alice" in {s.participant for s in table.sessions}
