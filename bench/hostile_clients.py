"""Hostile clients beside ten tables at human pace: ``python -m bench.neighbour --hostile``.

Issue 22's probe, as cases run one after the other against one bridge process with the
server's *default* limits (``synchronous=FULL``), each beside ``bench.bridge``'s ten
tables (a GM and four players each) whose players move every 2 to 4 s, as people do:

* ``reconnect_loops``: one player join token, 8 loops at once from one address, each
  joining, sending 19 ``ask_path`` without waiting, reading what comes back, and reconnecting.  The
  participant's one bucket pays for all of it (``vtt_bridge.limits``), so most are
  refused ``rate_limited`` and closed (1008), however often it reconnects;
* ``storm``: 500 clients (one spectator token each) join one table at the same
  instant, each as a reconnecting client does (``last_event`` 0: a catch-up of the
  table's events).  A real storm comes from many addresses: these connect from
  :data:`STORM_ADDRESSES` loopback addresses (127.0.0.2, ...), 10 each, within the
  per-address handshake limit; the join gate spreads their upgrades and admissions;
* ``stall``: 4 clients of 4 other participants each pace pings at 90 % of the
  documented rate (``--rate-limit``) while the server process is stopped for 2 s
  (``SIGSTOP``/``SIGCONT``): none may be closed.  The other tables' latency in this
  case includes the stall itself (every acknowledgement in flight waits 2 s), so the
  latency targets are not applied to it.

Per case, beside the quiet figure of the same run: the other tables' acknowledgement
p99 (ms, and its ratio to quiet), ``/healthz`` p99, and how many well-paced clients were
closed.  Targets: p99 under 2x quiet and under 50 ms, ``/healthz`` p99 under 50 ms,
no well-paced client closed.  Wall-clock figures depend on what else the machine runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import msgpack

from bench import pinning
from bench._stats import percentile
from bench.probing import poll_health
from bench.serving import Run, drive, frame, free_port, make_tables, running, wait_healthy
from bench.serving import scene as table_scene
from vtt_bridge.config import Config

#: Players of the human-pace load wait this long after each acknowledgement.
PAUSE = (2.0, 4.0)
LOOPS = 8
QUESTIONS = 19
STORM = 500
STORM_ADDRESSES = 50
#: The reconnect loops' address: the load's own (127.0.0.1) keeps its handshake budget.
HOSTILE_ADDRESS = "127.0.0.250"
PACED = 4
PACED_SHARE = 0.9
STALL_S = 2.0
TARGET_MS = 50.0


def hostile_table(db: Path) -> dict[str, str]:
    """The hostile cases' table: 8 players and :data:`STORM` spectators; its tokens."""
    from vtt_bridge.hub import Hub
    from vtt_bridge.store import Store

    hub = Hub(Store(db))
    try:
        table = hub.create_table("hostile", [f"p{i}" for i in range(8)], spectators=STORM)
        return {g.participant: g.token for g in table.tokens.values()}
    finally:
        hub.close()


async def receive(ws: aiohttp.ClientWebSocketResponse, timeout: float = 30) -> list[Any]:
    """The envelopes of the next frame; ``[]`` when the connection ended."""
    message = await ws.receive(timeout=timeout)
    if message.type != aiohttp.WSMsgType.BINARY:
        return []
    decoded = msgpack.unpackb(message.data)
    return decoded if isinstance(decoded, list) else [decoded]


async def setup_hostile(url: str, tokens: dict[str, str], moves: int = 60) -> None:
    """The GM loads the scene and moves its token ``moves`` times: events to catch up on."""
    async with aiohttp.ClientSession() as http, http.ws_connect(url, max_msg_size=0) as ws:
        await ws.send_bytes(frame("join", 1, {"token": tokens["gm"], "last_event": None}))
        seq = 1
        for kind, body in [("load_scene", {"scene": table_scene()})] + [
            ("move", {"token": "t-gm", "path": [[8, 1 + i % 2]]}) for i in range(moves)
        ]:
            seq += 1
            await ws.send_bytes(frame(kind, seq, body))
            while not any(e["body"].get("ref") == seq for e in await receive(ws)):
                pass
            await asyncio.sleep(0.025)  # within the GM's own rate limit


async def reconnect_loops(url: str, token: str, stop_at: float, report: Counter[str]) -> None:
    """:data:`LOOPS` loops of join, :data:`QUESTIONS` ``ask_path``, reconnect."""

    async def loop(http: aiohttp.ClientSession) -> None:
        while time.perf_counter() < stop_at:
            try:
                ws = await http.ws_connect(url, max_msg_size=0)
            except aiohttp.WSServerHandshakeError as exc:
                report[f"handshake_{exc.status}"] += 1
                await asyncio.sleep(1.0)
                continue
            report["connections"] += 1
            await ws.send_bytes(frame("join", 1, {"token": token, "last_event": None}))
            for i in range(QUESTIONS):
                body = {"token": "t-p0", "to": [19, 19]}
                with contextlib.suppress(ConnectionError):
                    await ws.send_bytes(frame("ask_path", 2 + i, body))
            with contextlib.suppress(TimeoutError, ConnectionError):
                while envelopes := await receive(ws, timeout=5):
                    for envelope in envelopes:
                        if envelope["type"] == "path_plan":
                            report["answered"] += 1
                        elif envelope["type"] == "error":
                            report[envelope["body"]["code"]] += 1
            report[f"closed_{ws.close_code}"] += 1
            await ws.close()

    connector = aiohttp.TCPConnector(limit=0, local_addr=(HOSTILE_ADDRESS, 0))
    async with aiohttp.ClientSession(connector=connector) as http:
        await asyncio.gather(*(loop(http) for _ in range(LOOPS)))


async def storm(
    url: str, tokens: list[str], delay: float, stop_at: float, report: dict[str, Any]
) -> None:
    """:data:`STORM` joins at once ``delay`` s from now, each catching up from event 0;
    held until ``stop_at``."""
    await asyncio.sleep(delay)
    joined: list[float] = []
    failed: Counter[str] = Counter()

    async def one(http: aiohttp.ClientSession, token: str) -> None:
        began = time.perf_counter()
        try:
            ws = await http.ws_connect(url, max_msg_size=0)
        except aiohttp.WSServerHandshakeError as exc:
            failed[f"handshake_{exc.status}"] += 1
            return
        # As the JavaScript client joins after a drop: its id, batched frames and the
        # rulesets' description with the welcome.
        join = {"token": token, "last_event": 0, "client": token[:16], "batch": True}
        await ws.send_bytes(frame("join", 1, {**join, "describe": True}))
        try:
            while True:  # the welcome, then the catch-up; a ping's pong ends it
                envelopes = await receive(ws)
                if not envelopes:
                    failed[f"closed_{ws.close_code}"] += 1
                    return
                if any(e["type"] == "welcome" for e in envelopes):
                    await ws.send_bytes(frame("ping", 2, {}))
                if any(e["type"] == "pong" for e in envelopes):
                    joined.append((time.perf_counter() - began) * 1000)
                    break
                if any(e["type"] == "error" for e in envelopes):
                    failed["error"] += 1
                    return
            await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        finally:
            await ws.close()

    sessions = [
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.0.{2 + a}", 0))
        )
        for a in range(STORM_ADDRESSES)
    ]
    try:
        await asyncio.gather(
            *(one(sessions[i % STORM_ADDRESSES], token) for i, token in enumerate(tokens))
        )
    finally:
        for http in sessions:
            await http.close()
    report["joined"] = len(joined)
    report["failed"] = dict(failed)
    if joined:
        report["caught_up_p50_ms"] = round(percentile(joined, 50), 1)
        report["caught_up_max_ms"] = round(max(joined), 1)


async def paced(url: str, token: str, rate: float, stop_at: float, report: Counter[str]) -> None:
    """Ping every ``1 / rate`` s by the schedule (never faster) until ``stop_at``."""
    async with aiohttp.ClientSession() as http, http.ws_connect(url, max_msg_size=0) as ws:
        await ws.send_bytes(frame("join", 1, {"token": token, "last_event": None}))

        async def read() -> None:
            while envelopes := await receive(ws, timeout=60):
                for envelope in envelopes:
                    if envelope["type"] == "pong":
                        report["pongs"] += 1
                    elif envelope["type"] == "error":
                        report[envelope["body"]["code"]] += 1

        reader = asyncio.create_task(read())
        start, sent = time.perf_counter(), 0
        while time.perf_counter() < stop_at and not ws.closed:
            sent += 1
            await ws.send_bytes(frame("ping", 1 + sent, {}))
            await asyncio.sleep(max(0.0, start + sent / rate - time.perf_counter()))
        report["sent"] += sent
        await asyncio.sleep(1.0)  # the last pongs
        report["closed"] += int(ws.closed)
        await ws.close()
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


async def stall(pid: int, after: float) -> None:
    """Stop the server process for :data:`STALL_S` s, ``after`` s from now."""
    await asyncio.sleep(after)
    os.kill(pid, signal.SIGSTOP)
    try:
        await asyncio.sleep(STALL_S)
    finally:
        os.kill(pid, signal.SIGCONT)


def _run_case(name: str, args: tuple[Any, ...], results: Any) -> None:
    """In a process of its own: run the hostile case ``name`` and send back its report."""
    stop_in = args[-1]
    report: Any = {} if name == "storm" else Counter()

    async def run() -> None:
        stop_at = time.perf_counter() + stop_in
        await CASES[name](*args[:-1], stop_at, report)

    asyncio.run(run())
    results.put(dict(report))


async def elsewhere(name: str, *args: Any) -> dict[str, Any]:
    """Run a hostile case in another process, so its clients' CPU and event loop are
    not the load driver's (the acknowledgement times are read on the driver's loop):
    its last argument is the seconds until it stops."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    process = context.Process(target=_run_case, args=(name, args, results))
    process.start()
    loop = asyncio.get_running_loop()
    try:
        report: dict[str, Any] = await loop.run_in_executor(None, results.get)
    finally:
        await loop.run_in_executor(None, process.join)
    return report


#: The cases :func:`elsewhere` runs, by name.
CASES: dict[str, Any] = {"reconnect_loops": reconnect_loops, "storm": storm}


def storm_summary(storms: list[dict[str, Any]]) -> dict[str, Any]:
    """The storms of every round in one report: joins and failures summed, the worst
    catch-up times."""
    failed: Counter[str] = Counter()
    for found in storms:
        failed.update(found.get("failed", {}))
    summary: dict[str, Any] = {
        "storms": len(storms),
        "joined": sum(found.get("joined", 0) for found in storms),
        "failed": dict(failed),
    }
    for key in ("caught_up_p50_ms", "caught_up_max_ms"):
        values = [found[key] for found in storms if key in found]
        if values:
            summary[key] = max(values)
    return summary


def figures(run: Run, health: list[float], quiet_p99: float | None) -> dict[str, Any]:
    """One case's figures: the other tables' acknowledgements and ``/healthz``."""
    p99 = percentile(run.latencies_ms, 99)
    row: dict[str, Any] = {
        "acks": run.acked,
        "errors": run.errors,
        "ack_p50_ms": round(percentile(run.latencies_ms, 50), 2),
        "ack_p99_ms": round(p99, 2),
        "ack_max_ms": round(max(run.latencies_ms), 2),
        "healthz_p99_ms": round(percentile(health, 99), 2),
    }
    if quiet_p99:
        row["p99_ratio"] = round(p99 / quiet_p99, 2)
    return row


async def measure(options: Any) -> dict[str, Any]:
    """Quiet, then each hostile case, on one server; the JSON figures."""
    warmup, seconds = PAUSE[1], options.seconds
    rounds = max(1, int(getattr(options, "rounds", 1)))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "hostile.sqlite3"
        tables = make_tables(db, 0)
        hostile = hostile_table(db)
        port = free_port()
        serve = [
            "-m", "vtt_bridge", "serve", "--db", str(db), "--port", str(port),
            "--synchronous", "FULL", "--log-format", "json",
        ]  # fmt: skip
        url = f"ws://127.0.0.1:{port}/ws"
        pinned = bool(getattr(options, "pin", False))
        result: dict[str, Any] = {
            "seconds": seconds,
            "rounds": rounds,
            "pause_s": list(PAUSE),
            "pinned": pinned,
            "load_before": pinning.load(),
        }
        with running(serve, Path(tmp) / "bridge.log") as bridge:
            await wait_healthy(port, bridge)
            if pinned:
                pinning.pin_server(bridge.pid)
            await setup_hostile(url, hostile)

            pooled: dict[str, tuple[Run, list[float]]] = {}

            async def beside(name: str, hostility: Any, setup: bool = False) -> None:
                # Each case's runs pooled: one storm is over in well under a second, so
                # a window holds only a few acknowledgements of it; a p99 of one run is
                # its second-worst, a pooled one reads across every round's storm.
                stop_at = time.perf_counter() + warmup + seconds
                run, health, _ = await asyncio.gather(
                    drive(url, tables, warmup, seconds, setup=setup, pause=PAUSE),
                    poll_health(port, stop_at),
                    hostility(stop_at),
                )
                kept, healths = pooled.setdefault(name, (Run(), []))
                kept.acked += run.acked
                kept.errors += run.errors
                kept.latencies_ms += run.latencies_ms
                healths += health

            async def nothing(stop_at: float) -> None:
                return None

            reports: dict[str, Any] = {}

            async def loops(stop_at: float) -> None:
                left = stop_at - time.perf_counter()
                found = await elsewhere("reconnect_loops", url, hostile["p0"], left)
                reports.setdefault("loops", Counter()).update(found)

            spectators = [t for p, t in hostile.items() if p.startswith("spectator")]

            async def storm_later(stop_at: float) -> None:
                left = stop_at - time.perf_counter()
                # Inside the measured window, after the clients' process has started.
                delay = warmup + seconds / 3
                found = await elsewhere("storm", url, spectators, delay, left)
                reports.setdefault("storm", []).append(found)

            paced_report: Counter[str] = Counter()
            rate = Config.rate_limit * PACED_SHARE

            async def paced_through_stall(stop_at: float) -> None:
                await asyncio.gather(
                    stall(bridge.pid, warmup + seconds / 3),
                    *(
                        paced(url, hostile[f"p{4 + i}"], rate, stop_at, paced_report)
                        for i in range(PACED)
                    ),
                )

            for round_ in range(rounds):  # interleaved: drift reaches every case alike
                await beside("quiet", nothing, setup=round_ == 0)
                await beside("reconnect_loops", loops)
                await beside("storm", storm_later)
                await beside("stall", paced_through_stall)
            quiet = figures(*pooled.pop("quiet"), None)
            result["quiet"] = quiet
            cases = {name: figures(*got, quiet["ack_p99_ms"]) for name, got in pooled.items()}
            cases["reconnect_loops"]["hostile"] = dict(reports["loops"])
            cases["storm"]["hostile"] = storm_summary(reports["storm"])
            cases["stall"]["paced"] = dict(paced_report)
            cases["stall"]["paced_rate_per_s"] = rate
        result["cases"] = cases
    result["load_after"] = pinning.load()
    result["targets_met"] = {
        name: {
            **(
                {}
                if name == "stall"
                else {
                    "p99_under_2x_quiet": case["p99_ratio"] < 2.0,
                    "p99_under_50_ms": case["ack_p99_ms"] < TARGET_MS,
                    "healthz_p99_under_50_ms": case["healthz_p99_ms"] < TARGET_MS,
                }
            ),
            "no_well_paced_client_closed": case.get("paced", {}).get("closed", 0) == 0,
        }
        for name, case in cases.items()
    }
    return result


def print_hostile(result: dict[str, Any]) -> None:
    """The cases as a table beside the quiet figure."""
    print(
        f"hostile clients beside 10 tables at human pace ({result['pause_s'][0]:g}-"
        f"{result['pause_s'][1]:g} s between moves), {result['seconds']} s per case, "
        f"{result.get('rounds', 1)} round(s) pooled"
    )
    print(
        f"  {'case':16} {'ack p50':>8} {'ack p99':>8} {'x quiet':>8} {'ack max':>8} "
        f"{'healthz p99':>12}"
    )
    quiet = result["quiet"]
    rows = [("quiet", quiet), *result["cases"].items()]
    for name, row in rows:
        print(
            f"  {name:16} {row['ack_p50_ms']:>8} {row['ack_p99_ms']:>8} "
            f"{row.get('p99_ratio', 1.0):>8} {row['ack_max_ms']:>8} {row['healthz_p99_ms']:>12}"
        )
    for name, row in result["cases"].items():
        print(f"  {name}: {row.get('hostile') or row.get('paced')}")
    print(f"  targets met: {result['targets_met']}")
    where = "server on core 0, clients on core 1" if result.get("pinned") else "cores shared"
    print(f"  {where}; load before {result['load_before']}, after {result['load_after']}")
