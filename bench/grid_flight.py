"""Measure a flight on a square grid against the same move on the ground, in one run.

``python -m bench.grid_flight`` prints a table; ``--json`` one JSON object (``tokens``,
``walls``, ``ground_p50_us``, ``ground_p99_us``, ``flight_p50_us``, ``flight_p99_us``,
``p50_ratio`` and ``p99_ratio``); ``--quick`` fewer moves.  Scene: a 100x100 grid of 1
m squares, 200 tokens on random free cells (one in five with 2 m reach, one in four 1 to 6 m up) and
2,000 walls of 1-3 m along grid lines, as ``bench.geometry`` builds them.  A move is a
random 12-square walk of a one-square token with Flight that the walls let through
(200 of them); the timed region is what the
engine runs to resolve it (:func:`engine.movement.resolve_path`: cost, walls, tokens in
the way and every threatened square left).  The baseline is the same path on the
ground; the flight climbs from 0 to 6 m along it (:mod:`engine.grid_flight`).  The
target: the flight's p99 within 1.5x the ground's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from bench._stats import percentile
from engine.errors import CommandRejected
from engine.model import Combatant, GridSpec, Scene, WallSpec
from engine.movement import resolve_path
from engine.spatial import SpatialCache

SIZE = 100
STEPS = 12
TOKENS = 200
WALLS = 2000


def build(seed: int) -> tuple[Scene, list[tuple[tuple[int, int], ...]]]:
    """The scene (the mover ``flier`` first) and the moves' paths (start first)."""
    rng = random.Random(seed)
    taken: set[tuple[int, int]] = set()

    def free() -> tuple[int, int]:
        while True:
            cell = (rng.randrange(SIZE), rng.randrange(SIZE))
            if cell not in taken:
                taken.add(cell)
                return cell

    start = (SIZE // 2, SIZE // 2)
    taken.add(start)
    flier = Combatant(
        "flier", "F", "alice", "heroes", *start, movement=24.0, stats=(("flight", 10),)
    )
    tokens = [flier]
    for i in range(TOKENS):
        x, y = free()
        up = float(rng.randint(1, 6)) if i % 4 == 0 else 0.0
        reach = 2.0 if i % 5 == 0 else 1.0
        tokens.append(
            Combatant(f"t{i}", "T", "gm", "monsters", x, y, reach=reach, movement=6.0, elevation=up)
        )
    walls = []
    for i in range(WALLS):
        x, y, length = rng.randrange(SIZE), rng.randrange(SIZE), rng.randint(1, 3)
        across = (float(min(SIZE, x + length)), float(y))
        end = across if i % 2 else (float(x), float(min(SIZE, y + length)))
        walls.append(WallSpec(f"w{i}", (float(x), float(y)), end))
    scene = Scene(GridSpec(SIZE, SIZE), tuple(tokens), tuple(walls))
    # Only walks the walls let through: a refused move is not what a table times.
    spatial = SpatialCache()
    paths: list[tuple[tuple[int, int], ...]] = []
    while len(paths) < 200:
        path = walk(rng, start, taken)
        try:
            resolve_path(spatial, scene, flier, path)
        except CommandRejected:
            continue
        paths.append(path)
    return scene, paths


def walk(
    rng: random.Random, start: tuple[int, int], taken: set[tuple[int, int]]
) -> tuple[tuple[int, int], ...]:
    """A random walk of :data:`STEPS` squares from ``start`` onto free cells."""
    path = [start]
    while len(path) <= STEPS:
        x, y = path[-1]
        step = (x + rng.choice((-1, 0, 1)), y + rng.choice((-1, 0, 1)))
        if step != path[-1] and step not in taken and 0 <= step[0] < SIZE and 0 <= step[1] < SIZE:
            path.append(step)
    return tuple(path)


def time_moves(scene: Scene, paths: list[tuple[tuple[int, int], ...]], fly: bool) -> list[float]:
    """Microseconds to resolve each path, on the ground or flying."""
    spatial = SpatialCache()
    mover = scene.tokens[0]
    spatial.index(scene).work_out_everything()  # a ready index, as in a fight
    samples = []
    for path in paths:
        heights = tuple(6.0 * k / STEPS for k in range(len(path))) if fly else ()
        began = time.perf_counter()
        resolve_path(spatial, scene, mover, path, heights=heights)
        samples.append((time.perf_counter() - began) * 1e6)
    return samples


def main(argv: list[str] | None = None) -> int:
    """Run the case and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer moves")
    args = parser.parse_args(argv)
    scene, paths = build(7)
    if args.quick:
        paths = paths[:100]
    rounds = 3 if args.quick else 10
    ground: list[float] = []
    flight: list[float] = []
    for _ in range(rounds):  # interleaved, so a busy moment hits both alike
        ground += time_moves(scene, paths, fly=False)
        flight += time_moves(scene, paths, fly=True)
    figures = {
        "tokens": TOKENS,
        "walls": WALLS,
        "moves": len(ground) // rounds,
        "ground_p50_us": round(percentile(ground, 50), 1),
        "ground_p99_us": round(percentile(ground, 99), 1),
        "flight_p50_us": round(percentile(flight, 50), 1),
        "flight_p99_us": round(percentile(flight, 99), 1),
    }
    figures["p50_ratio"] = round(figures["flight_p50_us"] / figures["ground_p50_us"], 2)
    figures["p99_ratio"] = round(figures["flight_p99_us"] / figures["ground_p99_us"], 2)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>15}: {value}")
        print("target: flight p99 at most 1.5x the ground's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
