"""The aiohttp application: one WebSocket endpoint, health and counters, the hub behind them.

Shaped like aiohttp's ``examples/web_ws.py``: an app factory, a ``web.AppKey`` for every
shared object, ``cleanup_ctx`` for what lives as long as the app, and one receive loop
per connection inside ``try/finally``.

What a connection may cost the server is bounded here, before the hub sees a frame:

* the handshake: the whole HTTP request must arrive within ``handshake_timeout``
  seconds (else the socket is dropped); beyond ``max_connections`` open connections it
  is refused with 503 before the upgrade; an ``Origin`` header must be on the allowlist
  (403 otherwise); no permessage-deflate; heartbeats; frames over
  ``max_message_bytes`` close it (1009);
* it must join within ``join_timeout`` seconds (else close 1008);
* every request must name this server's ``Host`` (:mod:`vtt_bridge.hosts`, 421), and
  handshakes from one address are limited (``--join-rate``, HTTP 429);
* a token bucket limits inbound messages, counting what each costs
  (:mod:`vtt_bridge.costs`), one bucket per participant over all its connections
  (:mod:`vtt_bridge.limits`, which also keeps a server stall off the bill); when empty
  the message is refused with ``rate_limited``, then the connection is closed (1008);
* joins are admitted a few at a time (:class:`vtt_bridge.limits.Gate`), so a reconnect
  storm's catch-ups take turns with every other table's frames;
* frames of different connections take turns: the receive loop yields to the event
  loop after each frame, so a connection with a backlog of buffered frames cannot
  keep the others waiting until its backlog is done;
* sending is not done in the receive loop: each connection has a bounded outbound queue
  drained by its own writer task, so a slow client only ever slows itself.  A full
  queue closes it (1013), and a watchdog aborts one whose socket has not taken a frame
  for ``stall_timeout`` seconds.  Either way it leaves the broadcasts at once.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import math
import os
import signal
import threading
from collections.abc import AsyncIterator, Callable
from typing import cast

from aiohttp import WSCloseCode, WSMsgType, web

import protocol
from vtt_bridge import costs, prometheus
from vtt_bridge.config import Config
from vtt_bridge.fanout import Shared
from vtt_bridge.hosts import hosts_guard, origin_allowed
from vtt_bridge.hub import Hub
from vtt_bridge.limits import (
    PRE_JOIN_BURST,
    Bucket,
    Buckets,
    Gate,
    JoinRate,
    LoopLag,
    take_turn,
)
from vtt_bridge.operations import operations_guard, warn_if_files_run_short
from vtt_bridge.page import add_routes as add_page_routes
from vtt_bridge.recording import REPLAYED_LIMITS, FileRecorder
from vtt_bridge.store import Store
from vtt_bridge.tables import Session
from vtt_bridge.wsresponse import DrainingResponse

__all__ = [
    "CONFIG",
    "CONNECTIONS",
    "HUB",
    "LIMITS",
    "Limits",
    "Outbound",
    "create_app",
    "origin_allowed",
]

log = logging.getLogger("vtt_bridge")

CONFIG = web.AppKey("config", Config)
HUB = web.AppKey("hub", Hub)
CONNECTIONS: web.AppKey[set[Outbound]] = web.AppKey("connections")
TIMERS = web.AppKey("timers", set[asyncio.TimerHandle])
TASKS = web.AppKey("tasks", set[asyncio.Task[None]])
RECORDERS = web.AppKey("recorders", list[FileRecorder])


class Limits:
    """The server-wide side of the limits: the loop's lag, the participants' buckets,
    the handshakes per address and the join gate (:mod:`vtt_bridge.limits`)."""

    def __init__(self, config: Config) -> None:
        loop = asyncio.get_running_loop()
        self.lag = LoopLag(loop.time)
        self.buckets = Buckets(config.rate_limit, float(config.rate_burst), self.lag)
        self.join_rate = JoinRate(config.join_rate, config.join_burst)
        self.gate = Gate()


LIMITS = web.AppKey("limits", Limits)

DEMO_TABLE = "demo"
DEMO_PLAYERS = ["alice", "bob"]
CLOSE_POLICY = WSCloseCode.POLICY_VIOLATION  # 1008
_FLUSH_AND_CLOSE = object()


class Outbound:
    """A connection's bounded send queue, the task that drains it, and its rate limit."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None,
        conn: str,
        config: Config,
        on_drop: Callable[[Session], None],
        limits: Limits | None = None,
        table_of: Callable[[str], str | None] = lambda token: None,
    ) -> None:
        self._ws = ws
        self._transport = transport
        self._on_drop = on_drop
        self.session = Session(
            conn, self.deliver, self.kick, self.deliver_shared, self.room, self.charge
        )
        # A deque and a wake-up future rather than an ``asyncio.Queue``: a command puts
        # about six messages on its table's queues, and the queue's bookkeeping (its
        # unfinished-task count and join event, a getter scan per put) cost more than
        # the rest of queueing them.  A limit of 0 or less: unbounded, as asyncio's.
        self._limit = config.outbound_queue if config.outbound_queue > 0 else math.inf
        self._half = config.outbound_queue // 2
        self._queue: collections.deque[object] = collections.deque()
        self._wakeup: asyncio.Future[None] | None = None
        self.dropped = False
        self.busy_since: float | None = None
        self._rate = config.rate_limit
        self._burst = float(config.rate_burst)
        self._max_bytes = config.max_message_bytes
        now = asyncio.get_running_loop().time()
        self._limits = limits
        #: The id of the table a join token opens, if memory knows it.
        self._hub_tables = table_of
        lag = limits.lag if limits is not None else None
        #: Until it has joined: a small bucket of its own (all it may usefully send is a
        #: join); then its participant's, shared with all its connections.
        self._bucket = Bucket(self._rate, min(self._burst, float(PRE_JOIN_BURST)), now, lag)
        self._joined = False
        #: What the connection's own bucket was charged before it joined.
        self._paid_before_join = 0.0
        #: What the last frame took from the bucket (its decoded message's extra cost
        #: tops that up to at most a full bucket; see :meth:`charge`).
        self._frame_paid = 0.0
        self._close_code: int = WSCloseCode.GOING_AWAY
        self._close_reason = b"server shutdown"
        self._closing: asyncio.Task[bool] | None = None
        #: Told why and closing once its queue is sent (a refused rate): the receive
        #: loop lets the writer finish instead of cancelling it.
        self.flushing = False
        #: Called when the rate limit refuses a message (the hub counts it).
        self.on_rate_limited: Callable[[], None] = lambda: None

    def deliver(self, message: protocol.ServerMessage) -> None:
        """Queue ``message``; a full queue marks the client too slow and closes it."""
        if not self.dropped and not self._put(message):
            self.drop(WSCloseCode.TRY_AGAIN_LATER, "too slow", "outbound queue full")

    def deliver_shared(self, shared: Shared, seq: int) -> None:
        """Queue a broadcast message under ``seq`` (encoded once for all members)."""
        if not self.dropped and not self._put((shared, seq)):
            self.drop(WSCloseCode.TRY_AGAIN_LATER, "too slow", "outbound queue full")

    def _put(self, item: object) -> bool:
        """Queue ``item`` and wake the writer if it waits; False when the queue is full."""
        if len(self._queue) >= self._limit:
            return False
        self._queue.append(item)
        wakeup = self._wakeup
        if wakeup is not None:
            self._wakeup = None
            if not wakeup.done():
                wakeup.set_result(None)
        return True

    async def _get(self) -> object:
        """The next queued item, waiting for one."""
        while not self._queue:
            self._wakeup = asyncio.get_running_loop().create_future()
            await self._wakeup
        return self._queue.popleft()

    async def flushed(self, limit: float) -> None:
        """Wait until everything queued has been handed to the socket (or the client is
        gone, or ``limit`` seconds passed): a join holds its admission until then."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while (self._queue or self.busy_since is not None) and not self.dropped:
            if loop.time() >= deadline:
                return
            await asyncio.sleep(0.002)

    async def room(self) -> None:
        """Wait until the queue is at most half full (or the client is gone)."""
        while len(self._queue) > self._half and not self.dropped:
            await asyncio.sleep(0.005)

    def drop(self, code: int, reason: str, why: str) -> None:
        """Stop sending to this client now and close it; the handshake may take a while."""
        if self.dropped:
            return
        self.dropped = True
        log.warning("closing %s: %s", self.session.conn, why)
        self._on_drop(self.session)
        loop = asyncio.get_running_loop()
        self._closing = loop.create_task(self._ws.close(code=code, message=reason.encode()))

    def kick(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` (the hub revoked its join token)."""
        self.drop(code, reason, reason)

    def bucket(self, now: float) -> Bucket:
        """The bucket this connection charges: its own until it has joined, then its
        participant's (one per join token and table, :class:`Buckets`)."""
        session = self.session
        if not self._joined and session.table is not None and session.token:
            if self._limits is not None:
                self._bucket = self._limits.buckets.get(session.table.id, session.token, now)
                self._bucket.debit(self._paid_before_join, now)
            self._joined = True
        return self._bucket

    def admit(self, now: float, cost: int = 1) -> bool:
        """Take ``cost`` tokens from the bucket; False (taking none) when it has fewer.

        A cost above the bucket's size takes the whole (full) bucket: a frame as large
        as ``--max-message-bytes`` allows must stay sendable whatever the burst."""
        bucket = self.bucket(now)
        if not bucket.take(float(cost), now):
            return False
        if not self._joined:
            self._paid_before_join += min(float(cost), bucket.burst)
        return True

    def admit_frame(self, frame: str | bytes) -> bool:
        """Charge an inbound frame before it is decoded (:func:`costs.frame_cost`);
        when the bucket is empty, refuse it (:meth:`refuse_rate`) and return False."""
        cost = costs.frame_cost(_wire_size(frame))
        now = asyncio.get_running_loop().time()
        if self.admit(now, cost):
            self._frame_paid = min(float(cost), self.bucket(now).burst)
            return True
        if self.session.table is None:  # not joined: answered in this frame's kind
            self.session.binary = isinstance(frame, bytes)
        # Decoded only to name the refused message (its seq, its type): once, as the
        # connection is closing anyway, and bounded by the frame size limit (the
        # server's, which may be above the protocol's default).
        ref = None
        try:
            message: protocol.ClientMessage | None = protocol.decode_client(
                frame, max_bytes=self._max_bytes
            )
        except protocol.ProtocolError as exc:
            message, ref = None, exc.seq
        self.refuse_rate(cost, message, ref)
        return False

    def spent_join(self, frame: str | bytes) -> bool:
        """Refuse a join whose participant's bucket is empty (``rate_limited``, 1008)
        before it costs a token read and a state: reconnecting is no way around the
        limit, and a reconnect loop is turned away at its cheapest."""
        if self._limits is None:
            return False
        try:
            message = protocol.decode_client(frame, max_bytes=self._max_bytes)
        except protocol.ProtocolError:
            return False  # the hub refuses it, with its reasons
        if not isinstance(message, protocol.Join):
            return False
        table = self._hub_tables(message.token)
        if table is None:
            return False
        now = asyncio.get_running_loop().time()
        bucket = self._limits.buckets.peek(table, message.token, now)
        if bucket is None or bucket.tokens >= 1:
            return False
        self.session.binary = isinstance(frame, bytes)  # answered in the join's kind
        self.refuse_rate(1, message)
        return True

    def charge(self, cost: int, message: protocol.ClientMessage) -> bool:
        """The session's hook: take ``cost`` more tokens for a decoded ``message``.

        With its frame's, at most a full bucket: the largest scene the frame size limit
        allows (priced by its tokens too, :func:`costs.scene_cost`) stays sendable."""
        now = asyncio.get_running_loop().time()
        cost = min(cost, max(0, math.ceil(self.bucket(now).burst - self._frame_paid)))
        if self.admit(now, cost):
            return True
        self.refuse_rate(cost, message)
        return False

    def refuse_rate(
        self, cost: int, message: protocol.ClientMessage | None, ref: int | None = None
    ) -> None:
        """Over the rate limit: tell the client why (``rate_limited``, naming the
        message's seq when it could be read: ``ref`` when it did not decode), then
        close with 1008 once that is sent.

        Not recorded: the refused frame is not in the recording either, and a replay
        ends the connection where the recording does."""
        if self.dropped:
            return
        self.on_rate_limited()
        what = f"{message.TYPE!r}" if message is not None else "this frame"
        text = (
            f"rate limit exceeded: {what} costs {cost} of {self._burst:g} tokens, which "
            f"refill at {self._rate:g}/s for each participant over all its connections; "
            "send drags as one move (see docs/operations.md); closing (1008)"
        )
        error = protocol.ErrorMessage(
            seq=self.session.next_seq(),
            ref=ref if message is None else message.seq,
            code="rate_limited",
            message=text,
        )
        self._put(error)  # not sent if the queue is full: the close says why
        self._close_code, self._close_reason = CLOSE_POLICY, b"rate limit"
        self.flushing = True
        self._put(_FLUSH_AND_CLOSE)
        self.dropped = True
        log.warning("closing %s: rate limit exceeded", self.session.conn)
        self._on_drop(self.session)

    def stalled(self, now: float, limit: float) -> bool:
        """True when one send has been waiting on the socket for more than ``limit`` s."""
        return self.busy_since is not None and now - self.busy_since > limit

    def abort(self) -> None:
        """Drop a stalled client without a close handshake (it is not reading)."""
        self.dropped = True
        self._on_drop(self.session)
        log.warning("aborting %s: no frame taken for too long", self.session.conn)
        if isinstance(self._transport, asyncio.WriteTransport):
            self._transport.abort()

    def flush_and_close(self, code: int) -> None:
        """Send what is queued, then close with ``code`` (graceful shutdown)."""
        self._close_code = code
        self._put(_FLUSH_AND_CLOSE)

    async def run(self) -> None:
        """Send queued messages in order, in the frame kind the client joined with.

        A client that joined with ``batch`` gets what is queued by the time the writer
        wakes in one frame (:func:`protocol.encode_batch`), up to :data:`MAX_BATCH`
        messages and :data:`protocol.MAX_FRAME_BYTES` (what a reader of ours accepts; a
        single larger message, a big ``state``, still goes alone): the acknowledgement
        and the broadcasts of a whole group commit cost one WebSocket write."""
        loop = asyncio.get_running_loop()
        queue = self._queue
        carried: bytes | str | None = None  # encoded, did not fit in the last frame
        while True:
            if carried is None:
                item = queue.popleft() if queue else await self._get()
                if item is _FLUSH_AND_CLOSE:
                    await self._ws.close(code=self._close_code, message=self._close_reason)
                    return
                carried = self._encode(item)
            frames, size, closing = [carried], _wire_size(carried), False
            carried = None
            while self.session.batch and len(frames) < protocol.MAX_BATCH and queue:
                item = queue.popleft()
                if item is _FLUSH_AND_CLOSE:
                    closing = True
                    break
                frame = self._encode(item)
                size += _wire_size(frame) + 1  # the separator, or the array header's growth
                if size + 5 > protocol.MAX_FRAME_BYTES:  # 5: the largest array header
                    carried = frame
                    break
                frames.append(frame)
            self.busy_since = loop.time()
            out = frames[0] if len(frames) == 1 else protocol.encode_batch(frames)
            if isinstance(out, bytes):
                await self._ws.send_bytes(out)
            else:
                await self._ws.send_str(out)
            self.busy_since = None
            if closing:
                await self._ws.close(code=self._close_code, message=self._close_reason)
                return

    def _encode(self, item: object) -> bytes | str:
        binary = self.session.binary
        if isinstance(item, tuple):
            shared: Shared = item[0]
            return shared.encode_msgpack(item[1]) if binary else shared.encode_json(item[1])
        message = cast(protocol.ServerMessage, item)
        return protocol.encode_msgpack(message) if binary else protocol.encode_json(message)


def _wire_size(frame: bytes | str) -> int:
    """Bytes on the wire: a text frame is UTF-8."""
    if isinstance(frame, bytes) or frame.isascii():
        return len(frame)
    return len(frame.encode("utf-8"))


def crash_hook(spec: str | None) -> Callable[[str], bool]:
    """The fault injector for the crash test: ``POINT`` or ``POINT:N`` (see ``Config``).

    At ``after_ack`` the acknowledgement is let out first (the kill comes 50 ms later)
    and the hub skips the broadcast; everywhere else the kill is immediate.
    """
    if not spec:
        return lambda point: False
    name, _, nth = spec.partition(":")
    remaining = [int(nth) if nth else 1]
    lock = threading.Lock()

    def hook(point: str) -> bool:
        if point != name:
            return False
        with lock:
            remaining[0] -= 1
            if remaining[0] != 0:
                return False
        if point == "after_ack":
            threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGKILL)).start()
            return True
        os.kill(os.getpid(), signal.SIGKILL)
        return True  # not reached

    return hook


def create_app(config: Config) -> web.Application:
    """The bridge as an aiohttp application."""

    # aiohttp's keep-alive timer is the only deadline on a connection that has not sent
    # its whole request yet (75 s by default under ``web.run_app``): it is the handshake
    # deadline.  Once upgraded, a WebSocket is governed by its heartbeat instead.
    def host_refused(request: web.Request) -> None:
        if HUB in request.app:
            request.app[HUB].metrics.count("host_refused")

    app = web.Application(
        handler_args={"keepalive_timeout": config.handshake_timeout},
        middlewares=[hosts_guard(config, host_refused), operations_guard(config)],
    )
    app[CONFIG] = config
    app[CONNECTIONS] = set()
    app[TIMERS] = set()
    app[TASKS] = set()
    app[RECORDERS] = []
    app.cleanup_ctx.append(_hub_context)
    app.on_shutdown.append(_shutdown)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/metrics.json", metrics_json)
    add_page_routes(app)
    return app


async def _hub_context(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    loop = asyncio.get_running_loop()

    def arm(table_id: str, prompt_id: str, deadline_ms: int) -> None:
        delay = max(0.0, (deadline_ms - config.clock()) / 1000)

        def fire() -> None:
            app[TIMERS].discard(timer)
            task = loop.create_task(app[HUB].expire(table_id, prompt_id, config.clock()))
            app[TASKS].add(task)
            task.add_done_callback(app[TASKS].discard)

        timer = loop.call_later(delay, fire)
        app[TIMERS].add(timer)

    crash = crash_hook(config.crash_at)
    store = Store(
        config.database,
        synchronous=config.synchronous,
        crash_hook=crash,
        background_checkpoints=True,
    )
    hub = Hub(
        store,
        on_deadline=arm,
        snapshot_every=config.snapshot_every,
        verify_log=config.verify_log,
        crash=crash,
        max_message_bytes=config.max_message_bytes,
        max_connections_per_token=config.max_connections_per_token,
        events_kept_bytes=config.events_kept_bytes,
    )
    app[HUB] = hub
    if config.demo and hub.table_by_name(DEMO_TABLE) is None:
        hub.create_table(
            DEMO_TABLE, DEMO_PLAYERS, prompt_timeout=config.prompt_timeout, now_ms=config.clock()
        )
    if config.record_dir is not None:
        now = config.clock()
        for table in hub.tables.values():
            path = config.record_dir / f"{table.row.name}-{table.id}-{now}.jsonl"
            limits = {name: int(getattr(config, name)) for name in sorted(REPLAYED_LIMITS)}
            table.recorder = FileRecorder(path, table, hub.store.log(table.id), now, limits)
            app[RECORDERS].append(table.recorder)
    warn_if_files_run_short(config.max_connections)
    app[LIMITS] = Limits(config)
    # The rate limits' own ticker (every 10 ms, read between ticks too), beside the
    # metrics' lag histogram below.
    ticker = loop.create_task(app[LIMITS].lag.run())
    watchdog = loop.create_task(_watchdog(app))
    prometheus.register(hub)
    lag = loop.create_task(prometheus.watch_loop_lag(hub))
    poller = loop.create_task(_poll_revocations(app)) if config.revocation_poll > 0 else None
    log.info("hub ready", extra={"tables": len(hub.tables), "database": str(config.database)})
    try:
        yield
    finally:
        watchdog.cancel()
        ticker.cancel()
        lag.cancel()
        if poller is not None:
            poller.cancel()
        for timer in app[TIMERS]:
            timer.cancel()
        app[TIMERS].clear()
        tasks: set[asyncio.Task[None]] = app[TASKS]
        for task in list(tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(hub.drain(), 10)
        if config.snapshot_every:
            try:  # an optimisation: a failure costs the next start-up a longer tail
                await hub.committer.snapshot_tables(list(hub.tables.values()))
            except Exception:
                log.exception("shutdown snapshots failed")
        for recorder in app[RECORDERS]:
            recorder.close()
        hub.close()


async def _watchdog(app: web.Application) -> None:
    """Abort connections whose socket has not taken a frame for ``stall_timeout`` s."""
    config = app[CONFIG]
    loop = asyncio.get_running_loop()
    period = max(0.05, min(1.0, config.stall_timeout / 4))
    limits = app[LIMITS]
    swept = loop.time()
    while True:
        await asyncio.sleep(period)
        now = loop.time()
        if now - swept >= 1.0:  # forget buckets that are full again
            swept = now
            limits.buckets.sweep(now)
            limits.join_rate.sweep(now)
        live: set[Outbound] = app[CONNECTIONS]
        for outbound in list(live):
            if not outbound.dropped and outbound.stalled(now, config.stall_timeout):
                outbound.abort()


async def _poll_revocations(app: web.Application) -> None:
    """Every ``revocation_poll`` s, close the connections of join tokens revoked in the
    database by another process (:meth:`Hub.apply_revocations`)."""
    config = app[CONFIG]
    hub = app[HUB]
    while True:
        await asyncio.sleep(config.revocation_poll)
        try:
            await hub.apply_revocations(config.clock())
        except Exception:
            # A locked or unreadable database now need not be one at the next poll.
            log.exception("revocation poll failed")


async def _shutdown(app: web.Application) -> None:
    """Refuse new commands, finish in-flight commits, then close every socket (1001)."""
    hub = app[HUB]
    hub.closing = True
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(hub.drain(), 10)
    live: set[Outbound] = app[CONNECTIONS]
    connections = list(live)
    for outbound in connections:
        outbound.flush_and_close(WSCloseCode.GOING_AWAY)
    log.info("shutdown: in-flight commits done, closing %d connections", len(connections))
    await asyncio.sleep(0)


async def healthz(request: web.Request) -> web.Response:
    """Liveness: answers at once while the event loop runs."""
    hub = request.app[HUB]
    return web.json_response(
        {
            "ok": True,
            "tables": len(hub.tables),
            "connections": hub.metrics.connections_open,
            "closing": hub.closing,
            # Why commits fail (e.g. "the disk is full"), or null while they succeed.
            "storage_failure": hub.committer.storage_failure,
        }
    )


async def metrics(request: web.Request) -> web.Response:
    """The counters, gauges and histograms in Prometheus's text format."""
    return prometheus.exposition(request.app[HUB])


async def metrics_json(request: web.Request) -> web.Response:
    """The counters as the bridge's own JSON (what ``bench`` reads)."""
    return web.json_response(request.app[HUB].metrics.snapshot())


_connection_ids = itertools.count(1)


async def websocket(request: web.Request) -> web.StreamResponse:
    """One client connection: join, then commands; everything else is the hub's."""
    config = request.app[CONFIG]
    hub = request.app[HUB]
    limits = request.app[LIMITS]
    loop = asyncio.get_running_loop()
    if not origin_allowed(config, request.headers.get("Origin"), request.host, request.scheme):
        hub.metrics.count("origin_refused")
        raise web.HTTPForbidden(text="origin not allowed")
    wait = limits.join_rate.admit(request.remote or "", loop.time())
    if wait:
        hub.metrics.count("handshakes_refused")
        busy = web.Response(
            status=429,
            text=f"too many connections from this address; retry after {wait:.1f} s",
            headers={"Retry-After": str(math.ceil(wait))},
        )
        busy.force_close()
        return busy
    if hub.metrics.connections_open >= config.max_connections:
        hub.metrics.count("connections_refused")
        log.warning(
            "refusing a connection: %d open, --max-connections is %d",
            hub.metrics.connections_open,
            config.max_connections,
        )
        full = web.Response(status=503, text="too many connections", headers={"Retry-After": "5"})
        full.force_close()  # and free its socket now, not at the keep-alive deadline
        return full
    # aiohttp refuses a frame of exactly ``max_msg_size``; the limit itself is allowed.
    ws = DrainingResponse(
        heartbeat=config.heartbeat, max_msg_size=config.max_message_bytes + 1, compress=False
    )
    # Counted before the upgrade: handshakes in flight at once cannot overshoot the cap.
    hub.metrics.connections_open += 1
    try:
        # Upgrades take the join gate too: a storm's handshakes queue behind each
        # other, not in front of every other table's frames.  (Only the upgrade: what
        # the client must send next is not waited for here.)
        async with limits.gate:
            await ws.prepare(request)
    except BaseException:
        hub.metrics.connections_open -= 1
        raise
    outbound = Outbound(
        ws,
        request.transport,
        f"c{next(_connection_ids)}",
        config,
        lambda s: hub.leave(s, config.clock()),
        limits,
        lambda token: t.id if (t := hub.by_token.get(token)) is not None else None,
    )
    session = outbound.session
    outbound.on_rate_limited = lambda: hub.metrics.count("rate_limited")
    request.app[CONNECTIONS].add(outbound)
    hub.metrics.count("connections")
    writer = asyncio.create_task(outbound.run())

    admitting = False
    late = False

    def join_deadline() -> None:
        nonlocal late
        if admitting:
            late = True  # its join waits for admission: judged once admitted
        elif session.table is None and not outbound.dropped:
            hub.metrics.count("join_timeouts")
            outbound.drop(CLOSE_POLICY, "join timeout", "no join in time")

    async def admit(frame: str | bytes) -> None:
        # The join holds its turn at most ADMISSION_TURN_S (a catch-up to a client that
        # does not read waits for room in its queue), then finishes outside the gate.
        await take_turn(limits.gate, hub.receive(session, frame, config.clock()), outbound.flushed)

    # A member's resync is a catch-up as large as a join's: it takes a turn too.
    session.admission = lambda work: take_turn(limits.gate, work, outbound.flushed)

    join_timer = loop.call_later(config.join_timeout, join_deadline)
    try:
        async for message in ws:
            if message.type != WSMsgType.TEXT and message.type != WSMsgType.BINARY:
                continue
            if outbound.dropped or not outbound.admit_frame(message.data):
                break
            if session.table is None and outbound.spent_join(message.data):
                break
            if session.table is None:
                # A join, and its catch-up: a few at a time, each until what it was
                # sent is on the socket, so a storm of them takes turns with the rest.
                admitting = True
                await admit(message.data)
                # Joined: charge its participant's bucket from now on (with the
                # join's own cost, so a reconnect is not free).
                outbound.bucket(loop.time())
                admitting = False
                if late:
                    late = False
                    join_deadline()
            else:
                await hub.receive(session, message.data, config.clock())
            # Take turns: frames already buffered are read without ever yielding, so
            # without this one connection's backlog would run before anyone else's.
            await asyncio.sleep(0)
        if ws.too_big:
            hub.metrics.count("too_big")
            await ws.drain()
    finally:
        join_timer.cancel()
        hub.leave(session, config.clock())
        request.app[CONNECTIONS].discard(outbound)
        hub.metrics.connections_open -= 1
        if outbound.flushing:
            # Refused over the rate limit: the writer is sending why, then closes.
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(writer), config.stall_timeout)
        # The receive loop ends once the close handshake is done (or the socket is
        # gone): nothing the writer still holds can be delivered.
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
    return ws
