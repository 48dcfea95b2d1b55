"""What one group commit costs on PostgreSQL, by the group's size.

``python -m bench.pg_group`` starts a throwaway PostgreSQL (:mod:`bench.pgserver`), makes
50 tables owned by one store (as a serving process's), and commits groups of 1, 5 and 50
move-sized rows in a loop through :meth:`PostgresStore.append_many`.  It prints, per
size, the calling thread's CPU (the bridge's database thread), the server processes'
CPU and the wall time, per group and per row.  ``docs/several-bridges.md`` has what they
were before and after the one-statement group commit.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bench.pgserver import PostgresServer
from vtt_bridge.store import LogRow, TableRow
from vtt_bridge.store_pg import PostgresStore

TABLES = 50


def _row(position: int) -> LogRow:
    """A log row of a ``move``'s size."""
    command = {"type": "move", "token": "t-p1", "path": [[3, 4], [4, 4], [5, 5]]}
    events: list[dict[str, Any]] = [
        {"kind": "move_started", "token": "t-p1", "from": [2, 4], "cost": 2.0},
        {"kind": "token_moved", "token": "t-p1", "x": 5, "y": 5, "remaining": 3.5},
    ]
    meta = {"client": "p1/vtt", "ref": position + 1, "participant": "p1", "digest": "d" * 16}
    return LogRow(position, 2 * position, command, events, meta)


def main(argv: list[str] | None = None) -> list[dict[str, float]]:
    """Commit the groups; the figures, a dict per size."""
    parser = argparse.ArgumentParser(prog="python -m bench.pg_group", description=__doc__)
    parser.add_argument("--rows", type=int, default=4000, help="rows committed per size")
    args = parser.parse_args(argv)
    server = PostgresServer()
    figures = []
    try:
        store = PostgresStore(server.new_database(), bridge="bench", public_url="ws://bench")
        for t in range(TABLES):
            store.create_table(TableRow(f"t{t}", f"t{t}", 1, 30.0, 0), [])
        positions = [0] * TABLES
        for size in (1, 5, 50):
            groups = max(200, args.rows // size)
            cpu, wall, db = time.thread_time(), time.perf_counter(), server.cpu_seconds()
            for g in range(groups):
                rows = []
                for i in range(size):
                    t = (g * size + i) % TABLES
                    rows.append((f"t{t}", _row(positions[t])))
                    positions[t] += 1
                store.append_many(rows)
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
            db = server.cpu_seconds() - db
            figures.append(
                {
                    "rows": size,
                    "bridge_us_per_group": round(1e6 * cpu / groups, 1),
                    "database_us_per_group": round(1e6 * db / groups, 1),
                    "bridge_us_per_row": round(1e6 * cpu / groups / size, 1),
                    "database_us_per_row": round(1e6 * db / groups / size, 1),
                    "wall_ms_per_group": round(1e3 * wall / groups, 3),
                }
            )
        store.close()
    finally:
        server.stop()
    return figures


if __name__ == "__main__":
    for line in main():
        print(json.dumps(line))
