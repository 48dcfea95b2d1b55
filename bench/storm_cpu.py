"""What a storm of joins costs the event loop, in-process: ``python -m bench.storm_cpu``.

The bridge runs in this process (a real aiohttp server on loopback, ``synchronous=FULL``,
default limits); :data:`bench.hostile_clients.STORM` clients in a process of their own
join one table at once, each catching up from event 0, as in ``bench.neighbour
--hostile``'s storm.  While they do, a monitor task wakes every millisecond
(:class:`bench.probing.LoopMonitor`) and the loop thread's CPU clock is read, so the
figures do not depend on what else the machine runs:

* the loop thread's CPU over the storm, and per join;
* the longest stretch the loop ran without reaching the monitor (the most the storm
  held every other table up at once), and how many stretches were over 2 ms;
* the CPU the storm's clients used (their process, start-up included): on a machine
  where they share the server's cores, what they take is taken from it too;
* the trips to the database thread the joins' token lookups made
  (:mod:`vtt_bridge.token_cache`).

``--reconnect`` reads every storm token once before the storm, as the joins before a
reconnect storm did (the tokens are then known; without it each is read for the first
time).  ``--profile FILE`` writes a cProfile of the loop thread over the storm (``pstats``).
``--slow`` lists every callback of the loop that ran over :data:`LONG_STRETCH_S`
(what it ran, how long: :class:`SlowCallbacks`), from start-up to the end.
``--json`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import re
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from bench.hostile_clients import elsewhere, hostile_table, setup_hostile
from bench.serving import free_port
from vtt_bridge import Config, create_app

#: A stretch the loop runs without a break longer than this is counted.
LONG_STRETCH_S = 0.002


class SlowCallbacks:
    """Every callback of the loop that ran over :data:`LONG_STRETCH_S`, as (what,
    seconds, CPU seconds): :meth:`watch` times each ``asyncio.Handle`` run (two clock
    reads each, no debug mode), so the figures stay close to an unwatched run's.  The
    loop thread's own CPU beside the wall time tells a callback that computed from one
    the kernel switched away from (the storm's clients share the cores)."""

    def __init__(self) -> None:
        self.slow: list[tuple[str, float, float]] = []
        self._unwatched = asyncio.events.Handle._run

    def watch(self) -> None:
        """Time every callback of every loop of this process until :meth:`unwatch`."""
        run = self._unwatched = asyncio.events.Handle._run
        slow = self.slow

        def timed(handle: asyncio.Handle) -> None:
            began, began_cpu = time.perf_counter(), time.thread_time()
            run(handle)
            took = time.perf_counter() - began
            if took > LONG_STRETCH_S:
                cpu = time.thread_time() - began_cpu
                task = getattr(getattr(handle, "_callback", None), "__self__", None)  # a step
                what = repr(task) if isinstance(task, asyncio.Task) else repr(handle)
                slow.append((_short(what), took, cpu))

        asyncio.events.Handle._run = timed  # type: ignore[method-assign,assignment]

    def unwatch(self) -> None:
        """Stop timing callbacks."""
        asyncio.events.Handle._run = self._unwatched  # type: ignore[method-assign]

    def summary(self) -> list[str]:
        """The slow callbacks by what they ran: the longest (its CPU beside), how many,
        longest first."""
        kinds: dict[str, list[tuple[float, float]]] = {}
        for what, seconds, cpu in self.slow:
            kinds.setdefault(what, []).append((seconds, cpu))
        ranked = sorted(kinds.items(), key=lambda kind: -max(kind[1])[0])
        return [
            f"max {max(s)[0] * 1000:.1f} ms ({max(s)[1] * 1000:.1f} ms CPU), {len(s)}x: {what}"
            for what, s in ranked
        ]


def _short(handle: str) -> str:
    """What a slow handle ran: a task's coroutine where it stood, or a callback's name."""
    task = re.search(r"coro=<(\S+) (?:running at|done, defined at) (\S+?):(\d+)>", handle)
    if task is not None:
        return f"task {task.group(1)} at {task.group(2).rsplit('/', 1)[-1]}:{task.group(3)}"
    return re.sub(r"\(.*", "", handle.removeprefix("<"))


class Stretches:
    """The loop thread's CPU between wake-ups of a 1 ms ticker: the longest, and how
    many were over :data:`LONG_STRETCH_S`."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.long = 0
        self._stop = False

    async def run(self) -> None:
        """Watch until :meth:`stop`."""
        last = time.thread_time()
        while not self._stop:
            await asyncio.sleep(0.001)
            now = time.thread_time()
            self.longest = max(self.longest, now - last)
            self.long += now - last > LONG_STRETCH_S
            last = now

    def stop(self) -> None:
        """Stop at the next wake-up."""
        self._stop = True


async def measure_loops(seconds: float) -> dict[str, Any]:
    """The reconnect loops (``bench.hostile_clients.reconnect_loops``) for ``seconds``
    against an in-process bridge: the loop's CPU a second and its longest stretch."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "loops.sqlite3"
        tokens = hostile_table(db)
        port = free_port()
        app = create_app(Config(database=db, port=port, synchronous="FULL"))
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        url = f"ws://127.0.0.1:{port}/ws"
        try:
            await setup_hostile(url, tokens)
            monitor = Stretches()
            watching = asyncio.create_task(monitor.run())
            loops = asyncio.create_task(
                elsewhere("reconnect_loops", url, tokens["p0"], seconds + 2)
            )
            await asyncio.sleep(2.0)  # the clients' process has started
            began = time.thread_time()
            await asyncio.sleep(seconds)
            cpu = time.thread_time() - began
            monitor.stop()
            await watching
            report = await loops
        finally:
            await runner.cleanup()
    return {
        "hostile": report,
        "loop_cpu_ms_per_s": round(cpu * 1000 / seconds, 1),
        "longest_stretch_ms": round(monitor.longest * 1000, 2),
        "stretches_over_2ms": monitor.long,
    }


async def measure(
    profile: Path | None, reconnect: bool = False, slow: bool = False
) -> dict[str, Any]:
    """One storm against an in-process bridge; its figures (module docstring)."""
    from vtt_bridge.app import HUB

    reports = SlowCallbacks()
    if slow:
        reports.watch()

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "storm.sqlite3"
        tokens = hostile_table(db)
        port = free_port()
        app = create_app(Config(database=db, port=port, synchronous="FULL"))
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        url = f"ws://127.0.0.1:{port}/ws"
        try:
            await setup_hostile(url, tokens)
            spectators = [t for p, t in tokens.items() if p.startswith("spectator")]
            lookups = app[HUB].join_tokens
            if reconnect:
                for token in spectators:
                    await lookups.lookup(token)
            trips = lookups.reads
            monitor = Stretches()
            watching = asyncio.create_task(monitor.run())
            profiler = cProfile.Profile() if profile is not None else None
            delay = 2.0  # the clients' process starts first
            children = _children_cpu_s()
            storm = asyncio.create_task(elsewhere("storm", url, spectators, delay, delay + 8.0))
            await asyncio.sleep(delay - 0.3)
            began = time.thread_time()
            if profiler is not None:
                profiler.enable()
            # Until the last join is caught up: the clients hold their sockets open.
            while not storm.done() and not _all_joined(app, len(spectators)):
                await asyncio.sleep(0.05)
            cpu = time.thread_time() - began
            trips = lookups.reads - trips
            if profiler is not None and profile is not None:
                profiler.disable()
                profiler.dump_stats(profile)
            monitor.stop()
            await watching
            report: dict[str, Any] = await storm
            clients_cpu = _children_cpu_s() - children
        finally:
            await runner.cleanup()
    reports.unwatch()
    joined = report.get("joined", 0)
    return {
        "joins": joined,
        "failed": report.get("failed"),
        "caught_up_max_ms": report.get("caught_up_max_ms"),
        "loop_cpu_ms": round(cpu * 1000, 1),
        "cpu_per_join_ms": round(cpu * 1000 / max(joined, 1), 3),
        "longest_stretch_ms": round(monitor.longest * 1000, 2),
        "stretches_over_2ms": monitor.long,
        "token_db_trips": trips,
        # The storm's clients, their process's whole life (start-up included): on the
        # same cores as the server, they compete with it and with the load's driver.
        "clients_cpu_ms": round(clients_cpu * 1000, 1),
    } | ({"slow_callbacks": reports.summary()} if slow else {})


def _children_cpu_s() -> float:
    """CPU seconds of this process's children that have ended and been waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _all_joined(app: web.Application, count: int) -> bool:
    """Whether ``count`` spectators are members with nothing held (caught up)."""
    from vtt_bridge.app import HUB

    hub = app[HUB]
    table = hub.table_by_name("hostile")
    if table is None:
        return False
    caught_up = [s for s in table.sessions if s.role == "spectator" and s.held is None]
    return len(caught_up) >= count


def main() -> int:
    """Run the storm once and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("--loops", action="store_true", help="the reconnect loops instead")
    parser.add_argument("--reconnect", action="store_true", help="the storm's tokens known")
    parser.add_argument("--slow", action="store_true", help="name the callbacks over 2 ms")
    options = parser.parse_args()
    result = asyncio.run(
        measure_loops(8.0)
        if options.loops
        else measure(options.profile, options.reconnect, options.slow)
    )
    print(json.dumps(result) if options.json else "\n".join(_lines(result)))
    return 0


def _lines(result: dict[str, Any]) -> list[str]:
    """The figures one a line, a list's items each on its own."""
    lines = []
    for key, value in result.items():
        if isinstance(value, list):
            lines += [f"{key}:"] + [f"  {item}" for item in value]
        else:
            lines.append(f"{key}: {value}")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
