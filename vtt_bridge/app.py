"""The aiohttp application: one WebSocket endpoint, health and counters, the hub behind them.

Shaped like aiohttp's ``examples/web_ws.py``: an app factory, a ``web.AppKey`` for every
shared object, ``cleanup_ctx`` for what lives as long as the app, and one receive loop
per connection inside ``try/finally``.

What a connection may cost the server is bounded in :mod:`vtt_bridge.connection`
(the handshake, the join, the receive loop) and :mod:`vtt_bridge.outbound` (its send
queue and rate limit), before the hub sees a frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import secrets
import signal
import threading
from collections.abc import AsyncIterator, Callable

from aiohttp import WSCloseCode, web

import protocol
from vtt_bridge import describing, listener, ownership, prometheus
from vtt_bridge.appkeys import CONFIG, CONNECTIONS, HUB, LIMITS, RECORDERS, TASKS, TIMERS
from vtt_bridge.config import Config
from vtt_bridge.connection import arrival_turns, websocket
from vtt_bridge.hosts import hosts_guard, origin_allowed
from vtt_bridge.hub import Hub
from vtt_bridge.operations import operations_guard, warn_if_files_run_short
from vtt_bridge.outbound import CLOSE_POLICY, Limits, Outbound
from vtt_bridge.page import add_routes as add_page_routes
from vtt_bridge.recording import REPLAYED_LIMITS, FileRecorder
from vtt_bridge.store import LogRow
from vtt_bridge.store_open import open_store
from vtt_bridge.tableops import add_routes as add_operator_routes
from vtt_bridge.tables import Table

# The keys, ``Limits`` and ``Outbound`` are re-exported: they lived here, and the tests,
# the CLI and outside callers import them from here.
__all__ = [
    "CLOSE_POLICY",
    "CONFIG",
    "CONNECTIONS",
    "HUB",
    "LIMITS",
    "RECORDERS",
    "TASKS",
    "TIMERS",
    "Limits",
    "Outbound",
    "crash_hook",
    "create_app",
    "origin_allowed",
    "websocket",
]

log = logging.getLogger("vtt_bridge")

DEMO_TABLE = "demo"
DEMO_PLAYERS = ["alice", "bob"]


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
        middlewares=[arrival_turns, hosts_guard(config, host_refused), operations_guard(config)],
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
    add_operator_routes(app)
    return app


async def _hub_context(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    loop = asyncio.get_running_loop()
    # What the first message of each kind and the first join asking for the rulesets
    # would work out on the loop (up to 35 ms, in a storm of joins many at once).
    protocol.prepare()
    describing.prepare()

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
    store = open_store(
        config.database,
        synchronous=config.synchronous,
        crash_hook=crash,
        background_checkpoints=True,
        bridge=secrets.token_hex(8),
        public_url=config.public_url or f"ws://{config.host}:{config.port}/ws",
        lease_s=config.lease,
        connections=config.db_connections,
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
        clock=config.clock,
    )
    app[HUB] = hub
    if config.demo and hub.table_by_name(DEMO_TABLE) is None:
        hub.create_table(
            DEMO_TABLE, DEMO_PLAYERS, prompt_timeout=config.prompt_timeout, now_ms=config.clock()
        )
    if config.record_dir is not None:
        record_dir = config.record_dir
        limits = {name: int(getattr(config, name)) for name in sorted(REPLAYED_LIMITS)}

        def record(table: Table, log_rows: list[LogRow], now: int) -> None:
            path = record_dir / f"{table.row.name}-{table.id}-{now}.jsonl"
            table.recorder = FileRecorder(path, table, log_rows, now, limits)
            app[RECORDERS].append(table.recorder)

        now = config.clock()
        for table in hub.tables.values():
            record(table, hub.store.log(table.id), now)
        # A table made while the server runs (``create_table``, ``vtt-bridge
        # create-table``) has no log yet; one loaded while it runs (a shared database:
        # claimed here, perhaps from another process) comes with its log so far, so its
        # recording replays from there.
        hub.whole_log_on_load = True
        hub.on_table = lambda table, rows: record(table, rows, config.clock())
    warn_if_files_run_short(config.max_connections)
    # One ticker (every 10 ms, read between ticks too) for the rate limits' stall credit
    # and the metrics' lag histogram.
    app[LIMITS] = Limits(config, hub.metrics.loop_lag_seconds.observe)
    listener.pace(app, app[LIMITS].first_reads)
    ticker = loop.create_task(app[LIMITS].lag.run())
    watchdog = loop.create_task(_watchdog(app))
    prometheus.register(hub)
    poller = loop.create_task(_poll_revocations(app)) if config.revocation_poll > 0 else None
    lease = (
        loop.create_task(
            ownership.keep_lease(store, hub.committer.in_db, config.lease, hub.table_lost)
        )
        if store.shared
        else None
    )
    # What start-up made (modules, the tables' states and logs) lives as long as the
    # server: out of the collector's sight, a full collection no longer walks it.
    # One walked it in 70 ms during a storm of joins, holding every table up.  Garbage
    # first, so none of it is kept; thawed at shutdown (a process that starts several
    # servers, as the tests do, must not keep every earlier one's).
    gc.collect()
    gc.freeze()
    log.info("hub ready", extra={"tables": len(hub.tables), "database": str(config.database)})
    try:
        yield
    finally:
        gc.unfreeze()
        watchdog.cancel()
        ticker.cancel()
        if poller is not None:
            poller.cancel()
        if lease is not None:
            lease.cancel()
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
        if store.shared:
            try:  # else the tables wait for the lease to run out before moving
                await ownership.hand_over(store, hub.committer.in_db)
            except Exception:
                log.exception("handing the tables over failed")
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
