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
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

from bench._stats import percentile
from bench.baselines import serve_echo, serve_fanout
from bench.human import human, print_human
from bench.serving import (
    PLAYERS,
    TABLES,
    Run,
    bridge_command,
    bridge_metrics,
    drive,
    frame,
    free_port,
    make_tables,
    rss_mb,
    running,
    until,
    wait_healthy,
)


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
    parser.add_argument(
        "--postgresql",
        action="store_true",
        help="with --human: the log on a throwaway PostgreSQL (bench.pgserver), not SQLite",
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
