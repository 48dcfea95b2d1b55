"""The WebSocket response the server upgrades to: aiohttp's, with a frame over the size
limit closed cleanly (1009) instead of by a TCP reset.

aiohttp refuses a frame over ``max_msg_size`` from its header, before buffering the
payload, sends the close frame (1009) and closes the socket at once.  The client is
then still sending the rest of its frame: the kernel holds unread bytes when the socket
is closed, and Linux answers them with a reset, which can reach the client before it
has read the close frame (it sees 1006, not 1009).  Here the socket is kept open after
the close frame, reading and discarding what the client still sends, until the client
closes its side (having read the close frame) or :data:`DRAIN_LIMIT_S` passes.

One private aiohttp method is overridden (``_close_transport``); the tests close
oversized frames many times over and check every close is 1009
(``tests/bridge/test_hardening.py``), so a change in aiohttp shows there.
"""

from __future__ import annotations

import asyncio
from typing import Final

from aiohttp import WSCloseCode, web

#: Longest a connection closed for an oversized frame is kept open for its client
#: to stop sending and close its side.
DRAIN_LIMIT_S: Final = 2.0
_POLL_S: Final = 0.02


class DrainingResponse(web.WebSocketResponse):
    """A ``WebSocketResponse`` whose close after an oversized frame drains the socket
    first (:meth:`drain`); the handler calls :meth:`drain` before it returns."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._deferred = False
        #: The connection was closed for a frame over the size limit (1009).
        self.too_big = False

    async def close(
        self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True
    ) -> bool:
        """Close as aiohttp does; a close for an oversized frame (1009) is remembered,
        as aiohttp then reports 1006 (its reader is broken) and closes the socket."""
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed:
            self.too_big = True
        return await super().close(code=code, message=message, drain=drain)

    def _close_transport(self) -> None:
        if self.too_big and not self._deferred:
            self._deferred = True  # the close frame is sent: drain before closing
            return
        super()._close_transport()

    async def drain(self) -> None:
        """After a 1009: wait until the client has closed its side (or the limit), then
        close the socket; does nothing otherwise."""
        if not self._deferred:
            return
        request = self._req
        transport = request.transport if request is not None else None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_LIMIT_S
        while transport is not None and not transport.is_closing() and loop.time() < deadline:
            await asyncio.sleep(_POLL_S)
        super()._close_transport()
