"""The aiohttp application: one WebSocket endpoint, a health check, and the hub behind them.

Shaped like aiohttp's ``examples/web_ws.py``: an app factory, a ``web.AppKey`` for every
shared object, ``cleanup_ctx`` for what lives as long as the app, and one receive loop
per connection inside ``try/finally``.  Sending is not done in the receive loop: each
connection has a bounded outbound queue drained by its own writer task, so a slow
client only ever slows itself; one whose queue overflows is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import weakref
from collections.abc import AsyncIterator, Callable

from aiohttp import WSCloseCode, WSMsgType, web

import protocol
from vtt_bridge.config import Config
from vtt_bridge.hub import Hub
from vtt_bridge.recording import FileRecorder
from vtt_bridge.store import Store
from vtt_bridge.tables import Session

log = logging.getLogger("vtt_bridge")

CONFIG = web.AppKey("config", Config)
HUB = web.AppKey("hub", Hub)
SOCKETS = web.AppKey("sockets", weakref.WeakSet[web.WebSocketResponse])
TIMERS = web.AppKey("timers", set[asyncio.TimerHandle])
TASKS = web.AppKey("tasks", set[asyncio.Task[None]])
RECORDERS = web.AppKey("recorders", list[FileRecorder])

DEMO_TABLE = "demo"
DEMO_PLAYERS = ["alice", "bob"]


class Outbound:
    """A connection's bounded send queue and the task that drains it."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        conn: str,
        limit: int,
        on_overflow: Callable[[Session], None],
    ) -> None:
        self._ws = ws
        self._on_overflow = on_overflow
        self.session = Session(conn, self.deliver)
        self._queue: asyncio.Queue[protocol.ServerMessage] = asyncio.Queue(limit)
        self.overflowed = False

    def deliver(self, message: protocol.ServerMessage) -> None:
        """Queue ``message``; a full queue marks the client too slow and closes it."""
        if self.overflowed:
            return
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            log.warning("closing %s: outbound queue full", self.session.conn)
            # Stop broadcasting to it now; the close handshake may take a while.
            self._on_overflow(self.session)
            asyncio.get_running_loop().create_task(
                self._ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"too slow")
            )

    async def run(self) -> None:
        """Send queued messages in order, in the frame kind the client joined with."""
        while True:
            message = await self._queue.get()
            if self.session.binary:
                await self._ws.send_bytes(protocol.encode_msgpack(message))
            else:
                await self._ws.send_str(protocol.encode_json(message))


def create_app(config: Config) -> web.Application:
    """The bridge as an aiohttp application."""
    app = web.Application()
    app[CONFIG] = config
    app[SOCKETS] = weakref.WeakSet()
    app[TIMERS] = set()
    app[TASKS] = set()
    app[RECORDERS] = []
    app.cleanup_ctx.append(_hub_context)
    app.on_shutdown.append(_close_sockets)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/healthz", healthz)
    return app


async def _hub_context(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    loop = asyncio.get_running_loop()

    def arm(table_id: str, prompt_id: str, deadline_ms: int) -> None:
        delay = max(0.0, (deadline_ms - config.clock()) / 1000)

        def fire() -> None:
            task = loop.create_task(app[HUB].expire(table_id, prompt_id, config.clock()))
            app[TASKS].add(task)
            task.add_done_callback(app[TASKS].discard)

        app[TIMERS].add(loop.call_later(delay, fire))

    hub = Hub(Store(config.database), on_deadline=arm)
    app[HUB] = hub
    if config.demo and hub.table_by_name(DEMO_TABLE) is None:
        hub.create_table(
            DEMO_TABLE, DEMO_PLAYERS, prompt_timeout=config.prompt_timeout, now_ms=config.clock()
        )
    if config.record_dir is not None:
        now = config.clock()
        for table in hub.tables.values():
            path = config.record_dir / f"{table.row.name}-{table.id}-{now}.jsonl"
            table.recorder = FileRecorder(path, table, hub.store.log(table.id), now)
            app[RECORDERS].append(table.recorder)
    try:
        yield
    finally:
        for timer in app[TIMERS]:
            timer.cancel()
        tasks: set[asyncio.Task[None]] = app[TASKS]
        for task in list(tasks):
            task.cancel()
        for recorder in app[RECORDERS]:
            recorder.close()
        hub.close()


async def _close_sockets(app: web.Application) -> None:
    sockets: weakref.WeakSet[web.WebSocketResponse] = app[SOCKETS]
    for ws in list(sockets):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")


async def healthz(request: web.Request) -> web.Response:
    """Liveness: answers at once while the event loop runs."""
    hub = request.app[HUB]
    return web.json_response({"ok": True, "tables": len(hub.tables)})


_connection_ids = itertools.count(1)


async def websocket(request: web.Request) -> web.WebSocketResponse:
    """One client connection: join, then commands; everything else is the hub's."""
    config = request.app[CONFIG]
    hub = request.app[HUB]
    ws = web.WebSocketResponse(
        heartbeat=config.heartbeat, max_msg_size=config.max_message_bytes, compress=False
    )
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)
    outbound = Outbound(
        ws,
        f"c{next(_connection_ids)}",
        config.outbound_queue,
        lambda session: hub.leave(session, config.clock()),
    )
    session = outbound.session
    writer = asyncio.create_task(outbound.run())
    try:
        async for message in ws:
            if message.type == WSMsgType.TEXT or message.type == WSMsgType.BINARY:
                await hub.receive(session, message.data, config.clock())
    finally:
        hub.leave(session, config.clock())
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer
    return ws
