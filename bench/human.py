"""How many tables one bridge process serves at human speed: ``python -m bench.bridge --human``.

Each table is ``bench.bridge``'s (a GM and four players, every move broadcast to the
five), but every player waits 2 to 4 s (seeded, 3 s on average) after each
acknowledgement before moving again, as people at a table do.  The bridge
(``synchronous=FULL``) serves 50 tables, then 100, 200, ... (``--human-tables``), each
step on fresh connections for ``--seconds`` after a warm-up that spreads the first
moves; the figure is the most tables whose acknowledgement p99 stayed under
:data:`TARGET_P99_MS`, as did every smaller step's.  The ladder goes on past a step
over the target and stops at one over :data:`GIVE_UP_P99_MS`.

At this pace the bridge's CPU is mostly idle and an acknowledgement waits on its
commit's fsync, so the run also reports the disk's own fsync latency (probed in the
same folder before the ladder) and each step's commit p99 from ``/metrics.json``: when the
p99 target is missed at few tables, those say it is the disk, not the process.
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
from pathlib import Path
from typing import Any

from bench import serving
from bench._stats import percentile
from bench.pgserver import PostgresServer

#: The acknowledgement p99 a table at human speed must keep, in ms.
TARGET_P99_MS = 20.0
#: The ladder goes on past a step over the target (the disk's fsync tail may be the
#: cause, not the load) and stops at a step over this.
GIVE_UP_P99_MS = 100.0
#: Seconds a player waits after each acknowledgement (uniform in this range).
PAUSE = (2.0, 4.0)


async def human(options: argparse.Namespace) -> dict[str, Any]:
    """Climb the ladder of table counts; the JSON figures."""
    ladder = [int(n) for n in options.human_tables.split(",")]
    steps: list[dict[str, Any]] = []
    served, missed = 0, False
    # ``--postgresql``: the log on a throwaway PostgreSQL on this machine (its commits
    # fsync on the same disk), one bridge process serving every table.
    postgres = PostgresServer() if getattr(options, "postgresql", False) else None
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as cleanup:
        if postgres is not None:
            cleanup.callback(postgres.stop)
        db: Path | str = postgres.new_database() if postgres else Path(tmp) / "human.sqlite3"
        probe = serving.fsync_ms(Path(tmp))
        tables = serving.make_tables(db, 0, max(ladder))
        port = serving.free_port()
        connections = str(5 * max(ladder) + 100)
        serve = serving.bridge_command(
            db, port, options.synchronous, "--max-connections", connections
        )
        with serving.running(serve, Path(tmp) / "bridge.log") as server:
            await serving.wait_healthy(port, server)
            url = f"ws://127.0.0.1:{port}/ws"
            for count in ladder:
                run = await serving.drive(
                    url,
                    tables[:count],
                    PAUSE[1],
                    options.seconds,
                    setup=True,
                    cpu_pid=server.pid,
                    pause=PAUSE,
                )
                p99 = percentile(run.latencies_ms, 99)
                commits = (await serving.bridge_metrics(port))["commit_ms"]
                steps.append(
                    {
                        "tables": count,
                        "cmds_per_s": round(run.acked / run.seconds, 1),
                        "p50_ack_ms": round(percentile(run.latencies_ms, 50), 2),
                        "p99_ack_ms": round(p99, 2),
                        "commit_p99_ms": commits["p99"],
                        "cpu_pct": round(100 * run.server_cpu_s / run.seconds, 1),
                        "driver_cpu_pct": round(run.driver_cpu_pct(), 1),
                        "errors": run.errors,
                    }
                )
                if run.errors or p99 >= GIVE_UP_P99_MS:
                    break
                if p99 >= TARGET_P99_MS:
                    missed = True
                elif not missed:
                    served = count
    return {
        "database": "postgresql" if postgres else "sqlite",
        "fsync_p50_ms": round(percentile(probe, 50), 2),
        "fsync_p99_ms": round(percentile(probe, 99), 2),
        "human_pause_s": list(PAUSE),
        "human_seconds": options.seconds,
        "human_target_p99_ms": TARGET_P99_MS,
        "human_tables": served,
        "human_steps": steps,
    }


def print_human(result: dict[str, Any]) -> None:
    """The ladder as a table."""
    print(
        f"human speed on {result['database']} "
        f"(a move every {PAUSE[0]:g}-{PAUSE[1]:g} s per player): "
        f"{result['human_tables']} tables with ack p99 < {TARGET_P99_MS:g} ms"
    )
    print(f"  the disk: fsync p50 {result['fsync_p50_ms']} ms, p99 {result['fsync_p99_ms']} ms")
    print("  tables  cmds/s  p50 ms  p99 ms  commit p99  bridge CPU %  driver CPU %")
    for step in result["human_steps"]:
        print(
            f"  {step['tables']:6}  {step['cmds_per_s']:6}  {step['p50_ack_ms']:6}  "
            f"{step['p99_ack_ms']:6}  {step['commit_p99_ms']:10}  {step['cpu_pct']:12}  "
            f"{step['driver_cpu_pct']:12}"
        )
