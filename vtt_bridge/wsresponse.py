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
(``tests/bridge/test_hardening.py``), so a change in aiohttp shows there.  One private
attribute is read (the reader queue's ``_buffer``, :meth:`DrainingResponse.buffered`),
and where it is missing the answer is the safe one (``tests/bridge/test_wsresponse.py``
checks it is there).

It also sends several messages in one socket write (:meth:`DrainingResponse.send_frames`):
a client that did not join with ``batch`` gets one WebSocket frame a message, and a
catch-up of 60 events was 60 writes (each a system call), the largest part of what a
storm of joins cost the event loop.  The frames are built as RFC 6455 says for a server
(unmasked, uncompressed: the server never negotiates permessage-deflate).
"""

from __future__ import annotations

import asyncio
import struct
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

    def buffered(self) -> bool:
        """Whether frames already read from the socket wait to be received: the receive
        loop yields to the event loop after a frame only then (without them, its next
        receive waits, which yields anyway; a yield per frame was a loop iteration and
        a task step of every command).  True when it cannot tell (another aiohttp)."""
        buffer = getattr(self._reader, "_buffer", None)
        return buffer is None or len(buffer) > 0

    async def send_frames(self, frames: list[bytes | str]) -> None:
        """Send each of ``frames`` as a frame of its own (binary for bytes, text for a
        str), all in one write to the socket, then wait while the socket's buffer is
        over its limit, as :meth:`send_bytes` does.  Raises as :meth:`send_bytes` does
        when the connection is closing."""
        request = self._req
        transport = request.transport if request is not None else None
        if self._compress or self.closed or transport is None or transport.is_closing():
            for frame in frames:  # aiohttp's own sends: the same errors, the same frames
                if isinstance(frame, bytes):
                    await self.send_bytes(frame)
                else:
                    await self.send_str(frame)
            return
        self.write_frames(frames)
        writer = self._payload_writer
        if writer is not None:
            await writer.drain()  # returns at once unless the socket's buffer is full

    def write_frames(self, frames: list[bytes | str]) -> None:
        """Write each of ``frames`` as a frame of its own in one write to the socket, now
        (no waiting: the caller has seen the connection open and the socket's buffer
        empty, :meth:`vtt_bridge.outbound.Outbound.flush`)."""
        request = self._req
        transport = request.transport if request is not None else None
        assert transport is not None
        parts: list[bytes] = []
        for frame in frames:
            payload = frame if isinstance(frame, bytes) else frame.encode("utf-8")
            parts.append(_header(_BINARY if isinstance(frame, bytes) else _TEXT, len(payload)))
            parts.append(payload)
        transport.write(b"".join(parts))

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


_TEXT: Final = 0x1
_BINARY: Final = 0x2


def _header(opcode: int, length: int) -> bytes:
    """A final, unmasked frame's header (RFC 6455, section 5.2)."""
    if length < 126:
        return struct.pack("!BB", 0x80 | opcode, length)
    if length < 65536:
        return struct.pack("!BBH", 0x80 | opcode, 126, length)
    return struct.pack("!BBQ", 0x80 | opcode, 127, length)
