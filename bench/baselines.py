"""The servers ``bench.bridge`` measures the bridge against: no rules, no database.

* :func:`serve_echo`: decode each msgpack frame, answer the sender with an ack.  One
  message out per message in: the cost of the stack with none of the bridge's fan-out.
* :func:`serve_fanout`: the real limit of the bridge's load shape.  The same tables
  (the join tokens say who sits where); for each move frame it decodes the frame, sends
  the mover an ack and a move event and every other member of its table the event,
  each member under its own ``seq``, the event's body encoded once for all of them and
  each connection's queue drained into one batch frame when the client joined with
  ``batch``, as the bridge's writer does (``vtt_bridge.outbound.Outbound``).
* The *durable fan-out echo* (:func:`serve_fanout` with a database): the fan-out echo
  that also keeps a log as the bridge keeps its own, still with no rules.  Each move's
  frame body and event go into a queue as JSON; one writer takes everything queued when
  it becomes free, inserts it in one transaction on a database thread of its own
  (SQLite, WAL, ``synchronous`` as the bridge's) and only then sends the acks and
  events, in queue order: the group commit of ``vtt_bridge.committer`` with nothing
  else.  What the bridge costs beyond it is the rules and the bookkeeping.

They run as their own process (``python -m bench.bridge --serve-echo PORT`` and
``--serve-fanout PORT TABLES_JSON [DB SYNCHRONOUS]``), so their CPU time is theirs
alone.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import aiohttp
import msgpack
import msgspec
from aiohttp import web

#: The most messages one batch frame holds (``protocol.MAX_BATCH``).
MAX_BATCH = 64


def _app(ws_handler: Any) -> web.Application:
    async def health(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_get("/ws", ws_handler)
    app.router.add_get("/healthz", health)
    return app


def serve_echo(port: int) -> None:
    """A bare aiohttp WebSocket server: decode each msgpack frame, answer with an ack."""

    async def ws_handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=64 * 1024)
        await ws.prepare(request)
        out = 0
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                frame = msgpack.unpackb(message.data)
                out += 1
                body = {"ref": frame["seq"], "first_event": None, "last_event": None}
                kind = "welcome" if frame["type"] == "join" else "ack"
                reply = {"v": 1, "type": kind, "seq": out, "body": body}
                await ws.send_bytes(msgpack.packb(reply))
        return ws

    web.run_app(_app(ws_handler), host="127.0.0.1", port=port, print=None, access_log=None)


# The event envelope up to its ``seq``'s value, then the key of its body: the bridge
# splices each member's seq between them the same way (``vtt_bridge.fanout``).
_EVENT_HEAD = b"\x84" + b"".join(msgpack.packb(x) for x in ("v", 1, "type", "event", "seq"))
_BODY_KEY = msgpack.packb("body")


class _Member:
    """One joined connection: its seq counter and its writer (a queue and a task)."""

    def __init__(self, ws: web.WebSocketResponse, batch: bool) -> None:
        self.ws = ws
        self.batch = batch
        self.seq = 0
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(256)
        self.writer = asyncio.create_task(self.run())

    def send(self, encoded: bytes) -> None:
        self.queue.put_nowait(encoded)

    def event(self, body: bytes) -> None:
        self.seq += 1
        self.send(_EVENT_HEAD + msgpack.packb(self.seq) + _BODY_KEY + body)

    async def run(self) -> None:
        queue = self.queue
        while True:
            frames = [await queue.get()]
            while self.batch and len(frames) < MAX_BATCH and not queue.empty():
                frames.append(queue.get_nowait())
            if len(frames) == 1:
                await self.ws.send_bytes(frames[0])
            else:
                header = msgpack.Packer().pack_array_header(len(frames))
                await self.ws.send_bytes(header + b"".join(frames))


class GroupLog:
    """The durable fan-out echo's log: group commit with no rules (module docstring).

    :meth:`add` queues a row and what to send once it is committed; the writer task
    commits whatever is queued when it becomes free in one transaction on the
    database thread, then sends, in queue order."""

    def __init__(self, path: Path, synchronous: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, command TEXT, events TEXT)"
        )
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="log")
        self.queue: list[tuple[bytes, bytes, Callable[[], None]]] = []
        self.wake = asyncio.Event()
        self.writer = asyncio.create_task(self.run())

    def add(self, command: Any, event: Any, then: Callable[[], None]) -> None:
        """Queue ``command`` and ``event`` for the log; call ``then`` once committed."""
        self.queue.append((msgspec.json.encode(command), msgspec.json.encode(event), then))
        self.wake.set()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.queue = self.queue, []
            await loop.run_in_executor(self.thread, self.commit, batch)
            for _, _, then in batch:
                then()

    def commit(self, batch: list[tuple[bytes, bytes, Callable[[], None]]]) -> None:
        """Insert ``batch``'s rows in one transaction (on the database thread)."""
        rows = [(command.decode(), event.decode()) for command, event, _ in batch]
        self.db.execute("BEGIN")
        self.db.executemany("INSERT INTO log (command, events) VALUES (?, ?)", rows)
        self.db.execute("COMMIT")


def serve_fanout(
    port: int, tables_file: Path, log_path: Path | None = None, synchronous: str = "FULL"
) -> None:
    """The fan-out echo (see the module docstring); ``tables_file`` is a JSON list of
    tables, each a map from participant to join token (``bench.serving.make_tables``).
    With ``log_path``, the durable fan-out echo: every move is committed to a SQLite
    log there (:class:`GroupLog`) before its ack and events are sent."""
    tables: list[dict[str, str]] = json.loads(tables_file.read_text())
    log: list[GroupLog] = []  # opened once the server's loop runs
    seat = {token: i for i, table in enumerate(tables) for token in table.values()}
    members: list[list[_Member]] = [[] for _ in tables]
    events = [0] * len(tables)

    async def ws_handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=64 * 1024)
        await ws.prepare(request)
        me: _Member | None = None
        table = -1
        try:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.BINARY:
                    continue
                frame = msgpack.unpackb(message.data)
                body = frame["body"]
                if frame["type"] == "join":
                    table = seat[body["token"]]
                    me = _Member(ws, bool(body.get("batch")))
                    members[table].append(me)
                    me.seq += 1
                    welcome = {"ref": frame["seq"], "last_event": events[table] - 1}
                    reply = {"v": 1, "type": "welcome", "seq": me.seq, "body": welcome}
                    me.send(msgpack.packb(reply))
                    continue
                assert me is not None
                index = events[table]
                events[table] += 1
                event = {
                    "index": index,
                    "kind": "token_placed",
                    "data": {"token": body["token"], "at": body["path"][-1]},
                }
                answer = _answer(me, members[table], frame["seq"], event)
                if log:
                    log[0].add(body, event, answer)
                else:
                    answer()
                await asyncio.sleep(0)  # take turns, as the bridge's reader does
        finally:
            if me is not None:
                members[table].remove(me)
                me.writer.cancel()
        return ws

    async def open_log(app: web.Application) -> None:
        if log_path is not None:
            log.append(GroupLog(log_path, synchronous))

    app = _app(ws_handler)
    app.on_startup.append(open_log)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


def _answer(
    me: _Member, members: list[_Member], ref: int, event: dict[str, Any]
) -> Callable[[], None]:
    """Send the mover its ack and every member of its table the event, when called."""

    def answer() -> None:
        me.seq += 1
        index = event["index"]
        ack = {"ref": ref, "first_event": index, "last_event": index}
        me.send(msgpack.packb({"v": 1, "type": "ack", "seq": me.seq, "body": ack}))
        encoded = msgpack.packb(event)
        for member in members:
            member.event(encoded)

    return answer
