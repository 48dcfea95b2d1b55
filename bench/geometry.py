"""Measure resolving one move with :class:`geometry.index.ThreatIndex` against a baseline.

``python -m bench.geometry`` prints a table; ``--json`` prints one JSON object whose
``cases`` list holds, per case, ``tokens``, ``walls``, ``p50_us``, ``p99_us``,
``baseline_p50_us`` and ratios.  Scene: a 100x100 grid of 1 m squares, tokens on random
free cells (one in ten 2x2, one in five with 2 m reach), walls of 1-3 m along grid lines;
a move is a random 12-square walk of a one-square token: its cost, the wall check and
every threatened-area exit, as the issue defines it and as the engine resolves a move
(``resolve_move(..., crossings=False)``).  The timed region is ``resolve_move`` plus
counting the exits it returns (built eagerly) and dropping the result; every field of
every exit is read and checked outside the timing.  The same moves are also timed with
every enter/leave crossing built too (``p50_crossings_us``), which readied-action areas
use.

The baseline is the straightforward way, measured in the same run on the same moves:
for every other token build its shapely reach polygon and test the path's cell centres
against it; test every step's segment against every wall; no index, nothing cached.
On wall-free cases both must report the same crossings and exits, which is checked.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import shapely
from shapely.geometry import LineString

from bench._stats import percentile
from geometry import (
    Crossing,
    CrossingKind,
    MoveResolution,
    SquareGrid,
    ThreatIndex,
    Wall,
    WallSet,
    reach_area,
)
from geometry.index import Token

SIZE = 100
STEPS = 12
CASES = [(t, w) for w in (0, 2000) for t in (20, 200, 2000)]


@dataclass
class Scene:
    """One benchmark scene: the index, the raw tokens and walls, and the moves."""

    grid: SquareGrid
    index: ThreatIndex
    tokens: list[Token]
    wall_geoms: np.ndarray
    moves: list[tuple[str, list[tuple[int, int]]]]


def build_scene(n_tokens: int, n_walls: int, n_moves: int, seed: int) -> Scene:
    """A reproducible scene and ``n_moves`` moves (seeded, so every run is the same)."""
    rng = random.Random(seed)
    grid = SquareGrid(SIZE, SIZE, 1.0)
    walls: list[Wall] = []
    while len(walls) < n_walls:
        x, y, length = rng.randrange(SIZE), rng.randrange(SIZE), rng.randint(1, 3)
        if rng.random() < 0.5:
            walls.append(Wall((x, y), (min(SIZE, x + length), y)))
        else:
            walls.append(Wall((x, y), (x, min(SIZE, y + length))))
    wall_set = WallSet(walls)
    index = ThreatIndex(grid, wall_set)
    occupied: set[tuple[int, int]] = set()
    tokens: list[Token] = []
    while len(tokens) < n_tokens:
        size = 2 if rng.random() < 0.1 else 1
        reach = 2.0 if rng.random() < 0.2 else 1.0
        origin = (rng.randrange(SIZE - size + 1), rng.randrange(SIZE - size + 1))
        cells = grid.footprint(origin, size)
        if cells & occupied:
            continue
        occupied |= cells
        tok = Token(f"t{len(tokens)}", origin, size, reach)
        index.add_token(tok.token_id, origin, size=size, reach=reach)
        tokens.append(tok)
    # Moves are timed on a ready index: the index works each region out on the first
    # question there (``geometry.index``), a one-off this bench is not about.
    index.work_out_everything()
    movers = [t for t in tokens if t.size == 1]
    moves = []
    for _ in range(n_moves):
        mover = rng.choice(movers)
        path = [mover.origin]
        while len(path) <= STEPS:
            nxt = rng.choice(grid.neighbours(path[-1]))
            if len(path) < 2 or nxt != path[-2]:
                path.append(nxt)
        moves.append((mover.token_id, path))
    geoms = shapely.linestrings([[w.a, w.b] for w in walls]) if walls else np.empty(0, object)
    return Scene(grid, index, tokens, geoms, moves)


def baseline_resolve(
    scene: Scene, token_id: str, path: list[tuple[int, int]]
) -> tuple[float, int | None, list[tuple[str, str, int]], list[tuple[str, int]]]:
    """The naive resolution: reach polygons and wall segments tested one by one."""
    grid = scene.grid
    cost = grid.path_cost(path)
    blocked = None
    for i, (a, b) in enumerate(pairwise(path)):
        seg = LineString([grid.center(a), grid.center(b)])
        if len(scene.wall_geoms) and bool(np.any(shapely.intersects(seg, scene.wall_geoms))):
            blocked = i
            break
    xs = np.array([grid.center(c)[0] for c in path])
    ys = np.array([grid.center(c)[1] for c in path])
    events: list[tuple[int, int, str, str]] = []
    exits: list[tuple[str, int]] = []
    for tok in scene.tokens:
        if tok.token_id == token_id:
            continue
        poly = reach_area(grid, tok.origin, tok.size, tok.reach)
        own = grid.footprint(tok.origin, tok.size)
        inside = [
            bool(hit) and c not in own
            for hit, c in zip(shapely.contains_xy(poly, xs, ys), path, strict=True)
        ]
        for i in range(len(path) - 1):
            if inside[i] != inside[i + 1]:
                kind = "leave" if inside[i] else "enter"
                events.append((i, 0 if inside[i] else 1, tok.token_id, kind))
        first = next((i for i in range(len(path) - 1) if inside[i]), None)
        if first is not None:
            exits.append((tok.token_id, first))
    events.sort()
    exits.sort(key=lambda e: (e[1], e[0]))
    return cost, blocked, [(e[2], e[3], e[0]) for e in events], exits


def _summary(crossings: tuple[Crossing, ...]) -> list[tuple[str, str, int]]:
    return [
        (c.area_id, "leave" if c.kind is CrossingKind.LEAVE else "enter", c.step) for c in crossings
    ]


def _read_all(res: MoveResolution) -> int:
    """Read every field of every crossing and exit (checks them); returns their number."""
    for c in res.crossings:
        if not (c.area_id and c.kind in CrossingKind and c.step >= 0 and len(c.point) == 2):
            raise SystemExit(f"malformed crossing {c!r}")
    for e in res.exits:
        if not (e.area_id and e.step >= 0 and len(e.cell) == 2 and len(e.point) == 2):
            raise SystemExit(f"malformed exit {e!r}")
    return len(res.crossings) + len(res.exits)


def run_case(n_tokens: int, n_walls: int, seed: int, quick: bool) -> dict[str, float | int]:
    """Time the index and the baseline on one scene; returns the case's figures."""
    n_moves = 200 if quick else 1000
    scene = build_scene(n_tokens, n_walls, n_moves, seed)
    index = scene.index
    # Warm up, then time every move (each several times: p99 needs samples).
    for token_id, path in scene.moves[:50]:
        index.resolve_move(token_id, path)
    samples: list[float] = []
    with_crossings: list[float] = []
    clock = time.perf_counter_ns
    reps = 3 if quick else 5
    consumed = 0
    for _ in range(reps):
        for token_id, path in scene.moves:
            t0 = clock()
            res = index.resolve_move(token_id, path, crossings=False)
            # Consume the result inside the timed region: every exit is already built
            # (named tuples, nothing lazy), so counting them is enough.
            consumed += len(res.exits)
            del res
            samples.append((clock() - t0) / 1000)
            t0 = clock()
            full = index.resolve_move(token_id, path)
            consumed += len(full.crossings) + len(full.exits)
            del full
            with_crossings.append((clock() - t0) / 1000)
    n_base = max(10, min(len(scene.moves), int(60_000 / max(20, n_tokens)) // (4 if quick else 1)))
    base = []
    for token_id, path in scene.moves[:n_base]:
        t0 = clock()
        b_cost, _, b_events, b_exits = baseline_resolve(scene, token_id, path)
        base.append((clock() - t0) / 1000)
        res = index.resolve_move(token_id, path)
        if abs(res.cost - b_cost) > 1e-9:
            raise SystemExit(f"cost mismatch on {path}: {res.cost} vs {b_cost}")
        if n_walls == 0:
            exits = sorted(((e.area_id, e.step) for e in res.exits), key=lambda e: (e[1], e[0]))
            if _summary(res.crossings) != b_events or exits != b_exits:
                raise SystemExit(f"index and baseline disagree on {token_id} {path}")
    exits_only = [_read_all(index.resolve_move(t, p, crossings=False)) for t, p in scene.moves]
    events = [_read_all(index.resolve_move(t, p)) for t, p in scene.moves]
    if (sum(exits_only) + sum(events)) * reps != consumed:
        raise SystemExit("timed runs and the check run reported different event counts")
    p50, p99, bp50 = percentile(samples, 50), percentile(samples, 99), percentile(base, 50)
    return {
        "tokens": n_tokens,
        "walls": n_walls,
        "moves": len(samples),
        "p50_us": round(p50, 2),
        "p99_us": round(p99, 2),
        "baseline_p50_us": round(bp50, 2),
        "speedup_p50": round(bp50 / p50, 1),
        "exits_per_move": round(sum(exits_only) / len(exits_only), 1),
        "p50_crossings_us": round(percentile(with_crossings, 50), 2),
        "events_per_move": round(sum(events) / len(events), 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run every case and print the table (or ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m bench.geometry", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer samples (smoke test)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    cases = [run_case(t, w, args.seed, args.quick) for t, w in CASES]
    by_key = {(c["tokens"], c["walls"]): c for c in cases}
    target = by_key[(200, 2000)]
    checks = {
        "p99_200_tokens_2000_walls_le_100us": float(target["p99_us"]) <= 100.0,
        "speedup_200_tokens_2000_walls_ge_10x": float(target["speedup_p50"]) >= 10.0,
        "p50_2000_le_2x_p50_20": all(
            float(by_key[(2000, w)]["p50_us"]) <= 2 * float(by_key[(20, w)]["p50_us"])
            for w in (0, 2000)
        ),
    }
    result = {
        "grid": f"{SIZE}x{SIZE} squares of 1 m",
        "path_steps": STEPS,
        "seconds": round(time.perf_counter() - started, 1),
        "cases": cases,
        "targets": checks,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"resolve one {STEPS}-step move, {SIZE}x{SIZE} 1 m squares (times in microseconds)")
    header = (
        "tokens", "walls", "p50", "p99", "baseline p50", "baseline/index p50", "exits/move",
        "p50 with crossings", "crossings+exits/move",
    )  # fmt: skip
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for c in cases:
        print(
            f"| {c['tokens']} | {c['walls']} | {c['p50_us']} | {c['p99_us']} | "
            f"{c['baseline_p50_us']} | {c['speedup_p50']}x | {c['exits_per_move']} | "
            f"{c['p50_crossings_us']} | {c['events_per_move']} |"
        )
    for name, ok in checks.items():
        print(f"{name}: {'yes' if ok else 'NO'}")
    print(f"total {result['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
