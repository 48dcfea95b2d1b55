"""``bench.storm_cpu --slow``'s probe names the callbacks that held the loop."""

from __future__ import annotations

import asyncio
import time

from bench.storm_cpu import LONG_STRETCH_S, SlowCallbacks


def _busy(seconds: float) -> None:
    ends = time.perf_counter() + seconds
    while time.perf_counter() < ends:
        pass


async def _holder() -> None:
    _busy(LONG_STRETCH_S * 3)


async def _scene() -> None:
    loop = asyncio.get_running_loop()
    loop.call_soon(_busy, LONG_STRETCH_S * 2)
    loop.call_soon(_busy, 0)
    await loop.create_task(_holder())
    await asyncio.sleep(0)


def test_only_the_callbacks_over_the_stretch_are_named() -> None:
    probe = SlowCallbacks()
    probe.watch()
    try:
        asyncio.run(_scene())
    finally:
        probe.unwatch()
    names = [what for what, _, _ in probe.slow]
    assert len(names) == 2
    assert any("_busy" in what for what in names)
    assert any("task _holder()" in what for what in names)
    assert all(seconds > LONG_STRETCH_S for _, seconds, _ in probe.slow)
    # A busy wait computes: its CPU is most of its wall time, and never more.
    assert all(0.5 * seconds < cpu <= seconds + 1e-3 for _, seconds, cpu in probe.slow)
    summary = probe.summary()
    assert summary[0].startswith("max ") and "task _holder()" in summary[0]  # the longest first


def test_unwatch_stops_the_timing() -> None:
    probe = SlowCallbacks()
    probe.watch()
    probe.unwatch()
    asyncio.run(_scene())
    assert probe.slow == []
