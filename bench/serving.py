"""What every bench that runs the bridge as a process shares: its tables and scene, the
load driver (:func:`drive`), the server process (:func:`running`), its health and
counters, and the disk's fsync probe.

Moved out of :mod:`bench.bridge` so that :mod:`bench.human`, :mod:`bench.neighbour` and
the ``hostile_*`` benches use it without importing each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import msgpack

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


def stat_cpu_seconds(stat: str, *, children_too: bool = False) -> float:
    """User plus system CPU seconds in a ``/proc/<pid>/stat`` line (a process's or a
    thread's), with its waited-for children's when ``children_too`` (Linux)."""
    fields = stat.rsplit(")", 1)[1].split()  # after the name: fields[0] is the state
    ticks = int(fields[11]) + int(fields[12])
    if children_too:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used (Linux)."""
    return stat_cpu_seconds(Path(f"/proc/{pid}/stat").read_text())


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


def make_tables(db: Path | str, spectators: int, count: int = TABLES) -> list[dict[str, str]]:
    """Create ``count`` tables in ``db`` (a SQLite file or a PostgreSQL URL); per table
    the join tokens by participant."""
    from vtt_bridge.hub import Hub
    from vtt_bridge.store_open import open_store

    hub = Hub(open_store(db))
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
    measured window, and the CPU time the server (``cpu_pid``), its database server
    (``db_cpu``: PostgreSQL's processes; SQLite's work is inside the server) and the
    driver (this process) used in it."""

    acked: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    server_cpu_s: float = 0.0
    db_cpu_s: float = 0.0
    driver_cpu_s: float = 0.0

    def server_us_per_cmd(self) -> float:
        """The server's CPU time per acknowledged move, in µs."""
        return 1e6 * self.server_cpu_s / max(1, self.acked)

    def db_us_per_cmd(self) -> float:
        """The database server's CPU time per acknowledged move, in µs."""
        return 1e6 * self.db_cpu_s / max(1, self.acked)

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
    db_cpu: Callable[[], float] | None = None,
) -> Run:
    """Per table one GM and four players, each moving its token as fast as it is
    acknowledged, or, with ``pause=(low, high)``, waiting a random time in that range
    (seconds, seeded) after each acknowledgement: players at human speed.  ``cpu_pid``:
    the server process whose CPU time the window is charged with; ``db_cpu``: the CPU
    seconds its database server has used so far, charged the same way."""
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
        db = db_cpu() if db_cpu else 0.0
        driver = driver_cpu()
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        run.server_cpu_s = cpu_seconds(cpu_pid) - server if cpu_pid else 0.0
        run.db_cpu_s = db_cpu() - db if db_cpu else 0.0
        run.driver_cpu_s = driver_cpu() - driver

    try:
        # One deadline for the whole run, not one per move (a timer each costs the driver).
        everyone = asyncio.gather(clock(), *(mover(m) for m in members))
        await asyncio.wait_for(everyone, warmup + duration + (pause or (0, 0))[1] + REPLY_TIMEOUT)
    finally:
        for member in members:
            member.ws.close()
    return run


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


def bridge_command(db: Path | str, port: int, synchronous: str, *extra: str) -> list[str]:
    """The command line of a bridge under load: no rate limit on messages or joins
    (a ladder seats hundreds of tables at once), JSON logs."""
    return [
        "-m", "vtt_bridge", "serve", "--db", str(db), "--port", str(port),
        "--synchronous", synchronous, "--rate-limit", "1e9",
        "--rate-burst", "1000000000", "--join-rate", "1e9", "--join-burst", "1000000000",
        "--log-format", "json", *extra, *SERVE_ARGS,
    ]  # fmt: skip
