"""Measure one gridless waypoint move with :class:`geometry.gridless_threat.GridlessThreats`.

``python -m bench.gridless [--json] [--quick]``.  Scene: 100 x 100 m without a grid,
200 disc tokens (radius 0.5 m, one in ten 1 m) with 1 m of reach (one in five 2 m), 2,000
walls of 1-3 m at any angle.  A move is a 0.5 m token's drag through three waypoints, 4 m
a segment, from where it stands: the timed region is :meth:`GridlessThreats.resolve`
(its length, the first segment a wall blocks for its width, every threatened region's
exact leave point) and reading every exit.

Two targets, both in the same run on the same moves:

* **ground**: p99 at most 100 us and at least 10x faster, at the median, than the
  straightforward shapely way: every other token's reach disc built as a polygon, less
  the shadow of every wall that meets it (nobody reaches through a wall), and crossed
  with :func:`geometry.gridless.crossings`, every segment measured against every wall,
  nothing indexed or cached.  Both must report the same regions left, at
  points within the polygons' approximation of a circle (checked).
* **elevation**: the same moves with the tokens at 0-6 m and the mover flying (a height
  per waypoint), against the same moves on the ground, timed in alternation: its p99 at
  most 1.5x the ground's.

Each move is timed ``--quick`` 3 or 5 times; besides the percentiles of every sample the
bench prints those of each move's fastest time (``best_of_reps``), the figure a quiet
machine gives: on a shared one the scheduler takes a few milliseconds from one sample
in fifty or so, which is the whole of a raw p99.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from bench._stats import percentile
from geometry import CrossingKind, Wall, WallSet
from geometry.gridless import GridlessScene
from geometry.gridless import crossings as polygon_crossings
from geometry.gridless_threat import GridlessResolution, GridlessThreats

SIZE = 100.0
TOKENS = 200
WALLS = 2000
SEGMENTS = 3
SEGMENT_M = 4.0
MOVER_RADIUS = 0.5


@dataclass
class Token:
    """One token of the bench scene."""

    token_id: str
    center: tuple[float, float]
    radius: float
    reach: float
    elevation: float


@dataclass
class Scene:
    """The two indexes (on the ground, in the air), the raw tokens and walls, the moves."""

    ground: GridlessThreats
    air: GridlessThreats
    tokens: list[Token]
    wall_geoms: np.ndarray
    moves: list[tuple[str, list[tuple[float, float]], list[float]]]


def build_scene(n_tokens: int, n_walls: int, n_moves: int, seed: int) -> Scene:
    """A reproducible scene and ``n_moves`` moves (seeded, so every run is the same)."""
    rng = random.Random(seed)
    scene = GridlessScene(SIZE, SIZE)
    walls = []
    for _ in range(n_walls):
        x, y = rng.uniform(0, SIZE), rng.uniform(0, SIZE)
        angle, length = rng.uniform(0, math.tau), rng.uniform(1, 3)
        end = (
            min(SIZE, max(0.0, x + length * math.cos(angle))),
            min(SIZE, max(0.0, y + length * math.sin(angle))),
        )
        walls.append(Wall((x, y), end))
    wall_set = WallSet(walls)
    ground, air = GridlessThreats(scene, wall_set), GridlessThreats(scene, wall_set)
    tokens: list[Token] = []
    while len(tokens) < n_tokens:
        radius = 1.0 if rng.random() < 0.1 else 0.5
        reach = 2.0 if rng.random() < 0.2 else 1.0
        center = (rng.uniform(2, SIZE - 2), rng.uniform(2, SIZE - 2))
        if any(math.dist(center, t.center) < radius + t.radius for t in tokens):
            continue
        tok = Token(f"t{len(tokens)}", center, radius, reach, rng.choice([0.0, 0.0, 2.0, 6.0]))
        ground.set_region(tok.token_id, center, radius + reach)
        air.set_region(tok.token_id, center, radius + reach, tok.elevation)
        tokens.append(tok)
    movers = [t for t in tokens if t.radius == MOVER_RADIUS]
    moves: list[tuple[str, list[tuple[float, float]], list[float]]] = []
    while len(moves) < n_moves:
        mover = rng.choice(movers)
        path = [mover.center]
        for _ in range(SEGMENTS):
            angle = rng.uniform(0, math.tau)
            x, y = path[-1]
            path.append((x + SEGMENT_M * math.cos(angle), y + SEGMENT_M * math.sin(angle)))
        if all(scene.contains(p) for p in path):
            heights = [mover.elevation] + [rng.choice([0.0, 1.0, 3.0, 5.0]) for _ in path[1:]]
            moves.append((mover.token_id, path, heights))
    geoms = shapely.linestrings([[w.a, w.b] for w in walls])
    return Scene(ground, air, tokens, geoms, moves)


def baseline_resolve(
    scene: Scene, token_id: str, path: list[tuple[float, float]]
) -> tuple[float, int | None, dict[str, tuple[int, tuple[float, float]]]]:
    """The naive way (module docstring): polygons and walls one by one, nothing kept."""
    cost = sum(math.dist(p, q) for p, q in pairwise(path))
    blocked = None
    for i, (p, q) in enumerate(pairwise(path)):
        near = shapely.distance(LineString([p, q]), scene.wall_geoms) < MOVER_RADIUS
        if bool(near.any()):
            blocked = i
            break
    areas: dict[str, BaseGeometry] = {
        t.token_id: _lit_disc(scene, t.center, t.radius + t.reach)
        for t in scene.tokens
        if t.token_id != token_id
    }
    first: dict[str, tuple[int, tuple[float, float]]] = {}
    for c in polygon_crossings(path, areas):
        if c.kind is CrossingKind.LEAVE and c.area_id not in first:
            first[c.area_id] = (c.step, c.point)
    return cost, blocked, first


def _lit_disc(scene: Scene, center: tuple[float, float], radius: float) -> BaseGeometry:
    """A reach disc as a polygon, less the shadows of the walls that meet it."""
    disc = ShapelyPoint(center).buffer(radius, quad_segs=16)
    shadows = []
    cx, cy = center
    far = 2 * radius + 1  # past the rim whatever the wall's ends
    for wall in scene.wall_geoms[shapely.intersects(scene.wall_geoms, disc)]:
        a, b = wall.coords
        # The wedge from the centre through the wall's ends (the short way round),
        # beyond the wall: its far edge an arc, as a wedge near a half-turn needs.
        start = math.atan2(a[1] - cy, a[0] - cx)
        turn = (math.atan2(b[1] - cy, b[0] - cx) - start + math.pi) % math.tau - math.pi
        arc = [
            (cx + far * math.cos(start + turn * k / 16), cy + far * math.sin(start + turn * k / 16))
            for k in range(17)
        ]
        shadows.append(Polygon([a, *arc, b]).buffer(0))
    return disc.difference(shapely.union_all(shadows)) if shadows else disc


def _read_all(res: GridlessResolution) -> int:
    for e in res.exits:
        if not (e.area_id and e.step >= 0 and len(e.point) == 2 and 0 <= e.t <= 1):
            raise SystemExit(f"malformed exit {e!r}")
    return len(res.exits)


def _check_against_baseline(scene: Scene, n: int) -> None:
    # Polygons of 64 sides cut a circle's rim by up to r (1 - cos(pi / 64)), ~3 mm at
    # 2.5 m; a path grazing a rim may cross one and not the other: those are skipped.
    for token_id, path, _ in scene.moves[:n]:
        cost, _, first = baseline_resolve(scene, token_id, path)
        res = scene.ground.resolve(path, radius=MOVER_RADIUS, ignore=token_id)
        if abs(res.cost - cost) > 1e-9:
            raise SystemExit(f"cost mismatch on {path}: {res.cost} vs {cost}")
        mine = {e.area_id: (e.step, e.point) for e in res.exits}
        for area_id in set(mine) ^ set(first):
            center, radius, _ = scene.ground.region(area_id)
            if not _grazes(path, center, radius, _lit_disc(scene, center, radius)):
                raise SystemExit(f"index and baseline disagree on {area_id} along {path}")
        for area_id in set(mine) & set(first):
            if math.dist(mine[area_id][1], first[area_id][1]) > 0.05:
                raise SystemExit(f"exit points differ for {area_id} along {path}")


def _grazes(
    path: list[tuple[float, float]],
    center: tuple[float, float],
    radius: float,
    area: BaseGeometry,
) -> bool:
    """Whether the path only brushes the area's edge (a rim, a shadow's edge or a corner
    of either) or starts or turns on it: there a polygon and the exact rule may part."""
    line = LineString(path)
    edge = area.boundary
    corners = shapely.points(shapely.get_coordinates(edge))
    return (
        abs(line.distance(ShapelyPoint(center)) - radius) < 0.01
        or any(abs(math.dist(p, center) - radius) < 0.01 for p in path)
        or any(edge.distance(ShapelyPoint(p)) < 0.01 for p in path)
        or bool((shapely.distance(corners, line) < 0.01).any())
    )


def run(seed: int, quick: bool) -> dict[str, object]:
    """Time the ground case against the baseline and the elevation case against the
    ground, on the same moves; returns the figures and the targets met."""
    n_moves = 200 if quick else 1000
    scene = build_scene(TOKENS, WALLS, n_moves, seed)
    for token_id, path, heights in scene.moves[:50]:  # warm up
        scene.ground.resolve(path, radius=MOVER_RADIUS, ignore=token_id)
        scene.air.resolve(path, heights, radius=MOVER_RADIUS, ignore=token_id)
    clock = time.perf_counter_ns
    reps = 3 if quick else 5
    # Per move, one sample per repetition: the percentiles are over all samples; the
    # "best of" figures take each move's fastest repetition first, which drops the
    # milliseconds a busy machine's scheduler takes from a sample now and then.
    ground_by_move: list[list[float]] = [[] for _ in scene.moves]
    air_by_move: list[list[float]] = [[] for _ in scene.moves]
    consumed = 0
    for rep in range(reps):
        for i, (token_id, path, heights) in enumerate(scene.moves):
            # Each pair in alternating order: the second of a pair finds the same walls
            # warm in the caches, which must not favour one case.
            for flying in (rep % 2 == 1, rep % 2 == 0):
                t0 = clock()
                if flying:
                    res = scene.air.resolve(path, heights, radius=MOVER_RADIUS, ignore=token_id)
                else:
                    res = scene.ground.resolve(path, radius=MOVER_RADIUS, ignore=token_id)
                consumed += len(res.exits)
                (air_by_move if flying else ground_by_move)[i].append((clock() - t0) / 1000)
    ground = [t for ts in ground_by_move for t in ts]
    air = [t for ts in air_by_move for t in ts]
    ground_best = [min(ts) for ts in ground_by_move]
    air_best = [min(ts) for ts in air_by_move]
    base: list[float] = []
    for token_id, path, _ in scene.moves[: 50 if quick else 200]:
        t0 = clock()
        baseline_resolve(scene, token_id, path)
        base.append((clock() - t0) / 1000)
    _check_against_baseline(scene, 50 if quick else 200)
    exits = [
        _read_all(scene.ground.resolve(p, radius=MOVER_RADIUS, ignore=t)) for t, p, _ in scene.moves
    ]
    air_exits = [
        _read_all(scene.air.resolve(p, h, radius=MOVER_RADIUS, ignore=t)) for t, p, h in scene.moves
    ]
    if consumed != (sum(exits) + sum(air_exits)) * reps:
        raise SystemExit("timed runs and the check run reported different exit counts")
    p50, p99 = percentile(ground, 50), percentile(ground, 99)
    a50, a99 = percentile(air, 50), percentile(air, 99)
    b50 = percentile(base, 50)
    return {
        "scene": f"{SIZE:g} x {SIZE:g} m gridless",
        "tokens": TOKENS,
        "walls": WALLS,
        "segments": SEGMENTS,
        "moves": len(ground),
        "p50_us": round(p50, 2),
        "p99_us": round(p99, 2),
        "baseline_p50_us": round(b50, 2),
        "speedup_p50": round(b50 / p50, 1),
        "exits_per_move": round(sum(exits) / len(exits), 2),
        "elevation_p50_us": round(a50, 2),
        "elevation_p99_us": round(a99, 2),
        "elevation_p99_ratio": round(a99 / p99, 2),
        "best_of_reps_p99_us": round(percentile(ground_best, 99), 2),
        "elevation_best_of_reps_p99_us": round(percentile(air_best, 99), 2),
        "elevation_exits_per_move": round(sum(air_exits) / len(air_exits), 2),
        "targets": {
            "p99_le_100us": p99 <= 100.0,
            "speedup_ge_10x": b50 / p50 >= 10.0,
            "elevation_p99_le_1_5x_ground": a99 <= 1.5 * p99,
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print its figures (or ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m bench.gridless", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer samples (smoke test)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    result = run(args.seed, args.quick)
    if args.json:
        print(json.dumps(result))
        return 0
    for key, value in result.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
