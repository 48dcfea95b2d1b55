"""The refill rule of ``vtt_bridge.limits``, step by step on a clock the test turns
(the server's loop clock in production), and the admission gate's turns."""

from __future__ import annotations

import asyncio

import pytest

from vtt_bridge.limits import (
    CREDIT_GRACE_S,
    LAG_SLACK_S,
    MAX_CREDIT_S,
    TICK_S,
    Bucket,
    Buckets,
    Gate,
    JoinRate,
    LoopLag,
)


class Clock:
    """A clock the test sets."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def run(clock: Clock, lag: LoopLag, seconds: float) -> None:
    """Time passing with the loop turning: the ticker wakes on time."""
    end = clock.now + seconds
    while clock.now < end:
        clock.now += TICK_S
        lag.tick(clock.now)


def test_wall_time_refills_up_to_the_burst() -> None:
    bucket = Bucket(rate=10, burst=5, now=0.0, lag=None)
    assert all(bucket.take(1, 0.0) for _ in range(5))
    assert not bucket.take(1, 0.0)
    assert bucket.take(1, 0.1)  # 0.1 s at 10/s: one token
    assert not bucket.take(1, 0.1)
    bucket.refill(60.0)
    assert bucket.tokens == 5  # capped, however long it waited


def test_lagged_time_refills_beyond_the_burst_for_a_while() -> None:
    clock = Clock()
    lag = LoopLag(clock)
    bucket = Bucket(rate=10, burst=5, now=clock.now, lag=lag)
    for _ in range(5):
        assert bucket.take(1, clock.now)
    # The loop is held for 3 s (the ticker wakes late): 30 tokens earned in lagged
    # time, credited although the cap is 5, read before the ticker has run again.
    clock.now += TICK_S + LAG_SLACK_S + 3.0
    bucket.refill(clock.now)
    normal = (TICK_S + LAG_SLACK_S) * 10  # the time the ticker was not yet late
    assert bucket.tokens == pytest.approx(30 + normal)
    lag.tick(clock.now)  # the ticker agrees with what was read meanwhile
    assert lag.total(clock.now) == pytest.approx(3.0)
    for _ in range(20):  # the backlog, read in one burst
        assert bucket.take(1, clock.now)
    left = bucket.tokens
    assert left > 5
    run(clock, lag, CREDIT_GRACE_S / 2)  # the loop turns as it should
    bucket.refill(clock.now)
    assert bucket.tokens == left  # within the grace: the credit is kept
    run(clock, lag, CREDIT_GRACE_S)
    bucket.refill(clock.now)
    assert bucket.tokens == 5  # then cut back to the burst


def test_the_credit_is_at_most_max_credit_seconds() -> None:
    clock = Clock()
    lag = LoopLag(clock)
    bucket = Bucket(rate=10, burst=5, now=clock.now, lag=lag)
    clock.now += 10 * MAX_CREDIT_S
    bucket.refill(clock.now)
    assert bucket.tokens == 5 + 10 * MAX_CREDIT_S


def test_a_cost_above_the_burst_takes_a_full_bucket() -> None:
    bucket = Bucket(rate=1, burst=4, now=0.0, lag=None)
    assert bucket.take(40, 0.0) and bucket.tokens == 0
    assert not bucket.take(40, 3.0)  # 3 tokens: not full


def test_a_participant_keeps_one_bucket_until_it_is_full_again() -> None:
    buckets = Buckets(rate=10, burst=5, lag=None)
    first = buckets.get("t", "alice", 0.0)
    assert buckets.get("t", "alice", 0.0) is first
    assert buckets.get("t", "bob", 0.0) is not first
    first.take(5, 0.0)
    assert buckets.sweep(0.2) == 1  # bob's is full: forgotten; alice's is not
    assert buckets.peek("t", "alice", 0.2) is first
    assert buckets.sweep(0.5) == 1  # alice's has refilled: forgetting it loses nothing
    assert buckets.peek("t", "alice", 0.5) is None and len(buckets) == 0


def test_handshakes_per_address() -> None:
    rate = JoinRate(rate=2, burst=3)
    assert [rate.admit("a", 0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert rate.admit("a", 0.0) == pytest.approx(0.5)  # one more in 0.5 s
    assert rate.admit("b", 0.0) == 0.0  # another address
    assert rate.admit("a", 0.5) == 0.0


async def test_the_gate_admits_its_size_in_arrival_order() -> None:
    gate = Gate(2)
    inside: list[int] = []
    order: list[int] = []
    most = 0
    release = asyncio.Event()

    async def enter(i: int) -> None:
        nonlocal most
        async with gate:
            inside.append(i)
            order.append(i)
            most = max(most, len(inside))
            await release.wait()
            inside.remove(i)

    tasks = [asyncio.create_task(enter(i)) for i in range(6)]
    await asyncio.sleep(0.01)
    assert order == [0, 1] and gate.waited == 4
    tasks[3].cancel()  # one gives up while waiting: its turn is not lost
    release.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert most == 2 and order == [0, 1, 2, 4, 5]
    async with gate, gate:  # both turns are free again
        pass
