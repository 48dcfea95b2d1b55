"""Kill the bridge with SIGKILL under load, restart it, and check nothing acknowledged was lost.

``python -m bench.crash`` (the release version: 200 random kills plus every named point
several times) and ``tests/bridge/test_crash.py`` (CI: a few of each) run the same code.

Each round starts ``vtt-bridge serve`` as its own process on the round's database and
drives it with players on two tables who move their tokens as fast as they are
acknowledged, each with a stable client id.  The server dies either at a random moment
(SIGKILL from here) or at a named point (``--crash-at``, where it kills itself):

* ``before_commit``: the batch is written but not committed;
* ``after_commit``: committed, before any acknowledgement;
* ``after_ack``: acknowledged, before the broadcast;
* ``mid_snapshot``: inside the snapshot's transaction.

After each kill the database is checked: ``PRAGMA integrity_check`` is ok; every
acknowledged command is in the log exactly once, at the events its ack named; and a
restart (latest snapshot plus the log's tail) reaches the same state hash as a full
replay.  The next round's clients reconnect with their client ids and first send again
the command they had in flight, which must not be applied twice.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import msgpack

from bench.crash_points import NAMED_POINTS

TABLES = 2
PLAYERS = 3
SNAPSHOT_EVERY = 20
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def frame(kind: str, seq: int, body: dict[str, Any]) -> bytes:
    packed: bytes = msgpack.packb({"v": 1, "type": kind, "seq": seq, "body": body})
    return packed


@dataclass
class Player:
    """One client: its join token, client id, token on the scene, and what it has in flight."""

    table: str
    participant: str
    join_token: str
    client: str
    x: int
    y: int = 0
    seq: int = 0
    in_flight: tuple[int, int] | None = None  # (seq, target y)


@dataclass
class Campaign:
    """Everything the rounds share: the database, the players, and what was acknowledged."""

    db: Path
    players: list[Player]
    acked: dict[tuple[str, int], tuple[int | None, int | None]] = field(default_factory=dict)
    rounds: int = 0
    kills: Counter[str] = field(default_factory=Counter)


async def setup(db: Path) -> Campaign:
    """Create the tables and load a scene in each (through the hub, in this process)."""
    import protocol
    from engine import GM
    from engine.commands import LoadScene
    from vtt_bridge.hub import Hub
    from vtt_bridge.store import Store
    from vtt_bridge.translate import scene_from_spec

    hub = Hub(Store(db))
    players: list[Player] = []

    async def load(table_id: str, spec: protocol.SceneSpec) -> None:
        command = LoadScene(GM, scene_from_spec(spec))
        pending = hub._apply(hub.tables[table_id], None, None, "", command, 0)  # as the server
        await hub.committer.wait(pending)

    try:
        for t in range(TABLES):
            names = [f"p{i}" for i in range(PLAYERS)]
            table = hub.create_table(f"crash-{t}", names)
            tokens = [
                {
                    "id": f"t-{name}", "name": name, "owner": name, "side": "heroes",
                    "x": 2 * i, "y": 0, "size": 1, "reach": 1.0, "movement": 6.0,
                    "stats": {"ocv": 3, "dcv": 3, "init": 8},
                }
                for i, name in enumerate(names)
            ]  # fmt: skip
            grid = {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 12, "height": 12}
            await load(table.id, protocol.SceneSpec.from_wire({"grid": grid, "tokens": tokens}))
            for i, name in enumerate(names):
                grant = next(g for g in table.tokens.values() if g.participant == name)
                players.append(Player(table.id, name, grant.token, f"crash-{t}-{name}", 2 * i))
    finally:
        hub.close()
    return Campaign(db, players)


async def play(player: Player, url: str, campaign: Campaign, stop: asyncio.Event) -> None:
    """Join, send again what was in flight, then move back and forth until the server dies."""
    with contextlib.suppress(aiohttp.ClientError, ConnectionError, asyncio.TimeoutError, OSError):
        async with aiohttp.ClientSession() as http, http.ws_connect(url, max_msg_size=0) as ws:
            body = {"token": player.join_token, "last_event": None, "client": player.client}
            await ws.send_bytes(frame("join", 0, body))
            while not stop.is_set():
                if player.in_flight is None:
                    player.seq += 1
                    player.in_flight = (player.seq, 2 if player.y == 1 else 1)
                seq, target = player.in_flight
                move = {"token": f"t-{player.participant}", "path": [[player.x, target]]}
                await ws.send_bytes(frame("move", seq, move))
                while True:
                    message = await ws.receive(timeout=10)
                    if message.type != aiohttp.WSMsgType.BINARY:
                        return
                    reply = msgpack.unpackb(message.data)
                    if reply["type"] in ("ack", "error") and reply["body"]["ref"] == seq:
                        break
                if reply["type"] == "ack":
                    key = (f"{player.participant}/{player.client}", seq)
                    campaign.acked[key] = (
                        reply["body"]["first_event"],
                        reply["body"]["last_event"],
                    )
                    player.y = target
                elif reply["body"]["code"] == "shutting_down":
                    return
                else:
                    raise AssertionError(f"{player.client} seq {seq} refused: {reply['body']}")
                player.in_flight = None


async def one_round(campaign: Campaign, rng: random.Random, point: str | None) -> str:
    """Start the server, load it, kill it (randomly, or at ``point``); what happened."""
    log_path = campaign.db.with_name(f"server-{campaign.rounds}.log")
    port = free_port()
    command = [
        sys.executable, "-m", "vtt_bridge", "serve", "--db", str(campaign.db), "--port", str(port),
        "--rate-limit", "1e9", "--rate-burst", "1000000000",
        "--snapshot-every", str(SNAPSHOT_EVERY),
    ]  # fmt: skip
    if point is not None:
        command += ["--crash-at", f"{point}:{rng.randint(1, 8)}"]
    with log_path.open("wb") as log:
        # The server runs the same tree as this script, whatever the working directory.
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
    try:
        try:
            await wait_up(port, proc)
        except RuntimeError as exc:
            output = log_path.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{exc}; its output:\n{output}") from None
        stop = asyncio.Event()
        url = f"ws://127.0.0.1:{port}/ws"
        players = [asyncio.create_task(play(p, url, campaign, stop)) for p in campaign.players]
        if point is None:
            await asyncio.sleep(rng.uniform(0.02, 0.5))
            os.kill(proc.pid, signal.SIGKILL)
        else:
            for _ in range(400):  # the server kills itself at the point
                if proc.poll() is not None:
                    break
                await asyncio.sleep(0.025)
            else:
                os.kill(proc.pid, signal.SIGKILL)
                point = f"{point} (not reached; killed)"
        proc.wait()
        stop.set()
        await asyncio.gather(*players)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return point or "random"


async def wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(400):
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode} on start-up")
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.025)
    raise RuntimeError("the server did not come up")


def check(campaign: Campaign) -> dict[str, Any]:
    """The database after a kill: sound, every ack there once, snapshot+tail == full replay."""
    from vtt_bridge.hub import Hub
    from vtt_bridge.store import Store

    db = sqlite3.connect(campaign.db)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        assert integrity == "ok", integrity
        logged: Counter[tuple[str, int]] = Counter()
        first_events: dict[tuple[str, int], int] = {}
        for meta, first, events in db.execute("SELECT meta, first_event, events FROM log"):
            data = json.loads(meta)
            if "client" in data:
                key = (data["client"], data["ref"])
                logged[key] += 1
                first_events[key] = first
                assert json.loads(events), key
        twice = [k for k, n in logged.items() if n > 1]
        assert not twice, f"applied twice: {twice[:5]}"
        lost = [k for k in campaign.acked if logged[k] != 1]
        assert not lost, f"acknowledged but not in the log: {lost[:5]}"
        moved = [k for k, (first, _) in campaign.acked.items() if first_events[k] != first]
        assert not moved, f"acknowledged with other events than the log holds: {moved[:5]}"
    finally:
        db.close()
    hub = Hub(Store(campaign.db))
    try:
        snapshots = 0
        for table_id, table in hub.tables.items():
            # Every command of the tail replays to the events it logged...
            assert not hub.load_reports[table_id].divergences, hub.load_reports[table_id]
            # ...and snapshot plus tail is what a full replay reaches.
            assert table.encounter.state_hash() == hub.full_replay_hash(table_id), table_id
            stored = hub.store.latest_snapshot(table_id)
            if stored is not None:  # it was used, not skipped as unreadable
                assert table.snapshot_position == stored.position, (table_id, stored.position)
                snapshots += 1
    finally:
        hub.close()
    return {"acked": len(campaign.acked), "logged": sum(logged.values()), "snapshots": snapshots}


async def run(random_kills: int, named_each: int, seed: int, workdir: Path) -> dict[str, Any]:
    """``random_kills`` random kills and ``named_each`` kills at every named point."""
    rng = random.Random(seed)
    plan: list[str | None] = [None] * random_kills + [p for p in NAMED_POINTS] * named_each
    rng.shuffle(plan)
    campaign = await setup(workdir / "crash-0.sqlite3")
    started = time.perf_counter()
    last: dict[str, Any] = {}
    for index, point in enumerate(plan):
        if index and index % 10 == 0:  # a fresh database now and then keeps replays short
            kills, rounds = campaign.kills, campaign.rounds
            campaign = await setup(workdir / f"crash-{index}.sqlite3")
            campaign.kills, campaign.rounds = kills, rounds
        what = await one_round(campaign, rng, point)
        campaign.kills[what] += 1
        campaign.rounds += 1
        last = check(campaign)
    return {
        "rounds": campaign.rounds,
        "kills": dict(campaign.kills),
        "seconds": round(time.perf_counter() - started, 1),
        "last_check": last,
    }


def main() -> int:
    if "--several" in sys.argv[1:]:  # several bridges on PostgreSQL: bench.crash_several
        from bench import crash_several

        arguments = [a for a in sys.argv[1:] if a != "--several"]
        print(json.dumps(crash_several.main(arguments)))
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.crash", description=__doc__)
    parser.add_argument(
        "--several",
        action="store_true",
        help="kill the owner among three bridges on PostgreSQL (bench.crash_several's flags)",
    )
    parser.add_argument("--random", type=int, default=200, help="random SIGKILLs")
    parser.add_argument("--named", type=int, default=5, help="kills at each named point")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = asyncio.run(run(options.random, options.named, options.seed, Path(tmp)))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
