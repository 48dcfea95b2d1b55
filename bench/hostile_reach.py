"""Hostile tables for ``bench.neighbour``: a long-reach token among walls, and a GM
reloading the largest scene.

Issue 22's probe: on a 400 x 400 grid of 1 m squares, a token ``tower`` at (200, 200)
with a reach of 110 m among 600 one-square walls on a lattice around it (a 36 KB scene,
then accepted), beside a player's ``scout`` walled into the next square.  The first
``ask_threat`` about the tower cost about 1 s of the server's thread and each one-square
move of it about 0.9 s.  Scenes are now priced at ``load_scene`` by what each token's
threat will cost to work out (:mod:`geometry.cost`, ``MAX_THREAT_MS`` in
:mod:`engine.scene_checks`), so that scene is refused (``bad_scene``).

``python -m bench.hostile_reach --model`` measures in this process, on the engine's own
index (:func:`engine.spatial.build_index`), what the tower costs for reaches of 10, 20,
40 and 110 m among 0, 150 and 600 walls: building the index, the first threat, and a
one-square move followed by its threat (each the median of a few rounds, CPU time),
beside the price :func:`geometry.cost.threat_cost_ms` puts on it and whether the scene
is accepted.  These are the figures the limits were set from.

``python -m bench.hostile_reach --crowd`` measures the commands that work out many
tokens at once (:func:`crowd`): the first question in a packed crowd after a load, a door
closing in the middle of it, and Cyberpunk RED's ``ask_options`` for a rifleman beside
300 and 2,000 tokens, boxed in (nobody in sight) or in the open.

Under ``python -m bench.neighbour`` (:func:`run_cases`) the bridge also serves
:data:`HUMAN_TABLES` tables at human pace (every player moves 2 to 4 s after its last
acknowledgement, as ``bench.bridge --human``), measured quiet, then beside each hostile
table in turn, in the same run:

* ``long-reach tower``: the GM loads the probe's scene (refused), then the longest reach
  the limit accepts among the same walls (:func:`longest_accepted_reach`), and moves the
  tower one square after another while the player asks ``ask_threat`` about it, both as
  fast as the default rate limit allows;
* ``1 m reach control``: the same, the tower's reach 1 m: what those messages cost the
  others whatever the reach;
* ``largest-scene reload``: the GM reloads ``bench.neighbour``'s largest scene
  (alternating two variants, so no reload reuses an index), each followed by an
  ``ask_path``, as fast as the default rate limit allows.

Per case, after a quiet run of its own (the machine's other load drifts over a run):
the other tables' acknowledgement p99 (ms, and its ratio to that quiet p99),
``/healthz`` p99, and what the hostile table was answered.  Targets: p99 under twice
quiet and under 50 ms, ``/healthz`` p99 under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

from bench._stats import percentile
from bench.probing import Bucket, LoopMonitor, count_answers, largest_scene, poll_health
from bench.serving import Run, drive, frame, make_tables, until

#: Tables at human pace beside the hostile one (250 players).
HUMAN_TABLES = 50
#: Seconds a player waits after each acknowledgement (as ``bench.human``).
PAUSE = (2.0, 4.0)
#: The probe's reaches and wall counts.
REACHES = (10.0, 20.0, 40.0, 110.0)
WALL_COUNTS = (0, 150, 600)
#: The worst case's reaches and wall counts (:func:`parallel_scene`).
PARALLEL_REACHES = (3.0, 5.0, 10.0)
PARALLEL_WALLS = (5, 20, 40)
SIDE = 400
#: The tower cases, and the scene each moves the tower in: the longest accepted reach,
#: and a control of the same messages with a reach of 1 m (what the messages cost
#: whatever the reach: a move is committed and broadcast, a query answered).
TOWER_CASES = {"long-reach tower": "tower_scene", "1 m reach control": "control_scene"}
TOWER = (200, 200)


def lattice(count: int, variant: int = 0) -> list[dict[str, Any]]:
    """``count`` one-square walls on a square lattice 220 m across around the tower
    (``variant`` shifts it a square: another scene of the same size)."""
    if not count:
        return []
    side = int(count**0.5 + 0.999)
    step = 220 / side
    walls: list[dict[str, Any]] = []
    for i, j in itertools.product(range(side), range(side)):
        if len(walls) == count:
            break
        x = round(TOWER[0] - 110 + i * step) + variant
        y = round(TOWER[1] - 110 + j * step)
        if (x, y) in ((200, 200), (201, 200), (202, 200), (201, 201)):
            continue  # not across the scout's walled-in square
        walls.append(_wall(f"w{len(walls)}", (x, y), (x + 1, y)))
    return walls


def _wall(wall_id: str, a: tuple[float, float], b: tuple[float, float]) -> dict[str, Any]:
    return {"id": wall_id, "a": [float(a[0]), float(a[1])], "b": [float(b[0]), float(b[1])],
            "blocks_move": True, "blocks_sight": True, "door": "none"}  # fmt: skip


def tower_scene(reach: float, walls: int = 600, variant: int = 0) -> dict[str, Any]:
    """The probe's scene (module docstring) as a ``load_scene`` body's ``scene``."""

    def token(tid: str, owner: str, x: int, side: str, reach: float) -> dict[str, Any]:
        return {"id": tid, "name": tid, "owner": owner, "side": side, "x": x, "y": TOWER[1],
                "size": 1, "reach": reach, "movement": 6.0,
                "stats": {"ocv": 3, "dcv": 3, "init": 8}}  # fmt: skip

    # The scout's square (201, 200), walled in on every side.
    room = [((201, 200), (202, 200)), ((202, 200), (202, 201)), ((202, 201), (201, 201)),
            ((201, 201), (201, 200))]  # fmt: skip
    return {
        "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": SIDE,
                 "height": SIDE, "vtt": {"kind": "foundry", "grid_size": 100}},
        "tokens": [token("tower", "gm", TOWER[0], "monsters", reach),
                   token("scout", "p0", TOWER[0] + 1, "heroes", 1.0)],
        "walls": [_wall(f"room{i}", a, b) for i, (a, b) in enumerate(room)]
        + lattice(walls, variant),
    }  # fmt: skip


def parallel_scene(reach: float, count: int) -> dict[str, Any]:
    """The tower with ``count`` long walls across its whole reach, parallel, a quarter
    square off the grid lines: every reach line eastward or westward crosses several,
    the worst the cost model prices (:data:`geometry.cost.PAIR_US`)."""
    scene = tower_scene(reach, 0)
    k = math.ceil(reach + 0.5) - 1
    scene["walls"] = [
        _wall(f"p{i}", (x, TOWER[1] - k - 1.0), (x, TOWER[1] + k + 2.0))
        for i in range(count)
        for x in [round((TOWER[0] - k + (2 * k + 1) * (i + 0.5) / count) * 2) / 2 + 0.25]
    ]
    return scene


def engine_scene(scene: dict[str, Any]) -> Any:
    """The engine's scene for a wire ``scene`` body, decoded as the bridge decodes it."""
    import protocol
    from vtt_bridge.translate import scene_from_spec

    message = protocol.decode_client(frame("load_scene", 1, {"scene": scene}))
    assert isinstance(message, protocol.LoadScene)
    return scene_from_spec(message.scene)


def refusal(scene: dict[str, Any]) -> str | None:
    """Why ``load_scene`` refuses ``scene`` (its ``bad_scene`` message), or None."""
    from engine.errors import CommandRejected
    from engine.scene_checks import check_scene

    try:
        check_scene(engine_scene(scene))
    except CommandRejected as exc:
        return str(exc)
    return None


def longest_accepted_reach(walls: int = 600) -> float:
    """The longest whole-metre reach the limits accept for the tower among ``walls``."""
    low, high = 1, 110
    while low < high:  # bisect: accepted at low, refused above high
        mid = (low + high + 1) // 2
        if refusal(tower_scene(float(mid), walls)) is None:
            low = mid
        else:
            high = mid - 1
    return float(low)


# -- the cost model's measurements (--model) ---------------------------------------------


def model(rounds: int) -> list[dict[str, Any]]:
    """Per reach and wall count: CPU ms of building the engine's index, the first
    threat and a one-square move with its threat (medians of ``rounds``), beside the
    price and whether the scene loads (module docstring)."""
    from engine.scene_checks import MAX_THREAT_MS
    from engine.spatial import build_index
    from geometry.cost import most_walls_near, reach_box_side, reach_span, threat_cost_ms

    lattices = itertools.product(WALL_COUNTS, REACHES)
    parallels = itertools.product(PARALLEL_WALLS, PARALLEL_REACHES)
    layouts = [("lattice", r, w, tower_scene(r, w)) for w, r in lattices]
    layouts += [("parallel", r, w, parallel_scene(r, w)) for w, r in parallels]
    rows = []
    for layout, reach, walls, wire in layouts:
        scene = engine_scene(wire)
        grid = scene.grid.build()
        side = reach_box_side(grid, 1, reach)
        near = most_walls_near(grid, [(w.a, w.b) for w in scene.walls], [side])[side]
        span = reach_span(grid, 1, reach)
        build, first, move = [], [], []
        for _ in range(rounds):
            began = time.process_time()
            index = build_index(scene)
            build.append(time.process_time() - began)
            began = time.process_time()
            index.threatened("tower")
            first.append(time.process_time() - began)
            began = time.process_time()
            index.move_token("tower", (TOWER[0], TOWER[1] - 1), shared=True)
            index.threatened("tower")
            move.append(time.process_time() - began)
        priced = threat_cost_ms(grid, span, near)
        rows.append({
            "layout": layout, "reach_m": reach, "walls": walls, "span_cells": span,
            "walls_near": near,
            "build_ms": round(statistics.median(build) * 1000, 2),
            "first_threat_ms": round(statistics.median(first) * 1000, 2),
            "move_threat_ms": round(statistics.median(move) * 1000, 2),
            "priced_ms": round(priced, 2), "accepted": priced <= MAX_THREAT_MS,
        })  # fmt: skip
    return rows


def print_model(rows: list[dict[str, Any]]) -> None:
    """The model's table."""
    print("the tower's threat, in-process on the engine's index (CPU ms, medians):")
    print(f"  {'layout':>8} {'reach':>5} {'walls':>5} {'cells':>6} {'near':>5} {'build':>7} "
          f"{'first':>8} {'move':>8} {'priced':>8}  loads")  # fmt: skip
    for r in rows:
        print(f"  {r['layout']:>8} {r['reach_m']:>5g} {r['walls']:>5} {r['span_cells']:>6} "
              f"{r['walls_near']:>5} "
              f"{r['build_ms']:>7} {r['first_threat_ms']:>8} {r['move_threat_ms']:>8} "
              f"{r['priced_ms']:>8}  {'yes' if r['accepted'] else 'refused'}")  # fmt: skip


# -- a crowd's first question, a door, Cyberpunk RED's ask_options (--crowd) -------------


def crowd(rounds: int) -> list[dict[str, Any]]:
    """The commands that work out many tokens at once, in-process (thread CPU ms,
    medians of ``rounds``): the first ``areas_at`` in a packed crowd after a load, a door
    closing in the middle of it, and Cyberpunk RED's ``ask_options`` for a rifleman
    boxed in (nobody in sight) or in the open beside 299 and 1,999 others."""
    from engine.model import Combatant, GridSpec, Scene, WallSpec
    from engine.spatial import build_index

    def median_ms(work: Any, setup: Any) -> float:
        times = []
        for _ in range(rounds):
            subject = setup()
            began = time.thread_time()
            work(subject)
            times.append(time.thread_time() - began)
        return round(statistics.median(times) * 1000, 2)

    def packed(n: int, reach: float, side: int, door: float) -> Scene:
        tokens = tuple(
            Combatant(
                f"t{i:04d}",
                "T",
                "gm",
                "a",
                50 + i % side,
                50 + i // side,
                reach=reach,
                movement=6.0,
            )
            for i in range(n)
        )
        y = 57.0 - door / 2
        walls = (WallSpec("door", (57.0, y), (57.0, y + door), door="open"),) if door else ()
        return Scene(GridSpec(120, 120), tokens, walls)

    def worked_out(scene: Scene) -> Any:
        index = build_index(scene)
        index.work_out_everything()
        return index

    rows: list[dict[str, Any]] = []
    for n, reach, side in ((200, 7.0, 15), (2000, 2.0, 45)):
        scene = packed(n, reach, side, 0.0)
        ms = median_ms(lambda index: index.areas_at((57, 57)), lambda s=scene: build_index(s))
        rows.append({"case": f"first question, {n} packed, {reach:g} m reach", "ms": ms})
        for door in (2.0, 40.0):
            scene = packed(n, reach, side, door)
            ms = median_ms(
                lambda index: index.set_door("door", False), lambda s=scene: worked_out(s)
            )
            rows.append({"case": f"a {door:g} m door closes, {n} packed, {reach:g} m", "ms": ms})
    for n in (300, 2000):
        for boxed in (True, False):
            encounter = _cpr_crowd(n, boxed)
            encounter.options("rifleman")  # the index's first question, paid once
            ms = median_ms(lambda e: e.options("rifleman"), lambda e=encounter: e)
            where = "boxed in" if boxed else "in the open"
            rows.append({"case": f"Cyberpunk RED ask_options, {n} tokens, {where}", "ms": ms})
    return rows


def _cpr_crowd(n: int, boxed: bool) -> Any:
    """A Cyberpunk RED fight on 2 m squares: a rifleman first (REF 20) at (1, 1), walled
    into a 4 x 3 m room or not, and ``n - 1`` others from row 4 on."""
    from engine import Encounter, LoadScene, StartCombat
    from engine.model import Combatant, GridSpec, Scene, WallSpec

    def cpr(tid: str, x: int, y: int, **stats: Any) -> Combatant:
        return Combatant(
            tid, tid, "gm", "a", x, y, reach=2.0, movement=0.0, stats=tuple(sorted(stats.items()))
        )

    tokens = [cpr("rifleman", 1, 1, ref=20, move=4, **{"weapon.rifle": 1, "hand.right": "rifle"})]
    tokens += [cpr(f"t{k:04d}", 2 * (k % 30), 4 + k // 30, ref=1, move=4) for k in range(n - 1)]
    room = (((0.0, 0.0), (8.0, 0.0)), ((0.0, 6.0), (8.0, 6.0)), ((0.0, 0.0), (0.0, 6.0)),
            ((8.0, 0.0), (8.0, 6.0)))  # fmt: skip
    walls = tuple(WallSpec(f"w{i}", a, b) for i, (a, b) in enumerate(room)) if boxed else ()
    encounter = Encounter()
    rows = 4 + n // 30 + 1
    encounter.apply(LoadScene("gm", Scene(GridSpec(60, rows, cell_size=2.0), tuple(tokens), walls)))
    encounter.apply(StartCombat("gm", "cyberpunk-red", 1))
    return encounter


# -- the hostile tables under bench.neighbour --------------------------------------------


def prepare(db: Path) -> dict[str, Any]:
    """Before the bridge starts: the human-pace tables and the hostile table in ``db``,
    and what the hostile GM will send (built here, not while the load is measured)."""
    from vtt_bridge.hub import Hub
    from vtt_bridge.store import Store

    humans = make_tables(db, 0, HUMAN_TABLES)
    hub = Hub(Store(db))
    try:
        table = hub.create_table("hostile-reach", ["p0"])
        tokens = {t.participant: t.token for t in table.tokens.values()}
    finally:
        hub.close()
    reach = longest_accepted_reach()
    return {
        "humans": humans,
        "gm": tokens["gm"],
        "player": tokens["p0"],
        "probe_scene": tower_scene(110.0),
        "tower_scene": tower_scene(reach),
        "tower_reach_m": reach,
        "control_scene": tower_scene(1.0),
        "reloads": [largest_scene(variant=1), largest_scene()],
    }


async def _joined(http: aiohttp.ClientSession, url: str, token: str) -> Any:
    ws = await http.ws_connect(url, max_msg_size=0, compress=0)
    await ws.send_bytes(frame("join", 1, {"token": token, "last_event": None}))
    await until(ws, "welcome")
    return ws


async def hostile(url: str, plan: dict[str, Any], case: str, stop_at: float) -> dict[str, Any]:
    """The hostile table's GM (and, for the tower, its player) sending ``case`` as fast
    as the default rate limit allows until ``stop_at``; what they were answered."""
    import protocol
    from vtt_bridge.config import Config
    from vtt_bridge.costs import extra_cost, frame_cost

    defaults = Config()
    answers: Counter[str] = Counter()
    report: dict[str, Any] = {"answers": answers}

    def priced(kind: str, seq: int, body: dict[str, Any]) -> tuple[bytes, int]:
        data = frame(kind, seq, body)
        return data, frame_cost(len(data)) + extra_cost(protocol.decode_client(data))

    async def send(ws: Any, bucket: Bucket, frames: Any) -> None:
        for data, cost in frames:
            if time.perf_counter() >= stop_at:
                return
            await bucket.take(cost)
            await ws.send_bytes(data)

    async with aiohttp.ClientSession() as http:
        gm = await _joined(http, url, plan["gm"])
        player = await _joined(http, url, plan["player"])
        readers = [asyncio.create_task(count_answers(ws, answers, report)) for ws in (gm, player)]
        gm_bucket = Bucket(defaults.rate_limit, defaults.rate_burst)
        player_bucket = Bucket(defaults.rate_limit, defaults.rate_burst)
        seq = itertools.count(2)
        if case in TOWER_CASES:
            # The probe's scene first: refused before anything is built.
            for scene in (plan["probe_scene"], plan[TOWER_CASES[case]]):
                await send(gm, gm_bucket, [priced("load_scene", next(seq), {"scene": scene})])
            cells = itertools.cycle([[TOWER[0], TOWER[1] - 1], [TOWER[0], TOWER[1]]])
            moves = (priced("move", next(seq), {"token": "tower", "path": [next(cells)]})
                     for _ in itertools.count())  # fmt: skip
            asks = (priced("ask_threat", next(seq), {"token": "tower"}) for _ in itertools.count())
            await asyncio.gather(send(gm, gm_bucket, moves), send(player, player_bucket, asks))
        else:
            reloads = itertools.cycle(plan["reloads"])
            frames = (
                frame_pair
                for _ in itertools.count()
                for frame_pair in (
                    priced("load_scene", next(seq), {"scene": next(reloads)}),
                    priced("ask_path", next(seq), {"token": "hero", "to": [6, 6]}),
                )
            )
            await send(gm, gm_bucket, frames)
        await asyncio.sleep(1.0)  # the last answers
        for task in readers:
            task.cancel()
        await gm.close()
        await player.close()
    report["answers"] = dict(answers)
    return report


async def _health(port: int, stop_at: float) -> list[float]:
    return await poll_health(port, stop_at)


async def run_cases(
    url: str, port: int, plan: dict[str, Any], warmup: float, seconds: float, rounds: int = 1
) -> dict[str, Any]:
    """Per hostile case, the human-pace tables quiet and then beside it (a quiet run
    before each case: the machine's other load drifts over a run), ``rounds`` times
    over, interleaved, each case's acknowledgements and ``/healthz`` times pooled over
    its rounds (a reload every 1.5 s meets a handful of the 850 acknowledgements of a
    window, so one run's p99 swings with where they fall); and, first, in this process,
    what each hostile message costs the event loop (:func:`loop_blocks`)."""
    humans = plan["humans"]
    span = warmup + seconds
    result: dict[str, Any] = {"tables": len(humans), "pause_s": list(PAUSE),
                              "tower_reach_m": plan["tower_reach_m"], "rounds": rounds,
                              "loop_cpu": await loop_blocks(plan)}  # fmt: skip
    cases = (*TOWER_CASES, "largest-scene reload")
    pooled: dict[str, dict[str, Any]] = {
        case: {"quiet": Run(), "quiet_health": [], "run": Run(), "health": [], "reports": []}
        for case in cases
    }
    setup = True
    for _ in range(rounds):
        for case in cases:
            stop_at = time.perf_counter() + span + PAUSE[1]
            quiet, health = await asyncio.gather(
                drive(url, humans, warmup + PAUSE[1], seconds, setup=setup, pause=PAUSE),
                _health(port, stop_at),
            )
            setup = False
            stop_at = time.perf_counter() + span + PAUSE[1]
            run, noisy_health, report = await asyncio.gather(
                drive(url, humans, warmup + PAUSE[1], seconds, setup=False, pause=PAUSE),
                _health(port, stop_at),
                hostile(url, plan, case, stop_at),
            )
            into = pooled[case]
            _pool(into["quiet"], quiet)
            _pool(into["run"], run)
            into["quiet_health"] += health
            into["health"] += noisy_health
            into["reports"].append(report)
    for case in cases:
        into = pooled[case]
        figures = _figures(into["run"], into["health"])
        figures["quiet"] = _figures(into["quiet"], into["quiet_health"])
        figures["p99_ratio"] = round(figures["p99_ack_ms"] / figures["quiet"]["p99_ack_ms"], 2)
        reports = into["reports"]
        figures["hostile"] = _merged(reports)
        figures["targets_met"] = {
            "p99_under_2x_quiet": figures["p99_ratio"] < 2.0,
            "p99_under_50_ms": figures["p99_ack_ms"] < 50.0,
            "healthz_p99_under_50_ms": figures["healthz_p99_ms"] < 50.0,
            "never_closed": all("closed" not in report for report in reports),
        }
        result[case] = figures
    return result


def _merged(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The hostile table's reports of every round as one: its answers summed, and
    whatever else a round reported (a close) kept, the last round's winning."""
    merged: dict[str, Any] = {}
    answers: Counter[str] = Counter()
    for report in reports:
        merged.update(report)
        answers.update(report.get("answers", {}))
    merged["answers"] = dict(answers)
    return merged


def _pool(into: Run, run: Run) -> None:
    """Add ``run``'s acknowledgements and errors to ``into``."""
    into.acked += run.acked
    into.errors += run.errors
    into.latencies_ms += run.latencies_ms


async def loop_blocks(plan: dict[str, Any], rounds: int = 15) -> dict[str, dict[str, float]]:
    """Per hostile message, through a :class:`~vtt_bridge.hub.Hub` on a SQLite file in
    this process, as ``bench.neighbour --cpu-only`` measures: the loop thread's CPU per
    message and the longest stretch it ran without a break, medians of ``rounds``, ms."""
    import tempfile

    import protocol
    from vtt_bridge.hub import Hub
    from vtt_bridge.store import Store
    from vtt_bridge.tables import Session

    def deliver(message: protocol.ServerMessage) -> None:
        protocol.encode_msgpack(message)  # the writer's work, done at once here

    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(Store(Path(tmp) / "cpu.sqlite3"))
        try:
            table = hub.create_table("cpu", ["p0"])
            tokens = {t.participant: t.token for t in table.tokens.values()}
            gm, player = Session("gm", deliver), Session("p0", deliver)
            for session, who in ((gm, "gm"), (player, "p0")):
                body = {"token": tokens[who], "last_event": None}
                await hub.receive(session, frame("join", 1, body), 0)
            seq = itertools.count(2)
            await hub.receive(gm, frame("load_scene", next(seq), {"scene": plan["tower_scene"]}), 0)
            await hub.drain()
            cells = itertools.cycle([[TOWER[0], TOWER[1] - 1], [TOWER[0], TOWER[1]]])
            reloads = itertools.cycle(plan["reloads"])
            kinds: dict[str, Any] = {
                "load_scene (tower refused)": lambda: [
                    (gm, "load_scene", {"scene": plan["probe_scene"]})
                ],
                "move tower one square": lambda: [
                    (gm, "move", {"token": "tower", "path": [next(cells)]})
                ],
                "ask_threat tower": lambda: [(player, "ask_threat", {"token": "tower"})],
                "load_scene (largest)": lambda: [(gm, "load_scene", {"scene": next(reloads)})],
                "ask_path after it": lambda: [(gm, "ask_path", {"token": "hero", "to": [6, 6]})],
            }
            out: dict[str, dict[str, float]] = {}
            for label, make in kinds.items():
                cpu, longest = [], []
                for _ in range(rounds):
                    if label == "ask_path after it":  # after a fresh reload, untimed
                        body = {"scene": next(reloads)}
                        await hub.receive(gm, frame("load_scene", next(seq), body), 0)
                        await hub.drain()
                    frames = [(who, frame(k, next(seq), b)) for who, k, b in make()]
                    monitor = LoopMonitor()
                    watching = asyncio.create_task(monitor.run())
                    await asyncio.sleep(0.002)
                    began = time.thread_time()
                    for who, data in frames:
                        await hub.receive(who, data, 0)
                        await hub.drain()
                    cpu.append(time.thread_time() - began)
                    await asyncio.sleep(0.002)
                    monitor.stop()
                    await watching
                    longest.append(monitor.longest)
                out[label] = {
                    "cpu_ms": round(statistics.median(cpu) * 1000, 2),
                    "block_ms": round(statistics.median(longest) * 1000, 2),
                    "max_block_ms": round(max(longest) * 1000, 2),
                }
            return out
        finally:
            hub.close()


def _figures(run: Any, health: list[float]) -> dict[str, Any]:
    return {
        "acked": run.acked,
        "errors": run.errors,
        "p50_ack_ms": round(percentile(run.latencies_ms, 50), 2),
        "p99_ack_ms": round(percentile(run.latencies_ms, 99), 2),
        "max_ack_ms": round(max(run.latencies_ms), 2),
        "healthz_p99_ms": round(percentile(health, 99), 2),
    }


def print_cases(result: dict[str, Any]) -> None:
    """The hostile cases' table (under ``bench.neighbour``'s)."""
    print("hostile messages' event-loop CPU (in-process, the loop thread's clock, medians):")
    print(f"  {'message':32} {'CPU ms':>8} {'longest block ms':>17} {'worst of rounds':>16}")
    for label, row in result["loop_cpu"].items():
        print(f"  {label:32} {row['cpu_ms']:>8} {row['block_ms']:>17} {row['max_block_ms']:>16}")
    print(
        f"hostile tables beside {result['tables']} tables at human pace (a move every "
        f"{result['pause_s'][0]:g} to {result['pause_s'][1]:g} s), each case after a quiet "
        f"run of its own; the tower's reach: {result['tower_reach_m']:g} m (the longest "
        "accepted among 600 walls)"
    )
    cases = [k for k in result if k not in ("loop_cpu",) and isinstance(result[k], dict)]
    print(f"  {'':22}" + "".join(f"{c:>24}" for c in cases))
    for label, key in (("quiet ack p99 ms", "p99_ack_ms"), ("quiet /healthz p99 ms",
                       "healthz_p99_ms")):  # fmt: skip
        print(f"  {label:22}" + "".join(f"{result[c]['quiet'][key]:>24}" for c in cases))
    for label, key in (("ack p50 ms", "p50_ack_ms"), ("ack p99 ms", "p99_ack_ms"),
                       ("ack max ms", "max_ack_ms"), ("/healthz p99 ms", "healthz_p99_ms"),
                       ("p99 / quiet", "p99_ratio")):  # fmt: skip
        print(f"  {label:22}" + "".join(f"{result[c][key]:>24}" for c in cases))
    for case in cases:
        print(f"  {case}: answered {result[case]['hostile']['answers']}")
        print(f"  {case}: targets met {result[case]['targets_met']}")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hostile_reach", description=__doc__)
    parser.add_argument("--model", action="store_true", help="measure the cost model's table")
    parser.add_argument(
        "--crowd", action="store_true", help="measure a crowd's first question, a door, ask_options"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    if options.crowd:
        rows = crowd(max(options.rounds, 5))
        if options.json:
            print(json.dumps(rows))
        else:
            print("commands that work out many tokens at once (thread CPU ms, medians):")
            for row in rows:
                print(f"  {row['ms']:>8} {row['case']}")
        return 0
    if not options.model:
        parser.error(
            "run the hostile tables with python -m bench.neighbour; here only --model, --crowd"
        )
    rows = model(options.rounds)
    if options.json:
        print(json.dumps(rows))
    else:
        print_model(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
