"""What :mod:`bench.neighbour` and :mod:`bench.hostile_reach` share: the largest scene a
frame holds, a client-side token bucket, the event-loop monitor and the ``/healthz``
poller (moved out of :mod:`bench.neighbour`, so neither bench imports the other).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import aiohttp
import msgpack

from bench.serving import frame

#: Largest frame the neighbour builds (the server closes frames of 64 KiB and over).
FRAME_LIMIT = 64 * 1024 - 1024


def largest_scene(long_walls: bool = False, variant: int = 0) -> dict[str, Any]:
    """A 1000 x 1000 grid with the GM's ``hero`` at (5, 5), a walled-in room at
    (20..24, 20..24), 100 more walls (5 m each; with ``long_walls`` 960 m each, across
    the map), and tokens until the frame is nearly full.  ``variant`` moves the 100
    walls that many cells: a different scene of the same size, so reloading it cannot
    reuse the table's spatial index."""
    length = 960.0 if long_walls else 5.0
    corners = [(20.0, 20.0), (24.0, 20.0), (24.0, 24.0), (20.0, 24.0)]
    walls = [
        {"id": f"room{i}", "a": list(corners[i]), "b": list(corners[(i + 1) % 4]),
         "blocks_move": True, "blocks_sight": True, "door": "none"}
        for i in range(4)
    ]  # fmt: skip
    walls += [
        {"id": f"w{i}", "a": [40.0 + 9 * i + variant, 30.0],
         "b": [40.0 + 9 * i + variant, 30.0 + length],
         "blocks_move": True, "blocks_sight": True, "door": "none"}
        for i in range(100)
    ]  # fmt: skip
    grid = {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 1000, "height": 1000,
            "vtt": {"kind": "foundry", "grid_size": 100}}  # fmt: skip

    def token(i: int) -> dict[str, Any]:
        x, y = (5, 5) if i == 0 else (30 + (i * 7) % 960, 30 + (i * 13) % 960)
        return {"id": "hero" if i == 0 else f"t{i}", "name": "n", "owner": "gm",
                "side": "heroes" if i % 2 == 0 else "monsters", "x": x, "y": y, "size": 1,
                "reach": 1.0, "movement": 6.0,
                "stats": {"ocv": 3, "dcv": 3, "init": 8}}  # fmt: skip

    tokens = [token(0)]
    scene = {"grid": grid, "tokens": tokens, "walls": walls}
    while True:
        tokens.append(token(len(tokens)))
        if len(frame("load_scene", 1, {"scene": scene})) > FRAME_LIMIT:
            tokens.pop()
            return scene


class Bucket:
    """The server's default token bucket, kept by the client (see
    :mod:`bench.neighbour`'s docstring)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens = rate, burst, burst
        self.last = time.perf_counter()

    async def take(self, cost: int) -> None:
        """Wait until ``cost`` tokens are there and take them."""
        while True:
            now = time.perf_counter()
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
            if self.tokens >= cost:
                self.tokens -= cost
                return
            await asyncio.sleep((cost - self.tokens) / self.rate)


class LoopMonitor:
    """Wakes every millisecond and reads the loop thread's CPU clock: between two
    wake-ups, whatever else ran on the loop ran without a break (see
    :mod:`bench.neighbour`'s docstring)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._stop = False

    async def run(self) -> None:
        """Watch until :meth:`stop`."""
        last = time.thread_time()
        while not self._stop:
            await asyncio.sleep(0.001)
            now = time.thread_time()
            self.longest = max(self.longest, now - last)
            last = now

    def stop(self) -> None:
        """Stop at the next wake-up."""
        self._stop = True


async def poll_health(port: int, stop_at: float) -> list[float]:
    """``/healthz`` response times (ms), one request every 50 ms until ``stop_at``."""
    times = []
    async with aiohttp.ClientSession() as http:
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                await response.read()
            times.append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(0.05)
    return times


async def count_answers(ws: Any, answers: Counter[str], report: dict[str, Any]) -> None:
    """Read ``ws`` until it ends, counting every answer by type (an error by its code;
    events not at all) into ``answers``; how it ended goes in ``report["closed"]``."""
    while True:
        message = await ws.receive()
        if message.type != aiohttp.WSMsgType.BINARY:
            report["closed"] = f"{message.type.name} {message.data!r} {message.extra!r}"
            return
        decoded = msgpack.unpackb(message.data)
        for envelope in decoded if isinstance(decoded, list) else [decoded]:
            kind = envelope["type"]
            if kind == "error":
                answers[f"error:{envelope['body']['code']}"] += 1
            elif kind != "event":
                answers[kind] += 1
