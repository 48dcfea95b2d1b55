"""A small real WebSocket client for tests: numbered sends, typed receives, waits."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any

import aiohttp

import protocol

TIMEOUT = 5.0


class TableClient:
    """One participant's connection to a running bridge."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, *, binary: bool = False) -> None:
        self.ws = ws
        self.binary = binary
        self.seq = 0
        self.inbox: list[protocol.ServerMessage] = []
        #: How many messages each frame held (a batch frame holds several).
        self.frame_sizes: list[int] = []
        self._unread: deque[protocol.ServerMessage] = deque()
        #: The largest server frame this client decodes (raise it for big scenes).
        self.max_bytes = protocol.MAX_FRAME_BYTES

    @classmethod
    async def connect(
        cls, session: aiohttp.ClientSession, url: str, *, binary: bool = False
    ) -> TableClient:
        """Open a WebSocket to ``url``."""
        return cls(await session.ws_connect(url), binary=binary)

    async def send(self, message_type: type[Any], **body: Any) -> int:
        """Send a client message of ``message_type``; returns its seq."""
        self.seq += 1
        message = message_type(seq=self.seq, **body)
        if self.binary:
            await self.ws.send_bytes(protocol.encode_msgpack(message))
        else:
            await self.ws.send_str(protocol.encode_json(message))
        return self.seq

    async def send_raw(self, frame: str | bytes) -> None:
        """Send a frame as is (for malformed input)."""
        if isinstance(frame, bytes):
            await self.ws.send_bytes(frame)
        else:
            await self.ws.send_str(frame)

    async def next(self) -> protocol.ServerMessage:
        """The next message from the server (batch frames are read one message at a time)."""
        if not self._unread:
            msg = await asyncio.wait_for(self.ws.receive(), TIMEOUT)
            if msg.type != aiohttp.WSMsgType.TEXT and msg.type != aiohttp.WSMsgType.BINARY:
                raise ConnectionError(f"connection ended: {msg.type} {msg.data!r}")
            messages = protocol.decode_server_frame(msg.data, max_bytes=self.max_bytes)
            self.frame_sizes.append(len(messages))
            self._unread.extend(messages)
        decoded = self._unread.popleft()
        self.inbox.append(decoded)
        return decoded

    async def wait_for(
        self,
        message_type: type[Any] | tuple[type[Any], ...],
        where: Callable[[Any], bool] = lambda m: True,
    ) -> Any:
        """Read until a message of ``message_type`` matching ``where`` arrives."""
        while True:
            message = await self.next()
            if isinstance(message, message_type) and where(message):
                return message

    async def event(self, kind: str) -> protocol.Event:
        """Read until an event of ``kind`` arrives."""
        found: protocol.Event = await self.wait_for(protocol.Event, lambda m: m.kind == kind)
        return found

    async def reply_to(self, seq: int) -> protocol.Ack | protocol.ErrorMessage:
        """Read until the ack or error for ``seq`` arrives."""
        found: protocol.Ack | protocol.ErrorMessage = await self.wait_for(
            (protocol.Ack, protocol.ErrorMessage), lambda m: m.ref == seq
        )
        return found

    async def join(self, token: str, last_event: int | None = None) -> protocol.Welcome:
        """Join with ``token`` and return the welcome."""
        await self.send(protocol.Join, token=token, last_event=last_event)
        welcome: protocol.Welcome = await self.wait_for(protocol.Welcome)
        return welcome

    async def close(self) -> None:
        """Close the connection."""
        await self.ws.close()


def wire_data(event: protocol.ServerMessage) -> dict[str, Any]:
    """An event's ``data`` as the wire map (lists, not tuples) a JavaScript client reads:
    decoded, it is the kind's typed body (``protocol.EventBody``) once registered."""
    assert isinstance(event, protocol.Event), event
    data: dict[str, Any] = protocol.to_wire(event)["body"]["data"]
    return data
