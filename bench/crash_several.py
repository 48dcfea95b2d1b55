"""Kill the owner of tables among several bridges on PostgreSQL, again and again, and check
that nothing acknowledged was lost or applied twice: ``python -m bench.crash_several``.

Two ``vtt-bridge serve`` processes share a throwaway PostgreSQL (:mod:`bench.pgserver`)
with a 1 s lease.  Per table one client (a stable client id) moves its token as fast as
it is acknowledged, through whichever process serves the table (it follows
``redirect``).  Each round the process serving the tables is killed with SIGKILL at a
random moment and started again; each client joins through the other process until it
is welcomed (the lease has run out and that process claimed the table), sends again
the command it had in flight under the same seq, and goes on.  At the end every table's
log is checked: its positions run 0, 1, 2, ... with none twice; every acknowledged seq
is in it exactly once; nothing is in it twice.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

from bench.pgserver import PostgresServer
from bench.serving import (
    bridge_command,
    free_port,
    make_tables,
    scene,
    start,
    wait_healthy,
)

LEASE = 1.0


@dataclass
class Player:
    """One table's client: where it connects, its seq, what was acknowledged."""

    token: str
    seq: int = 0
    y: int = 0
    acked: set[int] = field(default_factory=set)
    ws: aiohttp.ClientWebSocketResponse | None = None


async def _ask(
    ws: aiohttp.ClientWebSocketResponse, kind: str, seq: int, body: dict[str, Any]
) -> dict[str, Any]:
    await ws.send_json({"v": 1, "type": kind, "seq": seq, "body": body})
    while True:
        message = await ws.receive(timeout=10)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(message.type)
        for envelope in (
            json.loads(message.data) if message.data.startswith("[") else [json.loads(message.data)]
        ):
            if envelope["body"].get("ref") == seq or envelope["type"] == "welcome":
                return dict(envelope)


async def _join(http: aiohttp.ClientSession, urls: list[str], player: Player) -> None:
    """Join through each process in turn, following redirects, until welcomed."""
    while True:
        for url in urls:
            try:
                ws = await http.ws_connect(url)
                player.seq += 1
                answer = await _ask(
                    ws,
                    "join",
                    player.seq,
                    {"token": player.token, "last_event": None, "client": "bench"},
                )
                if answer["type"] == "welcome":
                    player.ws = ws
                    return
                await ws.close()
            except (TimeoutError, aiohttp.ClientError, ConnectionError):
                pass
        await asyncio.sleep(0.1)


async def _play(
    http: aiohttp.ClientSession, urls: list[str], player: Player, stop: asyncio.Event
) -> None:
    """Move until ``stop``; on a dropped connection rejoin and send the move again."""
    in_flight: tuple[int, int] | None = None
    while not stop.is_set():
        if player.ws is None:
            await _join(http, urls, player)
        assert player.ws is not None
        if in_flight is None:
            player.seq += 1
            in_flight = (player.seq, 1 + player.y % 2)
        seq, y = in_flight
        try:
            answer = await _ask(player.ws, "move", seq, {"token": "t-p0", "path": [[0, y]]})
        except (TimeoutError, aiohttp.ClientError, ConnectionError):
            player.ws = None
            continue
        if answer["type"] == "ack":
            player.acked.add(seq)
            player.y = y
        else:
            raise AssertionError(f"refused: {answer}")
        in_flight = None


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the rounds; the figures as one dict (``lost`` and ``doubled`` must be 0)."""
    parser = argparse.ArgumentParser(prog="python -m bench.crash_several", description=__doc__)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--tables", type=int, default=2)
    args = parser.parse_args(argv)
    server = PostgresServer()
    rng = random.Random(7)
    try:
        db = server.new_database()
        tables = make_tables(db, 0, args.tables)
        with tempfile.TemporaryDirectory(prefix="bench-crash-several-") as tmp:
            ports = [free_port(), free_port()]
            urls = [f"ws://127.0.0.1:{p}/ws" for p in ports]

            def launch(i: int) -> Any:
                flags = ("--public-url", urls[i], "--lease", str(LEASE))
                return start(bridge_command(db, ports[i], "FULL", *flags), Path(tmp) / f"{i}.log")

            procs = [launch(0), launch(1)]
            for proc, port in zip(procs, ports, strict=True):
                await wait_healthy(port, proc)
            async with aiohttp.ClientSession() as http:
                players = [Player(t["p0"]) for t in tables]
                for t in tables:  # each table's GM loads the scene once
                    gm = await http.ws_connect(urls[0])
                    await _ask(gm, "join", 1, {"token": t["gm"], "last_event": None})
                    await _ask(gm, "load_scene", 2, {"scene": scene()})
                    await gm.close()
                stop = asyncio.Event()
                playing = [asyncio.create_task(_play(http, urls, p, stop)) for p in players]
                for _ in range(args.kills):
                    await asyncio.sleep(rng.uniform(0.2, 0.8))
                    with psycopg.connect(db) as pg:
                        owners = {
                            str(r[0])
                            for r in pg.execute(
                                "SELECT url FROM owners o JOIN bridges b ON b.id = o.owner"
                            )
                        }
                    victim = next((i for i, u in enumerate(urls) if u in owners), 0)
                    procs[victim].kill()
                    procs[victim].wait()
                    procs[victim] = launch(victim)
                    await wait_healthy(ports[victim], procs[victim])
                await asyncio.sleep(LEASE + 1)
                stop.set()
                await asyncio.wait_for(asyncio.gather(*playing), 60)
            for proc in procs:
                proc.kill()
                proc.wait()
        return _check(db, tables, players, args.kills)
    finally:
        server.stop()


def _check(
    db: str, tables: list[dict[str, str]], players: list[Player], kills: int
) -> dict[str, Any]:
    lost = doubled = gaps = commands = 0
    with psycopg.connect(db) as pg:
        for player in players:
            (table_id,) = pg.execute(
                "SELECT table_id FROM join_tokens WHERE token = %s", (player.token,)
            ).fetchone() or (None,)
            rows = pg.execute(
                "SELECT position, ref FROM log WHERE table_id = %s AND client = %s "
                "ORDER BY position",
                (table_id, "p0/bench"),
            ).fetchall()
            positions = [
                p
                for (p,) in pg.execute(
                    "SELECT position FROM log WHERE table_id = %s ORDER BY position", (table_id,)
                )
            ]
            gaps += positions != list(range(len(positions)))
            refs = [ref for _, ref in rows]
            doubled += len(refs) - len(set(refs))
            lost += len(player.acked - set(refs))
            commands += len(player.acked)
    return {
        "kills": kills,
        "tables": len(tables),
        "acknowledged": commands,
        "lost": lost,
        "doubled": doubled,
        "logs_with_gaps": gaps,
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=1))
