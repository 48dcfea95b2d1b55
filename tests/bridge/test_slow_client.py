"""A client that stops reading hurts only itself: it is cut off, nobody else waits."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer

import protocol
from bench.event_window import big_scene
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB

BURST = 400


async def test_a_stalled_reader_is_dropped_and_nobody_else_waits(tmp_path: Path) -> None:
    # 400 scenes of about 20 KB cost far more than the default rate limit allows.
    config = Config(
        database=tmp_path / "db.sqlite3",
        demo=True,
        outbound_queue=32,
        rate_limit=100_000,
        rate_burst=100_000,
    )
    app = create_app(config)
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        table = app[HUB].table_by_name("demo")
        assert table is not None
        tokens = {g.participant: g.token for g in table.tokens.values()}
        url = str(server.make_url("/ws"))
        gm = await TableClient.connect(http, url)
        bob = await TableClient.connect(http, url)
        await gm.join(tokens["gm"])
        await bob.join(tokens["bob"])
        # Alice joins, then never reads again.
        alice = await http.ws_connect(url)
        await alice.send_str(protocol.encode_json(protocol.Join(seq=1, token=tokens["alice"])))
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
