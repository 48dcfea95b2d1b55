"""Measure the bridge against the stack it stands on.

``python -m bench.bridge`` starts the bridge as its own process (``vtt-bridge serve``,
``synchronous=FULL`` unless ``--synchronous`` says otherwise) on a fresh database with
10 tables, and drives it over loopback with 50 WebSocket clients (per table one GM and
four players), msgpack frames: every client moves its own token one square, waits for
the acknowledgement, and moves again, as fast as it is acknowledged; every move is
broadcast to the five members of its table.  The clients join with ``batch`` (several
messages a frame, as a VTT module would ask); ``--no-batch`` measures one message a
frame.  ``BENCH_SERVE_ARGS`` adds flags to the bridge's command line for experiments
(``BENCH_SERVE_ARGS="--snapshot-every 0"``).

In the same run it drives three baselines the same way (:mod:`bench.baselines`): a
plain echo (one ack per move), a *fan-out echo*, the real limit of this shape: the same
tables, and per move an ack plus a move event to the mover and the event to the other
members, batched as the bridge batches, with no rules and no database; and the
*durable fan-out echo*: the fan-out echo with the bridge's group-committed SQLite log
(same ``synchronous``) and still no rules, the floor of any server that acknowledges
only what it has committed.  The primary
figure is the server's CPU time per command (``/proc/<pid>/stat`` over the measured
window, every thread of the process, divided by the moves acknowledged in it), which
does not depend on whether the load driver keeps the server busy; the driver (this
process, :mod:`bench.lean`'s cut-down client) reports its own CPU beside it.

It prints a table; ``--json`` prints one JSON object with ``bridge_cmds_per_s``,
``echo_msgs_per_s``, ``ratio``, ``fanout_msgs_per_s``, ``ratio_fanout``,
``cpu_us_per_cmd``, ``fanout_cpu_us_per_cmd``, ``cpu_ratio`` (their quotient),
``durable_msgs_per_s``, ``durable_cpu_us_per_cmd``, ``cpu_ratio_durable`` (the
bridge's CPU per command over the durable fan-out echo's), ``ratio_durable``,
``driver_cpu_pct``, ``p50_ack_ms``, ``p99_ack_ms``, ``rss_mb`` (the bridge's resident
memory after the run) and more.  ``--idle 500`` also measures the memory 500 joined
idle connections add; ``--soak 60`` also drives the bridge for 60 s and reports its
memory growth after warm-up.  ``--human`` measures instead how many tables one process
serves at human speed (:mod:`bench.human`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import msgpack

from bench._stats import percentile
from bench.baselines import serve_echo, serve_fanout
from bench.human import human, print_human
from bench.lean import REPLY_TIMEOUT, LeanSocket

TABLES = 10
#: More ``vtt-bridge serve`` flags for an experiment, e.g. ``--snapshot-every 0``.
SERVE_ARGS = os.environ.get("BENCH_SERVE_ARGS", "").split()
PLAYERS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status_mb(pid: int, field: str) -> float:
    """A memory figure of a process from ``/proc/<pid>/status`` (Linux), in MiB:
    ``VmRSS`` resident now, ``VmHWM`` the peak so far."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field}")


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MiB (Linux)."""
    return status_mb(pid, "VmRSS")


# -- setting up the bridge's tables ------------------------------------------------------


def make_tables(db: Path, spectators: int, count: int = TABLES) -> list[dict[str, str]]:
    """Create ``count`` tables in ``db``; per table the join tokens by participant."""
    from vtt_bridge.hub import Hub
    from vtt_bridge.store import Store

    hub = Hub(Store(db))
    try:
        tables = []
        for t in range(count):
            table = hub.create_table(
                f"bench-{t}", [f"p{i}" for i in range(PLAYERS)], spectators=spectators
            )
            tables.append({g.participant: g.token for g in table.tokens.values()})
        return tables
    finally:
        hub.close()


def scene() -> dict[str, Any]:
    owners = [*(f"p{i}" for i in range(PLAYERS)), "gm"]
    tokens = [
        {
            "id": f"t-{owner}", "name": owner, "owner": owner, "side": "heroes",
            "x": 2 * i, "y": 0, "size": 1, "reach": 1.0, "movement": 6.0,
            "stats": {"ocv": 3, "dcv": 3, "init": 8},
        }
        for i, owner in enumerate(owners)
    ]  # fmt: skip
    grid = {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 20, "height": 20}
    return {"grid": grid, "tokens": tokens}


# -- the driver ----------------------------------------------------------------------------


@dataclass
class Run:
    """What one driven run measured: moves acknowledged and their latencies in the
    measured window, and the CPU time the server (``cpu_pid``) and the driver (this
    process) used in it."""

    acked: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    server_cpu_s: float = 0.0
    driver_cpu_s: float = 0.0

    def server_us_per_cmd(self) -> float:
        """The server's CPU time per acknowledged move, in µs."""
        return 1e6 * self.server_cpu_s / max(1, self.acked)

    def driver_cpu_pct(self) -> float:
        """The driver's CPU time over the window, in per cent of one core."""
        return 100 * self.driver_cpu_s / self.seconds


def frame(kind: str, seq: int, body: dict[str, Any]) -> bytes:
    packed: bytes = msgpack.packb({"v": 1, "type": kind, "seq": seq, "body": body})
    return packed


async def until(ws: aiohttp.ClientWebSocketResponse, kind: str, ref: int | None = None) -> Any:
    """Read frames until one of type ``kind`` (answering ``ref``) arrives."""
    while True:
        message = await ws.receive(timeout=30)
        if message.type != aiohttp.WSMsgType.BINARY:
            raise ConnectionError(f"connection ended: {message.type} {message.data!r}")
        decoded = msgpack.unpackb(message.data)
        # A batch frame (clients joined with ``batch``) is an array of envelopes.
        for envelope in decoded if isinstance(decoded, list) else [decoded]:
            wanted = envelope["type"] in (kind, "error")
            if wanted and (ref is None or envelope["body"].get("ref") == ref):
                return envelope


def driver_cpu() -> float:
    """CPU time this process (the driver) has used, in seconds."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Member:
    """One joined client of a driven table: its connection, its token and its column."""

    ws: LeanSocket
    token: str
    x: int


async def seat(
    url: str, tables: list[dict[str, str]], *, setup: bool, batch: bool = True
) -> list[Member]:
    """Join every member of ``tables`` (GM first, who loads the scene if ``setup``)."""
    members: list[Member] = []
    for tokens in tables:
        gm = await LeanSocket.connect(url)
        gm.send(frame("join", 1, {"token": tokens["gm"], "last_event": None, "batch": batch}))
        await gm.until("welcome")
        if setup:
            gm.send(frame("load_scene", 2, {"scene": scene()}))
            await gm.until("ack", 2)
        members.append(Member(gm, "t-gm", 2 * PLAYERS))
        for i in range(PLAYERS):
            ws = await LeanSocket.connect(url)
            body = {"token": tokens[f"p{i}"], "last_event": None, "batch": batch}
            ws.send(frame("join", 1, body))
            await ws.until("welcome")
            members.append(Member(ws, f"t-p{i}", 2 * i))
    return members


async def drive(
    url: str,
    tables: list[dict[str, str]],
    warmup: float,
    duration: float,
    *,
    setup: bool,
    batch: bool = True,
    cpu_pid: int | None = None,
    pause: tuple[float, float] | None = None,
) -> Run:
    """Per table one GM and four players, each moving its token as fast as it is
    acknowledged, or, with ``pause=(low, high)``, waiting a random time in that range
    (seconds, seeded) after each acknowledgement: players at human speed.  ``cpu_pid``:
    the server process whose CPU time the window is charged with."""
    run = Run(seconds=duration)
    members = await seat(url, tables, setup=setup, batch=batch)
    started = time.perf_counter()
    measure_from = started + warmup
    stop_at = measure_from + duration
    waits = random.Random(13)

    async def mover(member: Member) -> None:
        ws, token, x = member.ws, member.token, member.x
        seq = 10
        moved = False
        if pause is not None:  # spread the first moves over the pause
            await asyncio.sleep(waits.uniform(0, pause[1]))
        while True:
            seq += 1
            sent = time.perf_counter()
            if sent >= stop_at:
                return
            path = [[x, 1 + (seq + 1) % 2]]  # y = 1, 2, 1, ... from the start row 0
            ws.send(frame("move", seq, {"token": token, "path": path}))
            reply = await ws.until("ack", seq)
            now = time.perf_counter()
            if reply["type"] != "ack" and not moved and reply["body"]["code"] == "illegal_move":
                # An earlier run on these tables left the token on this row: go on to
                # the other one (the next seq's) rather than count an error.
                continue
            moved = True
            if reply["type"] != "ack":
                run.errors += 1
            elif sent >= measure_from:
                run.acked += 1
                run.latencies_ms.append((now - sent) * 1000)
            if pause is not None:
                await asyncio.sleep(waits.uniform(*pause))

    async def clock() -> None:
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        server = cpu_seconds(cpu_pid) if cpu_pid else 0.0
        driver = driver_cpu()
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        run.server_cpu_s = cpu_seconds(cpu_pid) - server if cpu_pid else 0.0
        run.driver_cpu_s = driver_cpu() - driver

    try:
        # One deadline for the whole run, not one per move (a timer each costs the driver).
        everyone = asyncio.gather(clock(), *(mover(m) for m in members))
        await asyncio.wait_for(everyone, warmup + duration + (pause or (0, 0))[1] + REPLY_TIMEOUT)
    finally:
        for member in members:
            member.ws.close()
    return run


async def hold_idle(url: str, tables: list[dict[str, str]], count: int) -> list[Any]:
    """``count`` joined spectator connections that then do nothing."""
    tokens = [t for table in tables for p, t in table.items() if p.startswith("spectator")]
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    held: list[Any] = [http]
    for token in tokens[:count]:
        ws = await http.ws_connect(url, max_msg_size=0, compress=0)
        await ws.send_bytes(frame("join", 1, {"token": token, "last_event": None}))
        await until(ws, "welcome")
        held.append(ws)
    return held


async def wait_healthy(port: int, proc: subprocess.Popen[bytes]) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(300):
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("server did not come up")


ROOT = Path(__file__).resolve().parent.parent


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """A server process running this same tree."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, *args], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env
        )


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def running(args: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A server process (``start``) for the block, stopped after it; when the block
    fails, the last lines of the server's log are printed first (they say why)."""
    proc = start(args, log)
    try:
        yield proc
    except Exception:
        lines = log.read_text(errors="replace").splitlines()[-20:]
        print("bridge log (last lines):\n" + "\n".join(lines), file=sys.stderr)
        raise
    finally:
        stop(proc)


async def bridge_metrics(port: int) -> dict[str, Any]:
    """The bridge's ``/metrics.json`` counters."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics.json") as response,
    ):
        counters: dict[str, Any] = await response.json()
        return counters


def fsync_ms(folder: Path, count: int = 200) -> list[float]:
    """How long ``count`` fsyncs of a 4 KiB append take in ``folder``, in ms: the floor
    under a commit with ``synchronous=FULL``, measured on the same disk in the same run."""
    times = []
    path = folder / "fsync.probe"
    with path.open("ab") as probe:
        for _ in range(count):
            probe.write(b"\0" * 4096)
            probe.flush()
            began = time.perf_counter()
            os.fsync(probe.fileno())
            times.append((time.perf_counter() - began) * 1000)
    path.unlink()
    return times


def bridge_command(db: Path, port: int, synchronous: str, *extra: str) -> list[str]:
    """The command line of a bridge under load: no rate limit, JSON logs."""
    return [
        "-m", "vtt_bridge", "serve", "--db", str(db), "--port", str(port),
        "--synchronous", synchronous, "--rate-limit", "1e9",
        "--rate-burst", "1000000000", "--log-format", "json", *extra, *SERVE_ARGS,
    ]  # fmt: skip


async def baseline(
    args: list[str], log: Path, tables: list[dict[str, str]], options: argparse.Namespace
) -> Run:
    """Start a baseline server (``--serve-echo`` or ``--serve-fanout``) and drive it."""
    port = free_port()
    with running(["-m", "bench.bridge", *args[:1], str(port), *args[1:]], log) as server:
        await wait_healthy(port, server)
        return await drive_as_asked(port, tables, options, setup=False, cpu_pid=server.pid)


async def drive_as_asked(
    port: int,
    tables: list[dict[str, str]],
    options: argparse.Namespace,
    *,
    setup: bool,
    cpu_pid: int,
) -> Run:
    """:func:`drive` the server on ``port`` with the command line's warm-up, seconds,
    batching and pauses: every server of one ``measure`` is driven the same way."""
    url = f"ws://127.0.0.1:{port}/ws"
    return await drive(
        url,
        tables,
        options.warmup,
        options.seconds,
        setup=setup,
        batch=options.batch,
        cpu_pid=cpu_pid,
        pause=pause_of(options),
    )


def pause_of(options: argparse.Namespace) -> tuple[float, float] | None:
    """``--pause-ms LOW HIGH`` in seconds: each client's wait after an acknowledgement."""
    if options.pause_ms is None:
        return None
    low, high = options.pause_ms
    return low / 1000, high / 1000


def figures(prefix: str, run: Run) -> dict[str, Any]:
    """The CPU figures of one run under ``prefix``: the server's per move and per cent of
    a core, and the driver's per cent of a core."""
    return {
        f"{prefix}cpu_us_per_cmd": round(run.server_us_per_cmd(), 1),
        f"{prefix}cpu_pct": round(100 * run.server_cpu_s / run.seconds, 1),
        f"{prefix}driver_cpu_pct": round(run.driver_cpu_pct(), 1),
    }


async def measure(options: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {
        "tables": TABLES,
        "clients": TABLES * (PLAYERS + 1),
        "synchronous": options.synchronous,
        "seconds": options.seconds,
        "batch": options.batch,
        "pause_ms": options.pause_ms,
    }
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        spectators = -(-options.idle // TABLES) if options.idle else 0
        tables = make_tables(db, spectators)
        seats = Path(tmp) / "tables.json"
        seats.write_text(json.dumps(tables))

        # The baselines, driven the same way: the plain echo, then the fan-out echo.
        echo_run = await baseline(["--serve-echo"], Path(tmp) / "echo.log", tables, options)
        fanout_args = ["--serve-fanout", str(seats)]
        fanout_run = await baseline(fanout_args, Path(tmp) / "fanout.log", tables, options)
        durable_args = [*fanout_args, str(Path(tmp) / "durable.sqlite3"), options.synchronous]
        durable_run = await baseline(durable_args, Path(tmp) / "durable.log", tables, options)

        port = free_port()
        serve = bridge_command(db, port, options.synchronous)
        with running(serve, Path(tmp) / "bridge.log") as bridge:
            await wait_healthy(port, bridge)
            url = f"ws://127.0.0.1:{port}/ws"
            bridge_run = await drive_as_asked(port, tables, options, setup=True, cpu_pid=bridge.pid)
            result["rss_mb"] = round(rss_mb(bridge.pid), 1)
            counters = await bridge_metrics(port)
            result["commit_rows_per_batch"] = round(
                counters["commit_rows"] / max(1, counters["commit_batches"]), 2
            )
            result["commit_ms_p50"] = counters["commit_ms"]["p50"]
            result["commit_ms_p99"] = counters["commit_ms"]["p99"]
            if options.idle:
                before = rss_mb(bridge.pid)
                held = await hold_idle(url, tables, options.idle)
                await asyncio.sleep(1)
                after = rss_mb(bridge.pid)
                result["idle_connections"] = len(held) - 1
                result["idle_added_mb"] = round(after - before, 1)
                for ws in held[1:]:
                    await ws.close()
                await held[0].close()
            if options.soak:
                result |= await soak(url, tables, bridge.pid, options.soak)

    bridge_rate = bridge_run.acked / bridge_run.seconds
    result |= {
        "bridge_cmds_per_s": round(bridge_rate, 1),
        "p50_ack_ms": round(percentile(bridge_run.latencies_ms, 50), 2),
        "p99_ack_ms": round(percentile(bridge_run.latencies_ms, 99), 2),
        "bridge_errors": bridge_run.errors,
        "broadcast_msgs_per_s": round(bridge_rate * (PLAYERS + 1), 1),
        **figures("", bridge_run),
    }
    # Each baseline's rate, the bridge's rate over it, its latency and CPU figures.
    for name, run, ratio in (
        ("echo", echo_run, "ratio"),
        ("fanout", fanout_run, "ratio_fanout"),
        ("durable", durable_run, "ratio_durable"),
    ):
        rate = run.acked / run.seconds
        result |= {
            f"{name}_msgs_per_s": round(rate, 1),
            ratio: round(bridge_rate / rate, 3),
            f"{name}_p50_ms": round(percentile(run.latencies_ms, 50), 2),
            f"{name}_p99_ms": round(percentile(run.latencies_ms, 99), 2),
            **figures(f"{name}_", run),
        }
    result["bridge_cpu_pct"] = result.pop("cpu_pct")
    result["cpu_ratio"] = round(result["cpu_us_per_cmd"] / result["fanout_cpu_us_per_cmd"], 2)
    result["cpu_ratio_durable"] = round(
        result["cpu_us_per_cmd"] / result["durable_cpu_us_per_cmd"], 2
    )
    return result


async def soak(url: str, tables: list[dict[str, str]], pid: int, seconds: float) -> dict[str, Any]:
    """Drive the bridge for ``seconds``; sample its memory after a sixth of it (warm-up)."""
    samples: list[float] = []

    async def sample() -> None:
        await asyncio.sleep(seconds / 6)
        while True:
            samples.append(rss_mb(pid))
            await asyncio.sleep(max(1.0, seconds / 30))

    sampler = asyncio.create_task(sample())
    run = await drive(url, tables, 0.0, seconds, setup=False)
    sampler.cancel()
    growth = (samples[-1] - samples[0]) / samples[0] * 100 if len(samples) > 1 else 0.0
    return {
        "soak_seconds": seconds,
        "soak_cmds_per_s": round(run.acked / seconds, 1),
        "soak_rss_start_mb": round(samples[0], 1) if samples else None,
        "soak_rss_end_mb": round(samples[-1], 1) if samples else None,
        "soak_growth_pct": round(growth, 1),
    }


def print_table(result: dict[str, Any]) -> None:
    rows = [
        ("bridge commands/s", "bridge_cmds_per_s"),
        ("fan-out echo moves/s", "fanout_msgs_per_s"),
        ("ratio to fan-out echo", "ratio_fanout"),
        ("CPU us per command", "cpu_us_per_cmd"),
        ("fan-out echo CPU us", "fanout_cpu_us_per_cmd"),
        ("CPU ratio", "cpu_ratio"),
        ("durable echo moves/s", "durable_msgs_per_s"),
        ("durable echo CPU us", "durable_cpu_us_per_cmd"),
        ("CPU ratio to durable", "cpu_ratio_durable"),
        ("durable p50 / p99 ms", ("durable_p50_ms", "durable_p99_ms")),
        ("echo messages/s", "echo_msgs_per_s"),
        ("ratio to plain echo", "ratio"),
        ("ack p50 ms", "p50_ack_ms"),
        ("ack p99 ms", "p99_ack_ms"),
        ("fan-out p50 / p99 ms", ("fanout_p50_ms", "fanout_p99_ms")),
        ("echo p50 / p99 ms", ("echo_p50_ms", "echo_p99_ms")),
        ("broadcast messages/s", "broadcast_msgs_per_s"),
        ("commands per commit", "commit_rows_per_batch"),
        ("commit p50 / p99 ms", ("commit_ms_p50", "commit_ms_p99")),
        ("server CPU % b/f/e", ("bridge_cpu_pct", "fanout_cpu_pct", "echo_cpu_pct")),
        ("driver CPU % b/f/e", ("driver_cpu_pct", "fanout_driver_cpu_pct", "echo_driver_cpu_pct")),
        ("bridge RSS MB", "rss_mb"),
        ("500 idle: added MB", "idle_added_mb"),
        ("soak growth %", "soak_growth_pct"),
    ]
    print(f"bridge vs bare aiohttp+msgpack: {result['clients']} clients on {result['tables']} "
          f"tables, synchronous={result['synchronous']}, {result['seconds']} s each")  # fmt: skip
    for label, key in rows:
        if isinstance(key, tuple):
            value: Any = " / ".join(str(result.get(k)) for k in key)
        elif key in result:
            value = result[key]
        else:
            continue
        print(f"  {label:24} {value}")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bridge", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--synchronous", default="FULL")
    parser.add_argument(
        "--pause-ms",
        nargs=2,
        type=float,
        default=None,
        metavar=("LOW", "HIGH"),
        help="each client waits LOW to HIGH ms (seeded) after each acknowledgement: a set "
        "load below saturation instead of moving as fast as acknowledged",
    )
    parser.add_argument("--idle", type=int, default=0, help="also hold N idle connections")
    parser.add_argument("--soak", type=float, default=0.0, help="also soak for N seconds")
    parser.add_argument(
        "--no-batch",
        dest="batch",
        action="store_false",
        help="clients join without batch: one message per frame",
    )
    parser.add_argument(
        "--human",
        action="store_true",
        help="only measure how many tables play at human speed with ack p99 < 20 ms",
    )
    parser.add_argument(
        "--human-tables",
        default="10,50,100,200,400,800",
        help="the table counts --human climbs (comma-separated)",
    )
    parser.add_argument("--serve-echo", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--serve-fanout", nargs="+", default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_echo is not None:
        serve_echo(options.serve_echo)
        return 0
    if options.serve_fanout is not None:
        port, seats, *log = options.serve_fanout  # PORT TABLES_JSON [DB SYNCHRONOUS]
        serve_fanout(int(port), Path(seats), Path(log[0]) if log else None, *log[1:])
        return 0
    os.environ.setdefault("PYTHONHASHSEED", "0")
    run, show = (human, print_human) if options.human else (measure, print_table)
    result = asyncio.run(run(options))
    if options.json:
        print(json.dumps(result))
    else:
        show(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
