"""A WebSocket client cut down to what a load driver needs, so the driver is not the limit.

On the 2-core development machine the load driver shares the CPU with the server it
drives.  aiohttp's client costs about as much per frame as the server does (a reader,
a queue, a future and a ``msgpack`` decode per frame), so with the bridge's fan-out
(one move in, six messages out) the driver, not the server, set the pace.  This client
is an :class:`asyncio.Protocol` that parses frames in ``data_received`` and decodes one
only when someone waits for it and it may hold what they wait for (its raw bytes hold
the msgpack string of the wanted ``type``); every other frame is counted and dropped.

It speaks just enough RFC 6455 for a loopback benchmark: the upgrade handshake, binary
frames out (masked with a zero key, which the RFC allows and servers unmask as usual),
unfragmented frames in, a pong for a ping, and a close.  Not for anything else.
"""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any
from urllib.parse import urlsplit

import msgpack

#: How long a reply may take before the driver gives up (the server is stuck).
REPLY_TIMEOUT = 30.0


def _marker(kind: str) -> bytes:
    packed: bytes = msgpack.packb(kind)
    return packed


_MARKERS = {kind: _marker(kind) for kind in ("ack", "welcome", "error")}
_ERROR = _MARKERS["error"]


class LeanSocket(asyncio.Protocol):
    """One client connection (see the module docstring)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._upgraded = False
        self._handshake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        #: What a caller waits for: (type marker, type, ref or None, future).
        self._want: tuple[bytes, str, int | None, asyncio.Future[Any]] | None = None
        #: Frames received (every one, decoded or not).
        self.frames = 0
        self.closed = False

    @classmethod
    async def connect(cls, url: str) -> LeanSocket:
        """Open a WebSocket to ``url`` (``ws://host:port/path``)."""
        parts = urlsplit(url)
        loop = asyncio.get_running_loop()
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        _, sock = await loop.create_connection(cls, host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        assert sock.transport is not None
        sock.transport.write(request.encode())
        await asyncio.wait_for(sock._handshake, REPLY_TIMEOUT)
        return sock

    # -- asyncio.Protocol -----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._fail(ConnectionError(f"connection lost: {exc}"))

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        if not self._upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buffer[: buffer.find(b"\r\n")])
            del buffer[: end + 4]
            if b" 101 " not in status:
                self._handshake.set_exception(ConnectionError(status.decode(errors="replace")))
                return
            self._upgraded = True
            self._handshake.set_result(None)
        at, size = 0, len(buffer)
        while size - at >= 2:
            length = buffer[at + 1] & 0x7F
            start = at + 2
            if length == 126:
                if size - at < 4:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 4], "big")
                start = at + 4
            elif length == 127:
                if size - at < 10:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 10], "big")
                start = at + 10
            end = start + length
            if end > size:
                break
            opcode = buffer[at] & 0x0F
            at = end
            self.frames += 1
            if opcode == 2 and self._want is not None:
                self._offer(bytes(buffer[start:end]))
            elif opcode == 9:
                self._send(0x8A, bytes(buffer[start:end]))
            elif opcode == 8:
                self.closed = True
                self._fail(ConnectionError("the server closed the connection"))
        del buffer[:at]

    # -- sending and waiting ----------------------------------------------------------------

    def send(self, payload: bytes) -> None:
        """Send one binary frame."""
        self._send(0x82, payload)

    def _send(self, first: int, payload: bytes) -> None:
        length = len(payload)
        if length < 126:
            header = bytes((first, 0x80 | length))
        elif length < 65536:
            header = bytes((first, 0x80 | 126)) + length.to_bytes(2, "big")
        else:
            header = bytes((first, 0x80 | 127)) + length.to_bytes(8, "big")
        assert self.transport is not None
        self.transport.write(header + b"\0\0\0\0" + payload)

    async def until(self, kind: str, ref: int | None = None) -> Any:
        """The next envelope of type ``kind`` (answering ``ref``), or an ``error`` one."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.closed:
            raise ConnectionError("connection closed")
        self._want = (_MARKERS.get(kind) or _marker(kind), kind, ref, future)
        try:
            return await future
        finally:
            self._want = None

    def _offer(self, payload: bytes) -> None:
        assert self._want is not None
        marker, kind, ref, future = self._want
        if future.done() or (marker not in payload and _ERROR not in payload):
            return
        decoded = msgpack.unpackb(payload)
        # A batch frame (clients joined with ``batch``) is an array of envelopes.
        for envelope in decoded if isinstance(decoded, list) else [decoded]:
            if envelope["type"] in (kind, "error") and (
                ref is None or envelope["body"].get("ref") == ref
            ):
                future.set_result(envelope)
                return

    def _fail(self, exc: Exception) -> None:
        if not self._handshake.done():
            self._handshake.set_exception(exc)
        if self._want is not None and not self._want[3].done():
            self._want[3].set_exception(exc)

    def close(self) -> None:
        """Send a close frame and drop the connection."""
        if self.transport is not None and not self.transport.is_closing():
            self._send(0x88, (1000).to_bytes(2, "big"))
            self.transport.close()
