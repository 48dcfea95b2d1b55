"""Measure the bridge against the stack it stands on.

``python -m bench.bridge`` starts the bridge as its own process (``vtt-bridge serve``,
``synchronous=FULL`` unless ``--synchronous`` says otherwise) on a fresh database with
10 tables, and drives it over loopback with 50 WebSocket clients (per table one GM and
four players), msgpack frames: every client moves its own token one square, waits for
the acknowledgement, and moves again, as fast as it is acknowledged; every move is
broadcast to the five members of its table.  The clients join with ``batch`` (several
messages a frame, as a VTT module would ask); ``--no-batch`` measures one message a
frame.  In the same run it starts a bare aiohttp WebSocket server that only decodes
msgpack and answers, and drives it the same way.  ``BENCH_SERVE_ARGS`` adds flags to
the bridge's command line for experiments (``BENCH_SERVE_ARGS="--snapshot-every 0"``).

It prints a table; ``--json`` prints one JSON object with ``bridge_cmds_per_s``,
``echo_msgs_per_s``, ``ratio``, ``p50_ack_ms``, ``p99_ack_ms``, ``rss_mb`` (the
bridge's resident memory after the run) and more.  ``--idle 500`` also measures the
memory 500 joined idle connections add; ``--soak 60`` also drives the bridge for 60 s
and reports its memory growth after warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
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


# -- the echo server: decode msgpack, answer ---------------------------------------------


def serve_echo(port: int) -> None:
    """A bare aiohttp WebSocket server: decode each msgpack frame, answer with an ack."""
    from aiohttp import web

    async def ws_handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=64 * 1024)
        await ws.prepare(request)
        out = 0
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                frame = msgpack.unpackb(message.data)
                out += 1
                body = {"ref": frame["seq"], "first_event": None, "last_event": None}
                kind = "welcome" if frame["type"] == "join" else "ack"
                reply = {"v": 1, "type": kind, "seq": out, "body": body}
                await ws.send_bytes(msgpack.packb(reply))
        return ws

    async def health(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_get("/ws", ws_handler)
    app.router.add_get("/healthz", health)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


# -- setting up the bridge's tables ------------------------------------------------------


def make_tables(db: Path, spectators: int) -> list[dict[str, str]]:
    """Create the tables in ``db``; per table the join tokens by participant."""
    from vtt_bridge.hub import Hub
    from vtt_bridge.store import Store

    hub = Hub(Store(db))
    try:
        tables = []
        for t in range(TABLES):
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
    """What one driven run measured."""

    acked: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0


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


async def drive(
    url: str,
    tables: list[dict[str, str]],
    warmup: float,
    duration: float,
    *,
    setup: bool,
    batch: bool = True,
) -> Run:
    """50 clients, each moving its token as fast as it is acknowledged."""
    run = Run()
    async with aiohttp.ClientSession() as http:
        members: list[tuple[aiohttp.ClientWebSocketResponse, str, int]] = []
        for tokens in tables:
            gm = await http.ws_connect(url, max_msg_size=0, compress=0)
            join = {"token": tokens["gm"], "last_event": None, "batch": batch}
            await gm.send_bytes(frame("join", 1, join))
            await until(gm, "welcome")
            if setup:
                await gm.send_bytes(frame("load_scene", 2, {"scene": scene()}))
                await until(gm, "ack", 2)
            members.append((gm, "t-gm", 2 * PLAYERS))
            for i in range(PLAYERS):
                ws = await http.ws_connect(url, max_msg_size=0, compress=0)
                body = {"token": tokens[f"p{i}"], "last_event": None, "batch": batch}
                await ws.send_bytes(frame("join", 1, body))
                await until(ws, "welcome")
                members.append((ws, f"t-p{i}", 2 * i))
        started = time.perf_counter()
        measure_from = started + warmup
        stop_at = measure_from + duration

        async def mover(ws: aiohttp.ClientWebSocketResponse, token: str, x: int) -> None:
            seq = 10
            while True:
                seq += 1
                path = [[x, 1 + (seq + 1) % 2]]  # y = 1, 2, 1, ... from the start row 0
                sent = time.perf_counter()
                if sent >= stop_at:
                    return
                await ws.send_bytes(frame("move", seq, {"token": token, "path": path}))
                reply = await until(ws, "ack", seq)
                now = time.perf_counter()
                if reply["type"] != "ack":
                    run.errors += 1
                elif sent >= measure_from:
                    run.acked += 1
                    run.latencies_ms.append((now - sent) * 1000)

        await asyncio.gather(*(mover(ws, token, x) for ws, token, x in members))
        run.seconds = duration
        for ws, _, _ in members:
            await ws.close()
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


async def measure(options: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {
        "tables": TABLES,
        "clients": TABLES * (PLAYERS + 1),
        "synchronous": options.synchronous,
        "seconds": options.seconds,
        "batch": options.batch,
    }
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        spectators = -(-options.idle // TABLES) if options.idle else 0
        tables = make_tables(db, spectators)

        # The echo server, driven the same way.
        port = free_port()
        echo = start(["-m", "bench.bridge", "--serve-echo", str(port)], Path(tmp) / "echo.log")
        try:
            await wait_healthy(port, echo)
            url = f"ws://127.0.0.1:{port}/ws"
            cpu_before, wall_before = cpu_seconds(echo.pid), time.perf_counter()
            echo_run = await drive(url, tables, options.warmup, options.seconds, setup=False)
            cpu = cpu_seconds(echo.pid) - cpu_before
            result["echo_cpu_pct"] = round(100 * cpu / (time.perf_counter() - wall_before), 1)
        finally:
            stop(echo)

        port = free_port()
        serve = [
            "-m", "vtt_bridge", "serve", "--db", str(db), "--port", str(port),
            "--synchronous", options.synchronous, "--rate-limit", "1e9",
            "--rate-burst", "1000000000", "--log-format", "json", *SERVE_ARGS,
        ]  # fmt: skip
        with running(serve, Path(tmp) / "bridge.log") as bridge:
            await wait_healthy(port, bridge)
            url = f"ws://127.0.0.1:{port}/ws"
            cpu_before, wall_before = cpu_seconds(bridge.pid), time.perf_counter()
            bridge_run = await drive(
                url, tables, options.warmup, options.seconds, setup=True, batch=options.batch
            )
            cpu = cpu_seconds(bridge.pid) - cpu_before
            result["bridge_cpu_pct"] = round(100 * cpu / (time.perf_counter() - wall_before), 1)
            result["rss_mb"] = round(rss_mb(bridge.pid), 1)
            async with (
                aiohttp.ClientSession() as http,
                http.get(f"http://127.0.0.1:{port}/metrics") as response,
            ):
                counters = await response.json()
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

    echo_rate = echo_run.acked / echo_run.seconds
    bridge_rate = bridge_run.acked / bridge_run.seconds
    result |= {
        "bridge_cmds_per_s": round(bridge_rate, 1),
        "echo_msgs_per_s": round(echo_rate, 1),
        "ratio": round(bridge_rate / echo_rate, 3),
        "p50_ack_ms": round(percentile(bridge_run.latencies_ms, 50), 2),
        "p99_ack_ms": round(percentile(bridge_run.latencies_ms, 99), 2),
        "echo_p50_ms": round(percentile(echo_run.latencies_ms, 50), 2),
        "echo_p99_ms": round(percentile(echo_run.latencies_ms, 99), 2),
        "bridge_errors": bridge_run.errors,
        "broadcast_msgs_per_s": round(bridge_rate * (PLAYERS + 1), 1),
    }
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
        ("echo messages/s", "echo_msgs_per_s"),
        ("ratio", "ratio"),
        ("ack p50 ms", "p50_ack_ms"),
        ("ack p99 ms", "p99_ack_ms"),
        ("echo p50 / p99 ms", None),
        ("broadcast messages/s", "broadcast_msgs_per_s"),
        ("commands per commit", "commit_rows_per_batch"),
        ("commit p50 / p99 ms", None),
        ("bridge / echo CPU %", None),
        ("bridge RSS MB", "rss_mb"),
        ("500 idle: added MB", "idle_added_mb"),
        ("soak growth %", "soak_growth_pct"),
    ]
    print(f"bridge vs bare aiohttp+msgpack: {result['clients']} clients on {result['tables']} "
          f"tables, synchronous={result['synchronous']}, {result['seconds']} s each")  # fmt: skip
    for label, key in rows:
        if key is None and label.startswith("echo"):
            value: Any = f"{result['echo_p50_ms']} / {result['echo_p99_ms']}"
        elif key is None and label.startswith("commit"):
            value = f"{result.get('commit_ms_p50')} / {result.get('commit_ms_p99')}"
        elif key is None:
            value = f"{result.get('bridge_cpu_pct')} / {result.get('echo_cpu_pct')}"
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
    parser.add_argument("--idle", type=int, default=0, help="also hold N idle connections")
    parser.add_argument("--soak", type=float, default=0.0, help="also soak for N seconds")
    parser.add_argument(
        "--no-batch",
        dest="batch",
        action="store_false",
        help="clients join without batch: one message per frame",
    )
    parser.add_argument("--serve-echo", type=int, default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_echo is not None:
        serve_echo(options.serve_echo)
        return 0
    os.environ.setdefault("PYTHONHASHSEED", "0")
    result = asyncio.run(measure(options))
    if options.json:
        print(json.dumps(result))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
