"""A noisy neighbour: can one player, within its rate limit, slow the other tables down?

``python -m bench.neighbour [--json] [--seconds 10]`` starts the bridge as its own
process (as ``bench.bridge`` does, ``synchronous=FULL``) with the 10 tables and 50
clients of ``bench.bridge``'s load (each client moves its token as fast as it is
acknowledged, every move broadcast to its five members; the load's own rate limit is
lifted, as there), plus an eleventh table whose GM is the neighbour.

It measures the load twice in the same run: quiet, then while the neighbour sends, as
fast as its rate limit allows, the most expensive legal messages we know of, in turn:

* ``ask_path`` to a walled-in cell within the search limit (a full, capped search);
* ``ask_path`` to the far corner of the map and to a cell off it;
* ``move_points`` with waypoints at +-1e9 px, and with the most points a message may
  carry (1,024) zigzagging across the edges;
* ``load_scene`` of the largest scene a frame carries: a 1000 x 1000 grid (the most
  cells allowed) with walls and as many tokens as fit in 64 KiB, alternating between
  two such scenes (walls one cell apart), so no reload can reuse the last one's index;
* ``ask_options`` and ``resync`` from the start of the table's log.

The neighbour's rate limit is the server's default one (``--rate-limit 50``,
``--rate-burst 200``) with the bridge's own costs (:mod:`vtt_bridge.costs`): it starts
with a full bucket (a burst) and then sends whenever its bucket holds the next
message's cost, without waiting for answers.  It keeps that bucket itself because the
load's clients share the server's settings and would be closed at 50 messages/s; the
tests check that the server enforces the same costs (``tests/bridge/test_fair_turns.py``).

``--hostile`` runs :mod:`bench.hostile_clients` instead: issue 22's hostile cases
(one participant's reconnect loops, a storm of 500 joins, paced clients through a
stall) beside ten tables at human pace, on a server with its default limits.
``--rounds N`` runs each of them N times, interleaved, and pools each case's
acknowledgements (a storm is over in under a second: one run's window holds a handful
of acknowledgements of it, and its p99 is then its second-worst).
``--pin`` puts the bridge on one core and the bench with all its clients on the other
(:mod:`bench.pinning`): the nearest thing on one machine to clients on other hosts.

Beside those wall-clock figures, which depend on what else the machine runs, it
measures in its own process what each kind of the neighbour's messages costs the event
loop in CPU time, which does not (:func:`loop_cpu`): the same messages through a
:class:`~vtt_bridge.hub.Hub` on a SQLite file, with a monitor task that wakes every
millisecond and reads the loop thread's CPU clock (``time.thread_time``).  Per kind:
the loop thread's CPU per message (median), and the longest single stretch the loop
ran without reaching the monitor (the most one message holds every other table up).
``load_scene`` is measured with the first ``ask_path`` after it, which is when the
table's spatial index is used first.  ``--cpu-only`` prints just those.

It prints the other tables' acknowledgement p50/p99 quiet and beside the neighbour,
their ratio, ``/healthz`` response times during both, how many of the neighbour's
messages were answered or refused (it must never be closed), and the bridge's peak
resident memory (``VmHWM``).  ``--json`` prints one JSON object.  Targets: the others'
p99 under twice its quiet value and under 50 ms; peak memory under 300 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

from bench import hostile_reach, pinning
from bench._stats import percentile
from bench.probing import Bucket, LoopMonitor, count_answers, largest_scene, poll_health
from bench.serving import drive as drive_load
from bench.serving import (
    frame,
    free_port,
    make_tables,
    rss_mb,
    running,
    stat_cpu_seconds,
    status_mb,
    until,
    wait_healthy,
)
from vtt_bridge.config import Config
from vtt_bridge.costs import extra_cost, frame_cost
from vtt_bridge.hub import Hub
from vtt_bridge.store import Store
from vtt_bridge.tables import Session

FAR = 1e9


def peak_rss_mb(pid: int) -> float:
    """Peak resident memory of a process so far (``VmHWM``), in MiB (Linux)."""
    return status_mb(pid, "VmHWM")


def neighbour_table(db: Path) -> str:
    """Create the neighbour's table; the GM's join token."""
    hub = Hub(Store(db))
    try:
        table = hub.create_table("neighbour", ["p0"])
        return next(t.token for t in table.tokens.values() if t.participant == "gm")
    finally:
        hub.close()


def probes(scene: dict[str, Any], reload: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """The neighbour's messages, sent in turn (without ``reload``: all but the scene,
    which it then loads once at the start)."""
    zigzag = [[FAR * (-1) ** i, FAR * (-1) ** (i // 2)] for i in range(1024)]
    return [
        ("ask_path", {"token": "hero", "to": [21, 21]}),
        ("ask_path", {"token": "hero", "to": [999, 999]}),
        ("ask_path", {"token": "hero", "to": [50_000, 50_000]}),
        ("move_points", {"token": "hero", "points": [[FAR, FAR], [-FAR, -FAR], [FAR, -FAR]]}),
        ("ask_path", {"token": "hero", "to": [22, 22]}),
        ("move_points", {"token": "hero", "points": zigzag}),
        *([("load_scene", {"scene": scene})] if reload else []),
        ("ask_options", {"token": "hero"}),
        ("ask_path", {"token": "hero", "to": [21, 22]}),
        ("resync", {"after": -1}),
    ]


def probe_label(kind: str, body: dict[str, Any]) -> str:
    """A short name for one probe."""
    if kind == "ask_path":
        return f"ask_path to {tuple(body['to'])}"
    if kind == "move_points":
        return f"move_points ({len(body['points'])} points)"
    return kind


Probe = tuple[str, dict[str, Any], int]  # kind, body, tokens beyond the frame's


def neighbour_plan(long_walls: bool, reload: bool) -> dict[str, Any]:
    """What the neighbour sends, worked out before anything is measured: building a
    largest scene packs it hundreds of times and pricing a message decodes it, which
    during the run would hold up the load's clients, who share this event loop.

    ``cycle``: the probes in turn, each with what it costs beyond its frame; with
    ``reload`` its ``load_scene`` alternates between two scenes of the same size
    (``reloads``), so no reload can reuse the last one's index; without, ``opening``
    loads one once."""
    import protocol

    def priced(kind: str, body: dict[str, Any]) -> Probe:
        return kind, body, extra_cost(protocol.decode_client(frame(kind, 1, body)))

    scene = largest_scene(long_walls)
    other = largest_scene(long_walls, variant=1)
    return {
        "opening": [] if reload else [priced("load_scene", {"scene": scene})],
        "cycle": [priced(kind, body) for kind, body in probes(scene, reload)],
        "reloads": [priced("load_scene", {"scene": s}) for s in (other, scene)],
        "scene_tokens": len(scene["tokens"]),
        "scene_walls": len(scene["walls"]),
    }


async def neighbour(
    url: str,
    token: str,
    stop_at: float,
    report: dict[str, Any],
    plan: dict[str, Any],
) -> None:
    """Send the probes of ``plan`` (:func:`neighbour_plan`) in turn within the default
    rate limit until ``stop_at``."""
    defaults = Config()
    bucket = Bucket(defaults.rate_limit, defaults.rate_burst)
    reloads = itertools.cycle(plan["reloads"])
    report["scene_tokens"] = plan["scene_tokens"]
    report["scene_walls"] = plan["scene_walls"]
    sent: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(url, max_msg_size=0, compress=0)
        bucket.tokens -= 1  # the join
        await ws.send_bytes(frame("join", 1, {"token": token, "last_event": None}))
        await until(ws, "welcome")

        reader = asyncio.create_task(count_answers(ws, answers, report))
        seq = 1
        probe: Probe
        for probe in itertools.chain(plan["opening"], itertools.cycle(plan["cycle"])):
            if time.perf_counter() >= stop_at or reader.done():
                break
            if probe[0] == "load_scene" and not plan["opening"]:
                probe = next(reloads)
            kind, body, extra = probe
            seq += 1
            data = frame(kind, seq, body)
            await bucket.take(frame_cost(len(data)) + extra)
            await ws.send_bytes(data)
            sent[kind] += 1
        await asyncio.sleep(1.0)  # the last answers
        reader.cancel()
        await ws.close()
    report["sent"] = dict(sent)
    report["answers"] = dict(answers)


def loop_thread_cpu_s(pid: int) -> float:
    """CPU seconds the process's main thread (the bridge's event loop) has used (Linux)."""
    return stat_cpu_seconds(Path(f"/proc/{pid}/task/{pid}/stat").read_text())


async def loop_cpu_during(pid: int, warmup: float, seconds: float) -> float:
    """The bridge's event-loop CPU seconds over the measured ``seconds`` after ``warmup``
    (about the load's measured window: the load starts its clock once joined)."""
    await asyncio.sleep(warmup)
    began = loop_thread_cpu_s(pid)
    await asyncio.sleep(seconds)
    return loop_thread_cpu_s(pid) - began


async def loop_cpu(rounds: int) -> dict[str, dict[str, float]]:
    """Per kind of the neighbour's messages (``load_scene`` with the ``ask_path`` after
    it): the loop thread's CPU per message and the longest single stretch without a
    break, each the median over ``rounds``, and the worst stretch of any round, in ms
    (module docstring)."""
    import protocol

    scene = largest_scene()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cpu.sqlite3"
        token = neighbour_table(db)
        hub = Hub(Store(db))
        try:
            # The connection's writer, as the server's: it encodes one message at a
            # time, a task of its own, so encoding is measured where it happens.
            outbound: asyncio.Queue[protocol.ServerMessage] = asyncio.Queue()

            async def write() -> None:
                while True:
                    protocol.encode_msgpack(await outbound.get())
                    outbound.task_done()

            def deliver(message: protocol.ServerMessage) -> None:
                outbound.put_nowait(message)

            writer = asyncio.create_task(write())
            gm = Session("gm", deliver)
            await hub.receive(gm, frame("join", 1, {"token": token, "last_event": None}), 0)
            seq = 1
            first_path = ("ask_path", {"token": "hero", "to": [6, 6]})
            sequences: dict[str, list[tuple[str, dict[str, Any]]]] = {}
            for kind, body in probes(scene):
                if kind == "load_scene":
                    sequences["load_scene + ask_path"] = [(kind, body), first_path]
                else:
                    sequences[probe_label(kind, body)] = [(kind, body)]
            # The scene first, so every other kind is measured on the largest scene.
            sequences = {
                "load_scene + ask_path": sequences.pop("load_scene + ask_path"),
                **sequences,
            }
            result: dict[str, dict[str, float]] = {}
            for kind, sequence in sequences.items():
                cpu: list[float] = []
                longest: list[float] = []
                for round_ in range(rounds):
                    frames = []
                    for name, body in sequence:
                        seq += 1
                        if name == "load_scene":  # a different scene each time
                            body = {"scene": largest_scene(variant=(round_ + 1) % 2)}
                        frames.append(frame(name, seq, body))
                    monitor = LoopMonitor()
                    watching = asyncio.create_task(monitor.run())
                    await asyncio.sleep(0.002)  # the monitor is watching
                    began = time.thread_time()
                    for data in frames:
                        await hub.receive(gm, data, 0)
                        await hub.drain()
                        await outbound.join()
                    cpu.append(time.thread_time() - began)
                    await asyncio.sleep(0.002)
                    monitor.stop()
                    await watching
                    longest.append(monitor.longest)
                cpu.sort()
                longest.sort()
                result[kind] = {
                    "cpu_ms": round(cpu[len(cpu) // 2] * 1000, 2),
                    "block_ms": round(longest[len(longest) // 2] * 1000, 2),
                    "max_block_ms": round(longest[-1] * 1000, 2),
                }
            writer.cancel()
            return result
        finally:
            hub.close()


async def measure(options: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {
        "seconds": options.seconds,
        "warmup": options.warmup,
        "long_walls": options.long_walls,
        "load_once": options.load_once,
        "loop_cpu": await loop_cpu(options.cpu_rounds),
    }
    if options.cpu_only:
        result["cpu_only"] = True
        return result
    plan = neighbour_plan(options.long_walls, not options.load_once)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        tables = make_tables(db, 0)
        noisy_token = neighbour_table(db)
        reach_plan = hostile_reach.prepare(db)  # the long-reach tower, the reloads
        port = free_port()
        serve = [
            "-m", "vtt_bridge", "serve", "--db", str(db), "--port", str(port),
            "--synchronous", "FULL", "--rate-limit", "1e9", "--rate-burst", "1000000000",
            "--join-rate", "1e9", "--join-burst", "1000000000", "--log-format", "json",
        ]  # fmt: skip
        # The handshakes per address lifted too: the load's 50 clients and the hostile
        # tables' 250 players all connect from 127.0.0.1 at once.
        url = f"ws://127.0.0.1:{port}/ws"
        with running(serve, Path(tmp) / "bridge.log") as bridge:
            await wait_healthy(port, bridge)
            if options.pin:
                pinning.pin_server(bridge.pid)
            span = options.warmup + options.seconds
            health_stop = time.perf_counter() + span
            quiet, quiet_health, quiet_cpu = await asyncio.gather(
                drive_load(url, tables, options.warmup, options.seconds, setup=True),
                poll_health(port, health_stop),
                loop_cpu_during(bridge.pid, options.warmup + 1.0, options.seconds - 1.0),
            )
            result["rss_after_quiet_mb"] = round(rss_mb(bridge.pid), 1)
            report: dict[str, Any] = {}
            stop_at = time.perf_counter() + span
            noisy, noisy_health, _, noisy_cpu = await asyncio.gather(
                drive_load(url, tables, options.warmup, options.seconds, setup=False),
                poll_health(port, stop_at),
                neighbour(url, noisy_token, stop_at, report, plan),
                loop_cpu_during(bridge.pid, options.warmup + 1.0, options.seconds - 1.0),
            )
            result["hostile_reach"] = await hostile_reach.run_cases(
                url, port, reach_plan, options.warmup, options.seconds, options.rounds
            )
            result["peak_rss_mb"] = round(peak_rss_mb(bridge.pid), 1)
            result["neighbour"] = report
    for name, run, health in (("quiet", quiet, quiet_health), ("noisy", noisy, noisy_health)):
        result[f"{name}_cmds_per_s"] = round(run.acked / run.seconds, 1)
        result[f"{name}_p50_ack_ms"] = round(percentile(run.latencies_ms, 50), 2)
        result[f"{name}_p99_ack_ms"] = round(percentile(run.latencies_ms, 99), 2)
        result[f"{name}_max_ack_ms"] = round(max(run.latencies_ms), 2)
        result[f"{name}_errors"] = run.errors
        result[f"{name}_healthz_p99_ms"] = round(percentile(health, 99), 2)
    # The bridge's event-loop CPU, which contention does not change much: per command
    # of the load, and what the neighbour added beyond the load's share.
    window = options.seconds - 1.0
    quiet_per_ack = quiet_cpu / max(1.0, result["quiet_cmds_per_s"] * window)
    result["quiet_loop_cpu_ms_per_s"] = round(quiet_cpu / window * 1000, 1)
    result["noisy_loop_cpu_ms_per_s"] = round(noisy_cpu / window * 1000, 1)
    result["load_loop_cpu_us_per_cmd"] = round(quiet_per_ack * 1e6, 1)
    neighbour_cpu = noisy_cpu - quiet_per_ack * result["noisy_cmds_per_s"] * window
    result["neighbour_loop_cpu_ms_per_s"] = round(neighbour_cpu / window * 1000, 1)
    result["p99_ratio"] = round(result["noisy_p99_ack_ms"] / result["quiet_p99_ack_ms"], 2)
    result["targets_met"] = {
        "p99_under_2x_quiet": result["p99_ratio"] < 2.0,
        "p99_under_50_ms": result["noisy_p99_ack_ms"] < 50.0,
        "peak_rss_under_300_mb": result["peak_rss_mb"] < 300.0,
        "neighbour_never_closed": "closed" not in result["neighbour"],
    }
    return result


def print_cpu(result: dict[str, Any]) -> None:
    print("event-loop CPU per message of the neighbour's (in-process, the loop thread's clock):")
    print(f"  {'message':32} {'CPU ms':>8} {'longest block ms':>17} {'worst of rounds':>16}")
    for label, row in result["loop_cpu"].items():
        print(f"  {label:32} {row['cpu_ms']:>8} {row['block_ms']:>17} {row['max_block_ms']:>16}")


def print_table(result: dict[str, Any]) -> None:
    print_cpu(result)
    if result.get("cpu_only"):
        return
    n = result["neighbour"]
    print(
        f"noisy neighbour: 50 clients on 10 tables, {result['seconds']} s each, quiet vs "
        f"beside one neighbour ({n.get('scene_tokens')} tokens, {n.get('scene_walls')} walls "
        "in its scene)"
    )
    rows = [
        ("commands/s", "cmds_per_s"),
        ("ack p50 ms", "p50_ack_ms"),
        ("ack p99 ms", "p99_ack_ms"),
        ("ack max ms", "max_ack_ms"),
        ("/healthz p99 ms", "healthz_p99_ms"),
    ]
    print(f"  {'':22} {'quiet':>10} {'noisy':>10}")
    for label, key in rows:
        print(f"  {label:22} {result['quiet_' + key]:>10} {result['noisy_' + key]:>10}")
    print(f"  {'loop CPU ms per s':22} {result['quiet_loop_cpu_ms_per_s']:>10} "
          f"{result['noisy_loop_cpu_ms_per_s']:>10}")  # fmt: skip
    print(f"  {'p99 noisy / quiet':22} {result['p99_ratio']:>10}")
    print(
        f"  the load's loop CPU per command {result['load_loop_cpu_us_per_cmd']} us; the "
        f"neighbour's, beyond it: {result['neighbour_loop_cpu_ms_per_s']} ms per s"
    )
    print(f"  {'bridge peak RSS MB':22} {result['peak_rss_mb']:>10}")
    print(f"  neighbour sent:     {n.get('sent')}")
    print(f"  neighbour answered: {n.get('answers')}")
    if "closed" in n:
        print(f"  neighbour CLOSED:   {n['closed']}")
    print(f"  targets met: {result['targets_met']}")
    hostile_reach.print_cases(result["hostile_reach"])


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.neighbour", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument(
        "--long-walls",
        action="store_true",
        help="the neighbour's scene has 100 walls across the whole map (refused since the "
        "40,000-cell wall limit: bad_scene; see the README)",
    )
    parser.add_argument(
        "--load-once",
        action="store_true",
        help="the neighbour loads its scene once, then sends everything else in turn",
    )
    parser.add_argument(
        "--cpu-only",
        action="store_true",
        help="measure only each message's event-loop CPU, in-process (no load, no server)",
    )
    parser.add_argument("--cpu-rounds", type=int, default=7, help="rounds per message kind")
    parser.add_argument(
        "--hostile",
        action="store_true",
        help="instead: the hostile clients' cases at human pace (bench.hostile_clients)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run every hostile case (the long-reach tower, its control, the reload; with "
        "--hostile: the hostile clients') this many times, interleaved, and read each "
        "case's figures over all its rounds at once",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the bridge on core 0, this bench and its clients on core 1 (bench.pinning)",
    )
    options = parser.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    if options.pin:
        if not pinning.can_pin():
            parser.error("--pin needs two cores this process may run on")
        pinning.pin_clients()
    if options.hostile:
        from bench import hostile_clients

        hostile = asyncio.run(hostile_clients.measure(options))
        print(json.dumps(hostile)) if options.json else hostile_clients.print_hostile(hostile)
        return 0
    result = asyncio.run(measure(options))
    if options.json:
        print(json.dumps(result))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
