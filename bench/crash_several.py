"""Kill the owner of tables among several bridges on PostgreSQL, again and again, four
ways, and check that nothing acknowledged was lost or applied twice.

``python -m bench.crash --several`` (the release run: 200 kills) and
``tests/bridge/test_pg_crash_several.py`` (CI: each way once) run this code.

Three ``vtt-bridge serve`` processes share a throwaway PostgreSQL
(:mod:`bench.pgserver`) with a 1 s lease.  Each table has five members, a GM and four
players (:mod:`bench.failover_client`), who move their tokens as fast as they are
acknowledged through whichever process serves the table, following redirects; table
``k``'s members try the processes from the ``k``-th on, so the tables are spread over
the processes.  Each round picks a table, waits a random moment, and takes down the
process serving it (and with it every table it serves) one of these ways:

* ``sigkill``: killed, then started again;
* ``sigstop``: paused past its lease until its members, giving up on it, have joined
  through another process, which claimed the tables; then let go on (``SIGCONT``):
  its next commit is refused by the fence, and it sends its members on;
* ``sigterm``: stopped gracefully (it hands its tables over), then started again;
* a named point (:data:`bench.crash_points.NAMED_POINTS`): stopped gracefully and
  started again with ``--crash-at POINT:N``, the members sent to it alone until it
  has claimed its tables back and killed itself there; then started again as usual.

After each round every member of the tables it took down must have two more commands
acknowledged, under a newer epoch of the table (the fight goes on, on the new owner).
At the end every table's log is checked: its positions run 0, 1, 2, ... (none written
twice) and their epochs never go back (no position written by an owner after it lost
the table); every acknowledged command is in it exactly once, at the events its ack
named; nothing a member sent again after reconnecting was applied twice.  Prints one
JSON object; ``lost``, ``doubled``, ``misplaced``, ``logs_with_gaps`` and
``epochs_back`` must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import json
import random
import signal
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

from bench.crash_points import NAMED_POINTS
from bench.failover_client import Member, ask, join, play
from bench.pgserver import PostgresServer
from bench.serving import (
    PLAYERS,
    bridge_command,
    free_port,
    make_tables,
    scene,
    start,
    wait_healthy,
)

LEASE = 1.0
PROCESSES = 3
#: Snapshots often, so that ``mid_snapshot`` is reached within a round.
SNAPSHOT_EVERY = 20
WAYS = ("sigkill", "sigstop", "sigterm", *NAMED_POINTS)
#: How long a round may take for its tables to go on before it counts as a failure.
PROGRESS_S = 30.0


@dataclass
class Cluster:
    """The bridge processes on one database, and the entry addresses members join at."""

    db: str
    folder: Path
    ports: list[int]
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    #: While set, members join at this process alone (a named point's round).
    pinned: int | None = None
    launches: int = 0
    #: A process being started again after its round's take-down, if any.
    restarting: asyncio.Task[subprocess.Popen[bytes]] | None = None

    @property
    def urls(self) -> list[str]:
        """Every process's public URL, by slot."""
        return [f"ws://127.0.0.1:{p}/ws" for p in self.ports]

    def entries(self, table: int) -> list[str]:
        """The addresses table ``table``'s members try, in order (a load balancer's)."""
        urls = self.urls
        if self.pinned is not None:
            return [urls[self.pinned]]
        k = table % len(urls)
        return urls[k:] + urls[:k]

    async def start(self, slot: int, *extra: str) -> subprocess.Popen[bytes]:
        """Start the process of ``slot`` (again) and wait until it is healthy."""
        flags = ["--public-url", self.urls[slot], "--lease", str(LEASE)]
        flags += ["--snapshot-every", str(SNAPSHOT_EVERY), *extra]
        self.launches += 1
        log = self.folder / f"{slot}-{self.launches}.log"
        proc = start(bridge_command(self.db, self.ports[slot], "FULL", *flags), log)
        if slot < len(self.procs):
            self.procs[slot] = proc
        else:
            self.procs.append(proc)
        await wait_healthy(self.ports[slot], proc)
        return proc

    def owners(self) -> dict[str, tuple[str | None, int]]:
        """Each claimed table's owner URL (None: given up) and epoch, read now."""
        with psycopg.connect(self.db) as pg:
            rows = pg.execute(
                "SELECT o.table_id, b.url, o.epoch FROM owners o"
                " LEFT JOIN bridges b ON b.id = o.owner"
            ).fetchall()
        return {str(t): (u, int(e)) for t, u, e in rows}

    def stop_all(self) -> None:
        """Kill every process (the run is over)."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.kill()
            proc.wait()


async def _take_down(
    cluster: Cluster, slot: int, way: str, rng: random.Random, taken_over: Callable[[], bool]
) -> str:
    """Take the process of ``slot`` down ``way`` and bring it back; what happened.
    ``taken_over``: whether its tables are all claimed by others now (a pause lasts
    until they are)."""
    proc = cluster.procs[slot]
    if way == "sigkill":
        proc.kill()
        proc.wait()
    elif way == "sigstop":
        proc.send_signal(signal.SIGSTOP)
        # Past the lease, and until its members have joined through another process,
        # which claimed the tables (they give up on it after ``ANSWER_S``; a claim waits
        # for a lock a commit in flight holds until the server ends its session).
        deadline = time.monotonic() + PROGRESS_S
        await asyncio.sleep(LEASE)
        while not taken_over():
            if time.monotonic() > deadline:
                raise AssertionError("nobody took the paused process's tables over")
            await asyncio.sleep(0.1)
        proc.send_signal(signal.SIGCONT)
        return way
    elif way == "sigterm":
        proc.terminate()
        if await asyncio.to_thread(proc.wait) != 0:
            raise AssertionError(f"a graceful stop exited with {proc.returncode}")
    else:
        cluster.pinned = slot  # its members come back to it alone
        proc.terminate()
        await asyncio.to_thread(proc.wait)
        try:
            await cluster.start(slot, "--crash-at", f"{way}:{rng.randint(1, 4)}")
        except RuntimeError:  # it reached the point before its first health check
            if cluster.procs[slot].returncode != -signal.SIGKILL:
                raise
        crashing = cluster.procs[slot]
        for _ in range(400):
            if crashing.poll() is not None:
                break
            await asyncio.sleep(0.025)
        else:
            crashing.kill()
            way += " (not reached; killed)"
        crashing.wait()
        cluster.pinned = None
    # Started again while the others take its tables over (the round waits for both).
    cluster.restarting = asyncio.create_task(cluster.start(slot))
    return way


async def _goes_on(
    cluster: Cluster,
    members: list[Member],
    before: dict[str, int],
    table_ids: list[str],
    playing: list[asyncio.Task[None]],
) -> None:
    """Wait until each member has two more acks, its table under a newer epoch."""
    counts = {id(m): len(m.acked) for m in members}
    deadline = time.monotonic() + PROGRESS_S
    while True:
        for task in playing:
            if task.done():
                task.result()  # a refusal: raise it here
                raise AssertionError("a member stopped playing")
        owners = cluster.owners()
        newer = all(owners[table_ids[m.table]][1] > before[table_ids[m.table]] for m in members)
        if newer and all(len(m.acked) >= counts[id(m)] + 2 for m in members):
            return
        if time.monotonic() > deadline:
            behind = [(m.table, m.participant, len(m.acked) - counts[id(m)]) for m in members]
            raise AssertionError(f"the fight did not go on: {behind}; owners {owners}")
        await asyncio.sleep(0.05)


async def _set_up(
    http: aiohttp.ClientSession, cluster: Cluster, count: int
) -> tuple[list[str], list[Member]]:
    """Make the tables, load each one's scene by its GM; the table ids and members."""
    tables = make_tables(cluster.db, 0, count)
    table_ids = [_table_of(cluster.db, t["gm"]) for t in tables]
    members = []
    for k, tokens in enumerate(tables):
        names = [*(f"p{i}" for i in range(PLAYERS)), "gm"]
        members += [Member(k, name, tokens[name], 2 * i) for i, name in enumerate(names)]
        gm = members[-1]
        await join(http, cluster.entries, gm)
        assert gm.ws is not None
        gm.seq += 1
        loaded = await ask(gm.ws, "load_scene", gm.seq, {"scene": scene()})
        assert loaded["type"] == "ack", loaded
    return table_ids, members


async def _rounds(
    cluster: Cluster,
    plan: list[str],
    table_ids: list[str],
    members: list[Member],
    playing: list[asyncio.Task[None]],
    rng: random.Random,
    happened: Counter[str],
) -> None:
    """Each round of ``plan``: a table's owner taken down its way, then the fight goes on."""
    for way in plan:
        owners = cluster.owners()
        url, _ = owners[rng.choice(table_ids)]
        slot = cluster.urls.index(url) if url in cluster.urls else 0
        down = {t for t, (u, _) in owners.items() if u == cluster.urls[slot]}
        before = {t: e for t, (_, e) in owners.items()}
        await asyncio.sleep(rng.uniform(0.2, 0.6))  # mid-fight, at a random moment
        taken_over = functools.partial(_taken_over, cluster, url, down, before)
        happened[await _take_down(cluster, slot, way, rng, taken_over)] += 1
        hit = [m for m in members if table_ids[m.table] in down]
        await _goes_on(cluster, hit, before, table_ids, playing)
        if cluster.restarting is not None:
            await cluster.restarting
            cluster.restarting = None


def _taken_over(cluster: Cluster, url: str | None, down: set[str], before: dict[str, int]) -> bool:
    """Whether another process than ``url`` has claimed each of ``down`` since ``before``."""
    now = cluster.owners()
    return all(now[t][1] > before[t] and now[t][0] != url for t in down)


def _table_of(db: str, token: str) -> str:
    with psycopg.connect(db) as pg:
        row = pg.execute("SELECT table_id FROM join_tokens WHERE token = %s", (token,)).fetchone()
    assert row is not None, token
    return str(row[0])


async def run(
    kills: int, tables: int = 3, ways: tuple[str, ...] = WAYS, seed: int = 7
) -> dict[str, Any]:
    """``kills`` rounds, the ways cycled in a shuffled order; the figures as one dict."""
    rng = random.Random(seed)
    plan = [ways[i % len(ways)] for i in range(kills)]
    rng.shuffle(plan)
    server = PostgresServer()
    began = time.perf_counter()
    happened: Counter[str] = Counter()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-crash-several-") as tmp:
            ports = [free_port() for _ in range(PROCESSES)]
            cluster = Cluster(server.new_database(), Path(tmp), ports)
            try:
                await asyncio.gather(*(cluster.start(i) for i in range(PROCESSES)))
                async with aiohttp.ClientSession() as http:
                    table_ids, members = await _set_up(http, cluster, tables)
                    stop = asyncio.Event()
                    playing = [
                        asyncio.create_task(play(http, cluster.entries, m, stop)) for m in members
                    ]
                    try:
                        await _rounds(cluster, plan, table_ids, members, playing, rng, happened)
                        stop.set()
                        await asyncio.wait_for(asyncio.gather(*playing), 60)
                    finally:
                        for task in playing:
                            task.cancel()
            finally:
                cluster.stop_all()
            report = check(cluster.db, table_ids, members)
    finally:
        server.stop()
    return {
        "processes": PROCESSES,
        "tables": tables,
        "members": len(members),
        "kills": sum(happened.values()),
        "ways": dict(happened),
        "seconds": round(time.perf_counter() - began, 1),
        **report,
    }


def check(db: str, table_ids: list[str], members: list[Member]) -> dict[str, Any]:
    """Every table's log against what its members were acknowledged (see the module)."""
    lost = doubled = misplaced = gaps = back = 0
    epochs: set[tuple[str, int]] = set()
    with psycopg.connect(db) as pg:
        for table_id in table_ids:
            rows = pg.execute(
                "SELECT position, epoch, client, ref, first_event FROM log"
                " WHERE table_id = %s ORDER BY position",
                (table_id,),
            ).fetchall()
            gaps += [r[0] for r in rows] != list(range(len(rows)))
            back += sum(1 for a, b in itertools.pairwise(rows) if b[1] < a[1])
            epochs |= {(table_id, r[1]) for r in rows}
            for member in (m for m in members if table_ids[m.table] == table_id):
                logged = {r[3]: r[4] for r in rows if r[2] == member.logged_as}
                refs = [r[3] for r in rows if r[2] == member.logged_as]
                doubled += len(refs) - len(logged)
                lost += sum(1 for seq in member.acked if seq not in logged)
                misplaced += sum(
                    1
                    for seq, (first, _) in member.acked.items()
                    if seq in logged and first is not None and logged[seq] != first
                )
    return {
        "acknowledged": sum(len(m.acked) for m in members),
        "resent": sum(m.resent for m in members),
        "epochs": len(epochs),
        "lost": lost,
        "doubled": doubled,
        "misplaced": misplaced,
        "logs_with_gaps": gaps,
        "epochs_back": back,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """``--kills`` rounds over ``--tables`` tables; the report."""
    parser = argparse.ArgumentParser(prog="python -m bench.crash --several", description=__doc__)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--ways", default=",".join(WAYS), help=f"comma-separated, of {', '.join(WAYS)}"
    )
    args = parser.parse_args(argv)
    ways = tuple(args.ways.split(","))
    unknown = set(ways) - set(WAYS)
    if unknown:
        parser.error(f"unknown ways: {', '.join(sorted(unknown))}")
    return asyncio.run(run(args.kills, args.tables, ways, args.seed))


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
