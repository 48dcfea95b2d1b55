"""A connection's outbound side: its bounded send queue, the writer task draining it, and
its rate limit (moved out of :mod:`vtt_bridge.app` unchanged).

Sending is not done in the receive loop: each connection has a bounded outbound queue
drained by its own writer task, so a slow client only ever slows itself.  A full queue
closes it (1013), and a watchdog aborts one whose socket has not taken a frame for
``stall_timeout`` seconds.  Either way it leaves the broadcasts at once.

What is queued for a waiting writer is written once per iteration of the event loop
(:class:`_Flushes`), in the same frames the writer would have sent on waking, straight
to the socket when its buffer is empty: a group commit's answers to fifty connections
were fifty wake-ups, fifty task steps and fifty passes through aiohttp's sending
coroutines before.  Anything else (a close to send, a socket with a backlog, a closing
connection) wakes the writer, which sends as it always did.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import math
import weakref
from collections.abc import Callable
from typing import cast

from aiohttp import WSCloseCode, web

import protocol
from vtt_bridge import costs
from vtt_bridge.config import Config
from vtt_bridge.fanout import Shared
from vtt_bridge.limits import PRE_JOIN_BURST, Arrivals, Bucket, Buckets, Gate, JoinRate, LoopLag
from vtt_bridge.tables import Session
from vtt_bridge.wsresponse import DrainingResponse

__all__ = ["CLOSE_POLICY", "Limits", "Outbound"]

log = logging.getLogger("vtt_bridge")

CLOSE_POLICY = WSCloseCode.POLICY_VIOLATION  # 1008
_FLUSH_AND_CLOSE = object()


class _Flushes:
    """The connections of one event loop with something queued for a waiting writer:
    written in one callback, the next iteration of the loop, so everything queued in
    this one (a group commit's answers) shares each connection's frame."""

    def __init__(self) -> None:
        self._due: list[Outbound] = []

    def add(self, outbound: Outbound) -> None:
        """Write ``outbound``'s queue in the next iteration (once, however often asked)."""
        if not self._due:
            asyncio.get_running_loop().call_soon(self._run)
        self._due.append(outbound)

    def _run(self) -> None:
        due, self._due = self._due, []
        for outbound in due:
            outbound.flush()


#: Each event loop's :class:`_Flushes` (tests run many loops, one after another).
_FLUSHES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Flushes] = (
    weakref.WeakKeyDictionary()
)


def _flushes() -> _Flushes:
    loop = asyncio.get_running_loop()
    found = _FLUSHES.get(loop)
    if found is None:
        found = _FLUSHES[loop] = _Flushes()
    return found


class Limits:
    """The server-wide side of the limits: the loop's lag, the participants' buckets,
    the handshakes per address, their arrivals and the join gate (:mod:`vtt_bridge.limits`)."""

    def __init__(self, config: Config, observe_lag: Callable[[float], None] | None = None) -> None:
        """``observe_lag`` is told how late each 10 ms tick of the loop ran (metrics)."""
        loop = asyncio.get_running_loop()
        self.lag = LoopLag(loop.time, observe_lag)
        self.buckets = Buckets(config.rate_limit, float(config.rate_burst), self.lag)
        self.join_rate = JoinRate(config.join_rate, config.join_burst)
        self.gate = Gate()
        self.arrivals = Arrivals()
        #: New connections' first reads, parsed a few per iteration (:mod:`vtt_bridge.listener`).
        self.first_reads = Arrivals()


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
            conn,
            self.deliver,
            self.kick,
            self.deliver_shared,
            self.room,
            self.charge,
            self.close_after_sent,
        )
        # A deque and a wake-up future rather than an ``asyncio.Queue``: a command puts
        # about six messages on its table's queues, and the queue's bookkeeping (its
        # unfinished-task count and join event, a getter scan per put) cost more than
        # the rest of queueing them.  A limit of 0 or less: unbounded, as asyncio's.
        self._limit = config.outbound_queue if config.outbound_queue > 0 else math.inf
        self._half = config.outbound_queue // 2
        self._queue: collections.deque[object] = collections.deque()
        #: While the writer waits for something to send (None: it is sending, or has
        #: been woken and not yet run).
        self._wakeup: asyncio.Future[None] | None = None
        #: Encoded, did not fit in the last frame: the first of the next.
        self._carried: bytes | str | None = None
        #: A write of the queue is asked for this iteration of the loop (:class:`_Flushes`).
        self._flush_due = False
        self._flushes = _flushes()
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
        """Queue ``item``, and if the writer waits, ask for the queue to be written in the
        next iteration of the loop (:meth:`flush`); False when the queue is full."""
        if len(self._queue) >= self._limit:
            return False
        self._queue.append(item)
        if self._wakeup is not None and not self._flush_due:
            self._flush_due = True
            self._flushes.add(self)
        return True

    async def _wait(self) -> None:
        """Wait until something is queued and :meth:`flush` leaves it to the writer."""
        while not self._queue and self._carried is None:
            self._wakeup = asyncio.get_running_loop().create_future()
            try:
                await self._wakeup
            finally:
                self._wakeup = None

    def flush(self) -> None:
        """Write what is queued now, as the waiting writer would on waking, when the
        socket takes it at once (its buffer is empty, the connection open); else, or for
        what is left (a close to send), wake the writer.  Nothing to do when the writer
        is not waiting: it sends what is queued itself."""
        self._flush_due = False
        wakeup = self._wakeup
        if wakeup is None or wakeup.done():
            return
        while (self._queue or self._carried is not None) and self._writable():
            frames, closing = self._take()
            if frames:
                self._write_now(frames)
            if closing:  # the writer sends the close (an await)
                self._queue.appendleft(_FLUSH_AND_CLOSE)
                break
        if self._queue or self._carried is not None:
            wakeup.set_result(None)

    def _writable(self) -> bool:
        """Whether a write now goes straight to the socket: an open connection of ours
        whose socket buffer is empty (else the writer sends, waiting as aiohttp does).
        The buffer is asked for by name: uvloop's transports have it without being
        ``asyncio.WriteTransport``s."""
        transport = self._transport
        if transport is None or not isinstance(self._ws, DrainingResponse) or self._ws.closed:
            return False
        buffered = getattr(transport, "get_write_buffer_size", None)
        return buffered is not None and not transport.is_closing() and buffered() == 0

    def _write_now(self, frames: list[bytes | str]) -> None:
        """Write ``frames`` as :meth:`_send` sends them, in one socket write."""
        assert isinstance(self._ws, DrainingResponse)
        self._ws.write_frames(self._framed(frames))

    def _framed(self, frames: list[bytes | str]) -> list[bytes | str]:
        """One frame's messages as the WebSocket frames they go in: a frame each for a
        client without ``batch``, else one (a batch frame, or the one message itself)."""
        if len(frames) > 1 and not self.session.batch:
            return frames
        return [frames[0] if len(frames) == 1 else protocol.encode_batch(frames)]

    async def flushed(self, limit: float) -> None:
        """Wait until everything queued has been handed to the socket (or the client is
        gone, or ``limit`` seconds passed): a join holds its admission until then."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while (
            self._queue or self._carried is not None or self.busy_since is not None
        ) and not self.dropped:
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
        # Asked for by name: uvloop's transports have it without being
        # ``asyncio.WriteTransport``s (an isinstance check left their sockets open).
        abort = getattr(self._transport, "abort", None)
        if abort is not None:
            abort()

    def close_after_sent(self, code: int, reason: str) -> None:
        """Send what is queued, then close with ``code`` and ``reason`` (a redirect)."""
        self._close_reason = reason.encode()[:123]  # a close frame's reason limit
        self.flush_and_close(code)

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
        and the broadcasts of a whole group commit cost one WebSocket write.  One
        without it gets a frame a message, but what is queued (within the same bounds)
        still goes in one socket write: a catch-up is not a system call an event."""
        loop = asyncio.get_running_loop()
        while True:
            if not self._queue and self._carried is None:
                await self._wait()
            frames, closing = self._take()
            if frames:
                self.busy_since = loop.time()
                await self._send(frames)
                self.busy_since = None
            if closing:
                await self._ws.close(code=self._close_code, message=self._close_reason)
                return

    def _take(self) -> tuple[list[bytes | str], bool]:
        """The next frame's messages, encoded, taken from the queue: what was carried
        over, then what is queued, up to :data:`protocol.MAX_BATCH` messages and
        :data:`protocol.MAX_FRAME_BYTES` (the message that does not fit is carried to
        the next); and whether the close was reached (sent after them)."""
        queue = self._queue
        if self._carried is not None:
            first, self._carried = self._carried, None
        else:
            item = queue.popleft()
            if item is _FLUSH_AND_CLOSE:
                return [], True
            first = self._encode(item)
        frames, size = [first], _wire_size(first)
        while len(frames) < protocol.MAX_BATCH and queue:
            item = queue.popleft()
            if item is _FLUSH_AND_CLOSE:
                return frames, True
            frame = self._encode(item)
            size += _wire_size(frame) + 1  # the separator, or the array header's growth
            if size + 5 > protocol.MAX_FRAME_BYTES:  # 5: the largest array header
                self._carried = frame
                break
            frames.append(frame)
        return frames, False

    async def _send(self, frames: list[bytes | str]) -> None:
        """Send one frame's messages: a batch frame to a client that joined with
        ``batch`` (one message: itself), else a frame each in one socket write."""
        framed = self._framed(frames)
        if len(framed) > 1:
            await self._send_frames(framed)
            return
        (out,) = framed
        if isinstance(out, bytes):
            await self._ws.send_bytes(out)
        else:
            await self._ws.send_str(out)

    async def _send_frames(self, frames: list[bytes | str]) -> None:
        """A client without ``batch``: one frame a message, all in one socket write
        when the response can (:meth:`DrainingResponse.send_frames`)."""
        if isinstance(self._ws, DrainingResponse):
            await self._ws.send_frames(frames)
            return
        for frame in frames:
            if isinstance(frame, bytes):
                await self._ws.send_bytes(frame)
            else:
                await self._ws.send_str(frame)

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
