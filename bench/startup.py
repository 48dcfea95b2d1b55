"""Start-up time against the size of the log: a bounded tail against the full read.

``python -m bench.startup [--json] [--rows 200000] [--tables 4] [--repeat 3]``

Builds a database of ``--rows`` logged commands over ``--tables`` tables through the
bridge's own code: each table is created by the hub, its commands are applied by the
engine (a scene, then five players' clients moving their tokens there and back, each
command with its client id and seq, so every row has an acknowledgement to remember),
and the rows and snapshots (every 500 commands, the server's default, with 250
commands after the last: half an interval, the average a crash leaves) are written
in bulk through ``Store.append_many``.  Moving
there and back brings a table to the same state every ten commands, so one round of
real engine output is repeated with its positions and event indexes shifted: building
200,000 rows takes seconds, and ``--verify-log``'s full replay below checks every row
replays to the events it holds.

Then it times, in the same run, on the same file:

* **start-up**: ``Hub(Store(db))``, what ``vtt-bridge serve`` does before it listens
  (the latest snapshot, the commands after it, the catch-up window);
* **full read**: ``Hub(Store(db), verify_log=True)``, the same plus every row read,
  decoded and replayed from nothing: the shape of the start-up before this change,
  which read and decoded the whole log;
* **first start of an older database**: start-up on a copy without the log's indexes
  (a database written before them), which builds them once;
* **listening**: a real ``vtt-bridge serve`` process, from spawn to ``/healthz``, on
  this database and on an empty one (the floor: starting Python and importing);
* a retransmission of the oldest acknowledgement, read from the log (``find_ack``);
* what the log's two indexes cost a commit: the same 20,000 rows appended in batches of
  25 (a group commit's size) with and without them (``synchronous=OFF``, so the
  figure is the work, not the disk).

Wall times on a shared machine swing with its load; the CPU times beside them do not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from vtt_bridge.hub import Hub
from vtt_bridge.store import LogRow, Snapshot, Store, stored_hash
from vtt_bridge.store_protocol import EventStore
from vtt_bridge.translate import command_to_plain, event_to_plain

PLAYERS = [f"p{i}" for i in range(5)]
SNAPSHOT_EVERY = 500
TAIL = 250
BATCH = 2000


def scene() -> engine.Scene:
    """A 40x40 grid with one token per player, two cells apart."""
    tokens = tuple(
        engine.Combatant(
            f"t-{p}", p, p, "heroes", 2 * i, 0, movement=6.0,
            stats=(("dcv", 3), ("init", 8), ("ocv", 3)),
        )
        for i, p in enumerate(PLAYERS)
    )  # fmt: skip
    return engine.Scene(engine.GridSpec(40, 40), tokens)


def _round(encounter: engine.Encounter) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """One round: every player moves its token one cell and back (ten commands), as
    the engine applies them; the encounter ends where it began."""
    done = []
    for step in (1, 0):
        for i, player in enumerate(PLAYERS):
            command = engine.Move(player, f"t-{player}", ((2 * i, step),))
            events = [event_to_plain(e) for e in encounter.apply(command)]
            done.append((command_to_plain(command), events))
    return done


def build_table(store: EventStore, table_id: str, rows: int, t0: int = 1_767_225_600_000) -> None:
    """Write ``rows`` logged commands (a scene, then rounds of moves) and snapshots for
    ``table_id`` through ``store``.  ``rows`` - 1 must be a multiple of 10."""
    encounter = engine.Encounter()
    load = engine.LoadScene(engine.GM, scene())
    first = [event_to_plain(e) for e in encounter.apply(load)]
    start_state = encounter.state
    one_round = _round(encounter)
    assert engine.state_hash(encounter.state) == engine.state_hash(start_state)
    plain_state = engine.to_plain(start_state)
    digest = stored_hash(plain_state)
    pending: list[tuple[str, LogRow]] = [
        (table_id, LogRow(0, 0, command_to_plain(load), first, {"deadlines": {}, "t": t0}))
    ]
    snapshots: list[tuple[str, Snapshot]] = []
    refs = dict.fromkeys(PLAYERS, 0)
    last_snapshot = rows - TAIL
    event = len(first)
    for position in range(1, rows):
        command, events = one_round[(position - 1) % len(one_round)]
        player = command["actor"]
        refs[player] += 1
        meta = {
            "deadlines": {},
            "t": t0 + position,
            "client": f"{player}/vtt",
            "ref": refs[player],
            "participant": player,
        }
        pending.append((table_id, LogRow(position, event, command, events, meta)))
        event += len(events)
        after = position + 1
        if (after - 1) % SNAPSHOT_EVERY == 0 and 1 < after <= last_snapshot:
            snapshots.append((table_id, Snapshot(after, event, plain_state, digest, {})))
        if len(pending) >= BATCH:
            store.append_many(pending, snapshots[-1:])
            pending, snapshots = [], []
    if pending or snapshots:
        store.append_many(pending, snapshots[-1:])


def build(path: Path, rows: int, tables: int) -> list[str]:
    """A database at ``path`` with ``rows`` commands over ``tables`` tables."""
    hub = Hub(Store(path))
    # A scene, whole intervals of snapshots, then a tail of TAIL commands after the last.
    per_table = 1 + (rows // tables - 1 - TAIL) // SNAPSHOT_EVERY * SNAPSHOT_EVERY + TAIL
    ids = []
    for n in range(tables):
        table = hub.create_table(f"table-{n}", PLAYERS, seed=n)
        build_table(hub.store, table.id, per_table)
        ids.append(table.id)
    hub.close()
    return ids


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """The median wall and CPU (this process's) times of ``fn()`` in seconds; what it
    returns is closed after the clock stops (closing a store checkpoints its WAL,
    which is not start-up's work)."""
    wall, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        made = fn()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        if hasattr(made, "close"):
            made.close()
    return statistics.median(wall), statistics.median(cpu)


def append_cost(tmp: Path, rows: int = 20_000) -> tuple[float, float]:
    """Microseconds per row appended in batches of 25, with the log's indexes and
    without them."""
    source = Store(tmp / "rows.sqlite3")
    table = Hub(source).create_table("rows", PLAYERS, seed=1)
    build_table(source, table.id, 1 + (rows - 1) // 10 * 10)
    logged = source.log(table.id)
    source.close()
    cost = []
    for indexed in (True, False):
        path = tmp / f"append-{indexed}.sqlite3"
        store = Store(path, synchronous="OFF")
        target = Hub(store).create_table("rows", PLAYERS, seed=1).id
        if not indexed:
            store._db.executescript("DROP INDEX log_by_client; DROP INDEX log_by_event;")
        rows_of = [(target, row) for row in logged]
        started = time.process_time()
        for i in range(0, len(rows_of), 25):
            store.append_many(rows_of[i : i + 25])
        cost.append((time.process_time() - started) / len(logged) * 1e6)
        store.close()
    return cost[0], cost[1]


def _load(path: Path, verify: bool = False) -> Hub:
    return Hub(Store(path), verify_log=verify)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def time_to_listen(path: Path) -> float:
    """Seconds from spawning ``vtt-bridge serve`` on ``path`` to its first ``/healthz``."""
    port = _free_port()
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "vtt_bridge", "serve", "--db", str(path), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    return time.perf_counter() - started
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError("the server exited before it listened") from None
                time.sleep(0.02)
    finally:
        server.terminate()
        server.wait(10)


def run(rows: int, tables: int, repeat: int) -> dict[str, Any]:
    """Build the database and take every figure (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "startup.sqlite3"
        started = time.perf_counter()
        ids = build(path, rows, tables)
        build_s = time.perf_counter() - started
        db = sqlite3.connect(path)
        logged = db.execute("SELECT count(*) FROM log").fetchone()[0]
        db.close()
        startup, startup_cpu = _timed(lambda: _load(path), repeat)
        hub = Hub(Store(path))
        read = sum(r.rows_read for r in hub.load_reports.values())
        hub.close()
        full, full_cpu = _timed(lambda: _load(path, verify=True), 1)
        older = Path(tmp) / "older.sqlite3"
        shutil.copy(path, older)
        db = sqlite3.connect(older)
        db.executescript("DROP INDEX log_by_client; DROP INDEX log_by_event;")
        db.close()
        first_start, _ = _timed(lambda: _load(older), 1)
        listen = time_to_listen(path)
        listen_empty = time_to_listen(Path(tmp) / "empty.sqlite3")
        store = Store(path)
        lookup, _ = _timed(lambda: store.find_ack(ids[0], "p0/vtt", 1), 201)
        store.close()
        indexed_us, bare_us = append_cost(Path(tmp))
        size_mb = path.stat().st_size / 1e6
    return {
        "rows": logged,
        "tables": tables,
        "database_mb": round(size_mb, 1),
        "build_s": round(build_s, 2),
        "startup_s": round(startup, 3),
        "startup_cpu_s": round(startup_cpu, 3),
        "rows_read_at_startup": read,
        "full_read_s": round(full, 3),
        "full_read_cpu_s": round(full_cpu, 3),
        "ratio": round(startup / full, 4),
        "ratio_cpu": round(startup_cpu / full_cpu, 4),
        "first_start_older_db_s": round(first_start, 3),
        "time_to_listen_s": round(listen, 3),
        "time_to_listen_empty_db_s": round(listen_empty, 3),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "find_ack_us": round(lookup * 1e6, 1),
        "append_us_per_row_indexed": round(indexed_us, 1),
        "append_us_per_row_without_indexes": round(bare_us, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: print the figures (or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.rows, args.tables, args.repeat)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"log: {figures['rows']:,} rows over {figures['tables']} tables, "
          f"{figures['database_mb']} MB (built in {figures['build_s']} s)")  # fmt: skip
    print(f"start-up (snapshot and tail):      {figures['startup_s']:.3f} s "
          f"(CPU {figures['startup_cpu_s']:.3f} s), "
          f"{figures['rows_read_at_startup']:,} rows read")  # fmt: skip
    print(f"full read (--verify-log):          {figures['full_read_s']:.3f} s "
          f"(CPU {figures['full_read_cpu_s']:.3f} s)")  # fmt: skip
    print(f"ratio start-up / full read:        {figures['ratio']:.4f} "
          f"(CPU {figures['ratio_cpu']:.4f})")  # fmt: skip
    print(f"first start of an older database (builds the indexes once): "
          f"{figures['first_start_older_db_s']:.3f} s")  # fmt: skip
    print(f"vtt-bridge serve, spawn to /healthz: {figures['time_to_listen_s']:.3f} s "
          f"(empty database: {figures['time_to_listen_empty_db_s']:.3f} s; machine load "
          f"{figures['load_average_1min']})")  # fmt: skip
    print(f"retransmitted oldest ack read from the log: {figures['find_ack_us']} us")
    print(f"append, CPU per row in batches of 25: {figures['append_us_per_row_indexed']} us "
          f"with the log's indexes, {figures['append_us_per_row_without_indexes']} us "
          "without")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
