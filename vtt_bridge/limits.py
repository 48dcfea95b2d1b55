"""Who pays for inbound messages, and how a server stall is kept off their bill.

Rate limits belong to the participant, not to the connection: every connection joined
with one join token at one table charges one :class:`Bucket` (:class:`Buckets`), so
opening more connections or reconnecting does not refill it.  Before it has joined, a
connection charges a small bucket of its own (:data:`PRE_JOIN_BURST` tokens): all it
may usefully send then is its join.

**The refill rule.**  A bucket refills at ``rate`` tokens per second of wall time,
up to ``burst``.  The server cannot read a client's clock; what it can measure is how
long its own event loop was held up (:class:`LoopLag`: a ticker that should wake every
:data:`TICK_S` seconds, and the time it woke late beyond :data:`LAG_SLACK_S`).
During such time a well-paced client went on sending while its frames sat unread in
the socket buffer, and the backlog is then read in one burst.  So the part of the
refill that falls in lagged time is credited *without* the ``burst`` cap, and the
credit earned beyond ``burst`` is kept for :data:`CREDIT_GRACE_S` seconds after the
last lagged refill (long enough to read the backlog), at most
:data:`MAX_CREDIT_S` seconds' worth.  Charging is in arrival (read) order.  A client
that never sends faster than ``rate`` over any window, with at most ``burst`` at once,
is therefore never refused whatever the server did meanwhile; one that saves a stall's
credit can spend at most ``rate`` times the stall's length beyond its burst.

A bucket nobody charged for ``burst / rate`` seconds is full again, so forgetting it
loses nothing: :meth:`Buckets.sweep` drops those (kept in memory only; a restart
starts every participant with a full bucket, as its first connection would).

**Joins per address** (:class:`JoinRate`): WebSocket handshakes from one remote
address are limited too (HTTP 429 with ``Retry-After``), because each costs a TLS-less
HTTP parse, an upgrade and a join token read whatever bucket its join will charge.

**Admission** (:class:`Gate`): at most :data:`ADMISSIONS` joins (with their catch-up)
are handled at once; the rest wait their turn, so a reconnect storm's catch-ups queue
behind each other instead of in front of every other table's frames.  A member's
``resync`` sends its catch-up in a turn too; each turn is bounded (:func:`take_turn`).

**Arrivals** (:class:`Arrivals`): the handshakes that reach the server in one read of
its sockets all start in the event loop's next iteration, which runs every ready task
before it looks at anything else; 500 of them held every other table up for about
50 ms in one stretch.  At most :data:`ARRIVALS_PER_TURN` go on per iteration; the rest
wait their turn in arrival order, behind every other table's frames.
"""

from __future__ import annotations

import asyncio
import collections
import math
from collections.abc import Awaitable, Callable
from typing import Final

#: The lag ticker's period; lateness beyond it plus :data:`LAG_SLACK_S` counts as lag.
TICK_S: Final = 0.01
LAG_SLACK_S: Final = 0.005
#: Seconds after the last lagged refill the credit beyond ``burst`` is kept.
CREDIT_GRACE_S: Final = 2.0
#: At most this many seconds of lag are credited beyond ``burst``.
MAX_CREDIT_S: Final = 30.0
#: The bucket of a connection that has not joined yet: enough for a join and a retry.
PRE_JOIN_BURST: Final = 16
#: Joins (with their catch-ups) handled at once.
ADMISSIONS: Final = 2
#: WebSocket handshakes that go on in one iteration of the event loop (each costs about
#: 0.1 ms of the loop's CPU before its first wait: 8 of them stay under a millisecond).
ARRIVALS_PER_TURN: Final = 8
#: Longest an admission waits for what its join sent to reach the socket: a client
#: that does not read must not hold a turn every other join waits for.
ADMISSION_FLUSH_S: Final = 0.25
#: Longest a join (its catch-up included) holds its turn; a longer one goes on outside
#: the gate (a catch-up to a client that does not read waits for room in its queue).
ADMISSION_TURN_S: Final = 0.5


class LoopLag:
    """How long the event loop has been held up in all (seconds), read at any time.

    :meth:`total` includes a lag still going on (the ticker has not woken yet), so a
    frame read just after a stall, before the ticker runs, is credited too; the
    ticker's own reading when it wakes equals the reading at that moment."""

    def __init__(
        self, clock: Callable[[], float], observe: Callable[[float], None] | None = None
    ) -> None:
        """``observe`` is told each tick's lag (seconds): the metrics' histogram."""
        self._clock = clock
        self._observe = observe
        self._lagged = 0.0
        self._expected = clock() + TICK_S

    def total(self, now: float) -> float:
        """Seconds of lag up to ``now``."""
        return self._lagged + max(0.0, now - self._expected - LAG_SLACK_S)

    def tick(self, now: float) -> None:
        """The ticker woke at ``now``: close its period."""
        late = max(0.0, now - self._expected)
        self._lagged += max(0.0, late - LAG_SLACK_S)
        self._expected = now + TICK_S
        if self._observe is not None:
            self._observe(late)

    async def run(self) -> None:
        """Tick forever (the server runs this as a task)."""
        while True:
            await asyncio.sleep(TICK_S)
            self.tick(self._clock())


class Bucket:
    """A token bucket refilled by wall time, lag credited beyond its cap (see the
    module's refill rule)."""

    __slots__ = ("_credit_until", "_lag", "_lag_seen", "_last", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float, lag: LoopLag | None) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._last = now
        self._lag = lag
        self._lag_seen = lag.total(now) if lag is not None else 0.0
        self._credit_until = -math.inf

    def refill(self, now: float) -> None:
        """Add what the time since the last refill earned."""
        elapsed = max(0.0, now - self._last)
        self._last = now
        lagged = 0.0
        if self._lag is not None:
            seen = self._lag.total(now)
            lagged = min(elapsed, seen - self._lag_seen)
            self._lag_seen = seen
        normal = elapsed - lagged
        tokens = self.tokens
        if tokens < self.burst:
            tokens = min(self.burst, tokens + normal * self.rate)
        if lagged > 0:
            tokens = min(tokens + lagged * self.rate, self.burst + MAX_CREDIT_S * self.rate)
            self._credit_until = now + CREDIT_GRACE_S
        elif tokens > self.burst and now > self._credit_until:
            tokens = self.burst  # the backlog the credit was for has long been read
        self.tokens = tokens

    def take(self, cost: float, now: float) -> bool:
        """Take ``cost`` tokens; False (taking none) when fewer are there.  A cost above
        ``burst`` takes a full bucket (the largest frame allowed stays sendable)."""
        self.refill(now)
        needed = min(cost, self.burst)
        if self.tokens < needed:
            return False
        self.tokens -= needed
        return True

    def debit(self, cost: float, now: float) -> None:
        """Take up to ``cost`` tokens without refusing (what a connection paid before
        it joined, moved onto its participant's bucket: a reconnect pays for its join)."""
        self.refill(now)
        self.tokens = max(0.0, self.tokens - cost)

    def idle_full(self, now: float) -> bool:
        """Whether the bucket would be full now and holds no credit (safe to forget)."""
        return (
            now - self._last >= (self.burst - self.tokens) / self.rate and now > self._credit_until
        )


class Buckets:
    """One bucket per (table, join token), shared by all its connections."""

    def __init__(self, rate: float, burst: float, lag: LoopLag | None) -> None:
        self.rate, self.burst, self._lag = rate, burst, lag
        self._buckets: dict[tuple[str, str], Bucket] = {}

    def get(self, table: str, token: str, now: float) -> Bucket:
        """The participant's bucket (a full one if it has none)."""
        key = (table, token)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.rate, self.burst, now, self._lag)
        return bucket

    def peek(self, table: str, token: str, now: float) -> Bucket | None:
        """The participant's bucket refilled to ``now``, if it has one."""
        bucket = self._buckets.get((table, token))
        if bucket is not None:
            bucket.refill(now)
        return bucket

    def sweep(self, now: float) -> int:
        """Forget buckets that are full again; how many were forgotten."""
        idle = [key for key, bucket in self._buckets.items() if bucket.idle_full(now)]
        for key in idle:
            del self._buckets[key]
        return len(idle)

    def __len__(self) -> int:
        return len(self._buckets)


class JoinRate:
    """WebSocket handshakes per remote address: ``rate`` a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self._addresses: dict[str, Bucket] = {}

    def admit(self, address: str, now: float) -> float:
        """0 when a handshake from ``address`` may proceed, else the seconds to wait."""
        bucket = self._addresses.get(address)
        if bucket is None:
            bucket = self._addresses[address] = Bucket(self.rate, self.burst, now, None)
        if bucket.take(1, now):
            return 0.0
        return max(0.001, (1 - bucket.tokens) / self.rate)

    def sweep(self, now: float) -> None:
        """Forget addresses whose bucket is full again."""
        for address in [a for a, b in self._addresses.items() if b.idle_full(now)]:
            del self._addresses[address]


class Gate:
    """At most ``size`` admissions at once, first come first served."""

    def __init__(self, size: int = ADMISSIONS) -> None:
        self._free = size
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        #: How many admissions had to wait (the bench and ``/metrics`` read it).
        self.waited = 0

    async def __aenter__(self) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        self.waited += 1
        turn = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self._release()  # handed the turn as it was cancelled: pass it on
            else:
                self._waiting.remove(turn)
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._free += 1


async def take_turn(
    gate: Gate, work: Awaitable[None], flushed: Callable[[float], Awaitable[None]]
) -> None:
    """Run ``work`` (a join or a ``resync``, with its catch-up) in a turn of ``gate``.

    The turn lasts until ``work`` is done and ``flushed`` says what it sent is on the
    socket, but at most :data:`ADMISSION_TURN_S` for the work and
    :data:`ADMISSION_FLUSH_S` for the flush: a client that does not read must not
    hold a turn every other join waits for.  Past those, ``work`` finishes outside."""
    running: asyncio.Future[None] | None = None
    try:
        async with gate:
            running = asyncio.ensure_future(work)  # started only once admitted
            await asyncio.wait({running}, timeout=ADMISSION_TURN_S)
            if running.done():
                await flushed(ADMISSION_FLUSH_S)
    except BaseException:
        if running is not None:
            running.cancel()
        elif asyncio.iscoroutine(work):
            work.close()  # cancelled while waiting for its turn: never started
        raise
    assert running is not None
    await running


class Arrivals:
    """At most ``per_turn`` callers of :meth:`turn` go on in one iteration of the event
    loop; the others wait for a later one, first come first served."""

    def __init__(self, per_turn: int = ARRIVALS_PER_TURN) -> None:
        self._per_turn = per_turn
        self._left = per_turn
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._refill_due = False
        #: How many arrivals had to wait for a later iteration (``/metrics`` reads it).
        self.waited = 0

    def take(self) -> bool:
        """Take room for one arrival in this iteration if there is any (and no one
        waits for it); False: none, call :meth:`turn`."""
        self._schedule_refill()
        if self._left > 0 and not self._waiting:
            self._left -= 1
            return True
        return False

    async def turn(self) -> None:
        """Return in an iteration that has room for one more arrival."""
        if self.take():
            return
        self.waited += 1
        turn = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await turn
        except BaseException:
            if not turn.done():
                self._waiting.remove(turn)
            raise

    def _schedule_refill(self) -> None:
        if not self._refill_due:
            self._refill_due = True
            # ``call_soon`` from inside an iteration runs in the next one.
            asyncio.get_running_loop().call_soon(self._refill)

    def _refill(self) -> None:
        self._refill_due = False
        left = self._per_turn
        while left and self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # its task goes on in the next iteration
                left -= 1
        self._left = left
        if self._waiting or left < self._per_turn:
            self._schedule_refill()
