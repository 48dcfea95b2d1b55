"""``DrainingResponse.buffered``: whether frames read from the socket wait to be received.

The receive loop yields to the event loop after a frame only when another is buffered
(``vtt_bridge.connection``); it reads a private attribute of aiohttp's reader queue, so
this checks, on a real server on loopback, that the attribute is there and says what
the loop needs: True while a frame waits, False once all are received.
"""

from __future__ import annotations

import asyncio

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from vtt_bridge.wsresponse import DrainingResponse

#: Longest the server waits for the client's second frame to reach its buffer.
ARRIVAL_LIMIT_S = 10.0


async def test_buffered_says_whether_a_frame_waits() -> None:
    seen: list[bool] = []

    async def handler(request: web.Request) -> web.StreamResponse:
        ws = DrainingResponse()
        await ws.prepare(request)
        assert hasattr(ws._reader, "_buffer"), "aiohttp's reader queue changed"
        await ws.receive()  # the first frame
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ARRIVAL_LIMIT_S
        while not ws.buffered() and loop.time() < deadline:
            await asyncio.sleep(0.01)  # the second frame is on its way
        seen.append(ws.buffered())
        await ws.receive()  # the second: nothing more was sent
        seen.append(ws.buffered())
        await ws.send_str("done")
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/ws", handler)
    async with (
        TestServer(app) as server,
        aiohttp.ClientSession() as http,
        http.ws_connect(server.make_url("/ws")) as ws,
    ):
        await ws.send_str("one")
        await ws.send_str("two")
        reply = await ws.receive()
        assert reply.data == "done"
    assert seen == [True, False]
