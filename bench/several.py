"""Several bridges on one PostgreSQL against one bridge on SQLite, in the same run.

``python -m bench.several`` starts a throwaway PostgreSQL (:mod:`bench.pgserver`) and
measures, on this machine:

* **load**: one bridge process serving ``--tables`` tables (a GM and four players each,
  moving as fast as they are acknowledged, :func:`bench.serving.drive`), once on a
  SQLite file and once on PostgreSQL: acknowledgements a second and their p50/p99;
* **failover**: two processes on PostgreSQL with a ``--lease``; the owner of a table is
  killed (SIGKILL) and a client joins through the other until it is welcomed: the time
  from the kill to the welcome, ``--rounds`` times (p50/p95; expected: the lease, plus
  up to a third of it, the heartbeat, plus the join);
* **handover**: the same with SIGTERM: the time from the signal to the welcome (the
  owner gives its tables up as it stops, so no lease is waited for).

Prints one JSON object.  The figures depend on the disk's fsync (both databases flush
every commit) and on what else the machine runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from bench._stats import percentile
from bench.pgserver import PostgresServer
from bench.serving import bridge_command, drive, free_port, make_tables, running, wait_healthy


async def load(
    db: Path | str,
    folder: Path,
    tables: int,
    seconds: float,
    *extra: str,
    db_cpu: Callable[[], float] | None = None,
) -> dict[str, float]:
    """One bridge on ``db`` (``extra``: more flags for it) under the load of
    :func:`bench.serving.drive`.  ``db_cpu`` (PostgreSQL's processes' CPU seconds so far)
    adds the database server's CPU per command and the sum of both, to compare with
    SQLite's, whose work is all inside the bridge's process."""
    made = make_tables(db, 0, tables)
    port = free_port()
    log = folder / f"load-{port}.log"
    with running(bridge_command(db, port, "FULL", *extra), log) as proc:
        await wait_healthy(port, proc)
        run = await drive(
            f"ws://127.0.0.1:{port}/ws",
            made,
            2.0,
            seconds,
            setup=True,
            cpu_pid=proc.pid,
            db_cpu=db_cpu,
        )
    figures = {
        "acks_per_s": run.acked / run.seconds,
        "ack_p50_ms": percentile(run.latencies_ms, 50),
        "ack_p99_ms": percentile(run.latencies_ms, 99),
        "errors": run.errors,
        "server_us_per_cmd": run.server_us_per_cmd(),
    }
    if db_cpu is not None:
        figures["database_us_per_cmd"] = run.db_us_per_cmd()
        figures["server_and_database_us_per_cmd"] = run.server_us_per_cmd() + run.db_us_per_cmd()
    return figures


def _serve(db: str, port: int, lease: float, log: Path) -> subprocess.Popen[bytes]:
    from bench.serving import start

    url = f"ws://127.0.0.1:{port}/ws"
    return start(bridge_command(db, port, "FULL", "--public-url", url, "--lease", str(lease)), log)


async def _joined(http: aiohttp.ClientSession, port: int, token: str) -> str:
    """Join through ``port``: ``welcome`` or ``redirect`` (or ``error``)."""
    async with http.ws_connect(f"ws://127.0.0.1:{port}/ws") as ws:
        await ws.send_json(
            {"v": 1, "type": "join", "seq": 1, "body": {"token": token, "last_event": None}}
        )
        while True:
            message = await ws.receive_json(timeout=10)
            if message["type"] in ("welcome", "redirect", "error"):
                return str(message["type"])


async def moves(
    db: str, folder: Path, lease: float, rounds: int, how: signal.Signals
) -> list[float]:
    """Seconds from ``how`` sent to the table's owner until a join through the other
    process is welcomed, per round."""
    times = []
    async with aiohttp.ClientSession() as http:
        for n in range(rounds):
            (tokens,) = make_tables(db, 0, 1)
            ports = [free_port(), free_port()]
            procs = [
                _serve(db, p, lease, folder / f"{how.name}-{n}-{i}.log")
                for i, p in enumerate(ports)
            ]
            try:
                for proc, port in zip(procs, ports, strict=True):
                    await wait_healthy(port, proc)
                assert await _joined(http, ports[0], tokens["gm"]) == "welcome"  # [0] owns it
                began = time.perf_counter()
                procs[0].send_signal(how)
                while await _joined(http, ports[1], tokens["gm"]) != "welcome":
                    await asyncio.sleep(0.05)
                times.append(time.perf_counter() - began)
            finally:
                for proc in procs:
                    proc.kill()
                    proc.wait()
    return times


def _summary(times: list[float]) -> dict[str, float]:
    return {"p50_s": percentile(times, 50), "p95_s": percentile(times, 95), "max_s": max(times)}


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run every part; the figures as one dict."""
    parser = argparse.ArgumentParser(prog="python -m bench.several", description=__doc__)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument(
        "--rounds", type=int, default=5, help="failover and handover rounds (0: load only)"
    )
    parser.add_argument(
        "--db-connections",
        type=int,
        default=None,
        help="the PostgreSQL bridge's --db-connections (default: the bridge's)",
    )
    args = parser.parse_args(argv)
    pg_flags = [] if args.db_connections is None else ["--db-connections", str(args.db_connections)]
    server = PostgresServer()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-several-") as tmp:
            folder = Path(tmp)
            sqlite = await load(folder / "bench.sqlite3", folder, args.tables, args.seconds)
            pg = await load(
                server.new_database(),
                folder,
                args.tables,
                args.seconds,
                *pg_flags,
                db_cpu=server.cpu_seconds,
            )
            killed = stopped = []
            if args.rounds > 0:
                killed = await moves(
                    server.new_database(), folder, args.lease, args.rounds, signal.SIGKILL
                )
                stopped = await moves(
                    server.new_database(), folder, args.lease, args.rounds, signal.SIGTERM
                )
    finally:
        server.stop()
    figures: dict[str, Any] = {
        "tables": args.tables,
        "db_connections": args.db_connections,
        "sqlite": sqlite,
        "postgresql": pg,
        "throughput_ratio": pg["acks_per_s"] / sqlite["acks_per_s"],
        "p99_over_sqlite_ms": pg["ack_p99_ms"] - sqlite["ack_p99_ms"],
        "cpu_per_cmd_ratio": pg["server_and_database_us_per_cmd"] / sqlite["server_us_per_cmd"],
    }
    if killed:
        figures["lease_s"] = args.lease
        figures["failover_after_sigkill"] = _summary(killed)
        figures["handover_after_sigterm"] = _summary(stopped)
    return figures


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=1))
