"""The receive loop takes a turn of the event loop only when frames wait behind the one
it handled (:func:`vtt_bridge.app._frames_buffered`): a real aiohttp server on
loopback, one frame alone, then a burst the server finds buffered.

That a neighbour's backlog still cannot hold up another table is
``tests/bridge/test_fair_turns.py``'s."""

from __future__ import annotations

import asyncio

import aiohttp
from aiohttp import web

from vtt_bridge.app import _frames_buffered


async def test_a_turn_only_when_frames_wait() -> None:
    seen: list[tuple[bytes, bool]] = []
    burst_sent = asyncio.Event()

    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            if message.data == b"first":
                await burst_sent.wait()  # the burst arrives while this one is handled
            seen.append((message.data, _frames_buffered(ws)))
        return ws

    app = web.Application()
    app.router.add_get("/", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with (
            aiohttp.ClientSession() as client,
            client.ws_connect(f"http://127.0.0.1:{port}/") as ws,
        ):
            await ws.send_bytes(b"alone")
            while len(seen) < 1:
                await asyncio.sleep(0.01)
            await ws.send_bytes(b"first")
            for i in range(3):
                await ws.send_bytes(b"burst%d" % i)
            await asyncio.sleep(0.2)  # read by the server into its buffer
            burst_sent.set()
            while len(seen) < 5:
                await asyncio.sleep(0.01)
    finally:
        await runner.cleanup()
    assert seen == [
        (b"alone", False),
        (b"first", True),
        (b"burst0", True),
        (b"burst1", True),
        (b"burst2", False),
    ]
