"""One WebSocket connection's lifecycle: the handshake's checks, the join and its
admission, the receive loop, and what is released when it ends (moved out of
:mod:`vtt_bridge.app` unchanged).

What a connection may cost the server is bounded here and in
:mod:`vtt_bridge.outbound`, before the hub sees a frame:

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
import contextlib
import itertools
import logging
import math

from aiohttp import WSMsgType, web
from aiohttp.typedefs import Handler

from vtt_bridge.appkeys import CONFIG, CONNECTIONS, HUB, LIMITS
from vtt_bridge.hosts import origin_allowed
from vtt_bridge.limits import take_turn
from vtt_bridge.outbound import CLOSE_POLICY, Outbound
from vtt_bridge.wsresponse import DrainingResponse

__all__ = ["arrival_turns", "websocket"]

log = logging.getLogger("vtt_bridge")

_connection_ids = itertools.count(1)


@web.middleware
async def arrival_turns(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The outermost middleware: a WebSocket handshake goes on only in an iteration of
    the event loop with room for it (:class:`vtt_bridge.limits.Arrivals`), so a storm's
    handshakes do not all run before every other table's frames.  Other requests (the
    health check) pass at once."""
    if request.path == "/ws" and LIMITS in request.app:
        await request.app[LIMITS].arrivals.turn()
    return await handler(request)


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
    except ConnectionResetError:
        # The client left during its handshake (a storm's clients give up, a full file
        # table drops it): nothing to serve and nothing wrong here, so no traceback.
        # aiohttp finishing this answer on the gone socket is quiet.
        hub.metrics.connections_open -= 1
        hub.metrics.count("handshakes_abandoned")
        gone = web.Response(status=400, text="the connection closed during its handshake")
        gone.force_close()
        return gone
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
                # Its token is read as the database stands from now on, however
                # long it waits for its turn.
                session.join_arrived = hub.join_tokens.arrival()
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
            # With none buffered the next receive waits, which yields anyway.
            if ws.buffered():
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
