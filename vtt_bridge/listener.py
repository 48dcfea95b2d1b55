"""The listening socket's side of a reconnect storm: a bounded number of new
connections have their first bytes parsed in one iteration of the event loop.

Hundreds of clients connecting at once send their handshakes at once, and one
iteration of the loop reads every ready socket and hands each one's bytes to aiohttp's
HTTP parser (``RequestHandler.data_received``), which also wakes each connection's
request task: 500 handshakes held every other table up for about 13 ms in one stretch,
before :class:`vtt_bridge.limits.Arrivals` could spread them (it runs once a request
is parsed).  Here each connection's protocol is wrapped (:class:`PacedProtocol`): its
first read goes to the parser only while this iteration has room
(:data:`vtt_bridge.limits.ARRIVALS_PER_TURN` of them); past that, the bytes read are
kept unparsed, the connection stops reading, and both go on in a later iteration, in
arrival order.  Reads after the
first are never held (a member's frames are paced by its rate limit).  Accepting is
bounded too: asyncio accepts up to the listen backlog (aiohttp's 128) in one callback,
each made a transport and a request handler; here :data:`ACCEPTS_PER_TURN` a time,
the kernel's queue kept as long as asked.

aiohttp offers no hook between the listening socket and its protocol, so
:func:`pace` wraps the running loop's ``create_server`` for the servers of this
application (uvloop's loop included); a loop that does not allow it serves unpaced,
and says so in the log.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import weakref
from collections.abc import Callable
from typing import Any, cast

from aiohttp import web

from vtt_bridge.limits import ARRIVALS_PER_TURN, Arrivals

log = logging.getLogger("vtt_bridge")

#: Connections asyncio accepts each time a listening socket is ready (it accepts up
#: to the listen backlog in one callback, each made a transport and a handler).
ACCEPTS_PER_TURN = 2 * ARRIVALS_PER_TURN
#: asyncio's own default listen backlog.
DEFAULT_BACKLOG = 100

#: The loops whose ``create_server`` is wrapped (once each), to the applications paced.
_PACED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, Arrivals]] = (
    weakref.WeakKeyDictionary()
)


class PacedProtocol(asyncio.Protocol):
    """An aiohttp connection whose first read waits for room in ``reads``."""

    def __init__(self, inner: asyncio.Protocol, reads: Arrivals) -> None:
        self._inner = inner
        self._reads = reads
        self._transport: asyncio.Transport | None = None
        self._first = True
        self._lost = False
        #: The task handing a held first read on (kept: the loop holds tasks weakly).
        self._held: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Hand the transport to aiohttp's handler."""
        # uvloop's transports are not asyncio.Transport instances, but read the same.
        self._transport = cast(asyncio.Transport, transport)
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        """The first read: parsed now if this iteration has room, else later."""
        if not self._first:
            self._inner.data_received(data)
            return
        self._first = False
        if self._reads.take():
            self._inner.data_received(data)
            return
        assert self._transport is not None
        self._transport.pause_reading()  # nothing more until this is parsed
        self._held = asyncio.ensure_future(self._later(data))

    async def _later(self, data: bytes) -> None:
        await self._reads.turn()
        if self._lost:
            return  # the client left while waiting: nothing to parse
        assert self._transport is not None
        # Resumed first: aiohttp pausing the read in data_received must win.
        self._transport.resume_reading()
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        """As aiohttp's handler says."""
        return self._inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        """As aiohttp's handler does; a held first read is dropped."""
        self._lost = True
        self._inner.connection_lost(exc)

    def pause_writing(self) -> None:
        """As aiohttp's handler does."""
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        """As aiohttp's handler does."""
        self._inner.resume_writing()


def pace(app: web.Application, reads: Arrivals) -> None:
    """From now on, the running loop's listeners for ``app`` pace their connections'
    first reads with ``reads`` (module docstring)."""
    loop = asyncio.get_running_loop()
    paced = _PACED.get(loop)
    if paced is None:
        try:
            loop.create_server = _wrapped(loop.create_server, paced := {})  # type: ignore[method-assign]
        except AttributeError:
            log.info("this event loop does not allow pacing handshakes: served unpaced")
            return
        _PACED[loop] = paced
    paced[id(app)] = reads
    app.on_cleanup.append(lambda _: _unpace(loop, app))


async def _unpace(loop: asyncio.AbstractEventLoop, app: web.Application) -> None:
    _PACED.get(loop, {}).pop(id(app), None)


def _wrapped(create_server: Callable[..., Any], paced: dict[int, Arrivals]) -> Callable[..., Any]:
    async def create_paced_server(
        protocol_factory: Callable[[], Any], *args: Any, **kw: Any
    ) -> Any:
        owner = getattr(getattr(protocol_factory, "request_handler", None), "__self__", None)
        reads = paced.get(id(owner)) if isinstance(protocol_factory, web.Server) else None
        if reads is None:
            return await create_server(protocol_factory, *args, **kw)
        paced_reads = reads

        def paced_protocol() -> asyncio.Protocol:
            return PacedProtocol(protocol_factory(), paced_reads)

        # asyncio accepts up to ``backlog`` connections each time the listening socket
        # is ready, all in one callback: a few per iteration here...
        queue = kw.get("backlog", DEFAULT_BACKLOG)
        kw["backlog"] = min(queue, ACCEPTS_PER_TURN)
        server = await create_server(paced_protocol, *args, **kw)
        # ...while the kernel still queues as many as asked (listen() again resizes it).
        for listening in server.sockets:
            _relisten(listening.fileno(), queue)
        return server

    return create_paced_server


def _relisten(fd: int, backlog: int) -> None:
    """Give listening socket ``fd`` a queue of ``backlog`` (its accepts unchanged)."""
    again = socket.socket(fileno=os.dup(fd))
    try:
        again.listen(backlog)
    finally:
        again.close()  # the duplicate only: the listener stays open
