"""Measure drawing a reach area's outline (:func:`geometry.outline.outline`, what
``ask_threat`` answers) against shapely merging the same cells, in the same run.

``python -m bench.outline`` prints a table; ``--json`` prints one JSON object whose
``cases`` list holds, per grid and reach, the cell count, ``p50_us`` of the outline,
``baseline_p50_us`` of ``shapely.union_all`` over the cells' polygons then
``simplify(0)`` (what the first version of ``ask_threat`` did) and their ratio.  Each case
is a token on a 100 x 100 grid with no walls; both sides are checked to cover the same
area.  Target: a reach of 15 cells all round (near the 1,024 cells one answer covers at
most) in under 10 ms at the median.
"""

from __future__ import annotations

import argparse
import json
import time

from shapely import union_all
from shapely.geometry import Polygon

from bench._stats import percentile
from geometry import HexGrid, SquareGrid
from geometry.grid import Grid
from geometry.outline import outline
from geometry.reach import threatened_cells

SIZE = 100
REACHES = (1.0, 3.0, 8.0, 15.0)


def _timed(run: object, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()  # type: ignore[operator]
        times.append((time.perf_counter() - started) * 1e6)
    return times


def run_case(grid: Grid, name: str, reach: float, repeat: int) -> dict[str, object]:
    """Outline and baseline for a one-cell token of ``reach`` in the middle of ``grid``."""
    origin = (SIZE // 2, SIZE // 2)
    cells = grid.footprint(origin, 1) | threatened_cells(grid, origin, 1, reach)
    ordered = sorted(cells)
    rings = outline(grid, cells)
    merged = union_all([grid.cell_polygon(c) for c in ordered]).simplify(0)
    drawn = Polygon()
    for ring in rings:
        drawn = drawn.symmetric_difference(Polygon(ring))
    assert drawn.symmetric_difference(merged).area < 1e-6, f"{name} reach {reach}: areas differ"
    ours = _timed(lambda: outline(grid, cells), repeat)
    base = _timed(lambda: union_all([grid.cell_polygon(c) for c in ordered]).simplify(0), repeat)
    p50, b50 = percentile(ours, 50), percentile(base, 50)
    return {
        "grid": name,
        "reach": reach,
        "cells": len(cells),
        "p50_us": round(p50, 1),
        "p99_us": round(percentile(ours, 99), 1),
        "baseline_p50_us": round(b50, 1),
        "speedup_p50": round(b50 / p50, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run every case and print the table (or ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m bench.outline", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer samples (smoke test)")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 25
    grids: list[tuple[str, Grid]] = [
        ("square 1 m", SquareGrid(SIZE, SIZE, 1.0)),
        ("hex 1 m", HexGrid(SIZE, SIZE, 1.0)),
    ]
    cases = [run_case(g, n, r, repeat) for n, g in grids for r in REACHES]
    largest = [c for c in cases if c["reach"] == REACHES[-1]]
    result = {
        "cases": cases,
        "targets": {"reach_15_p50_under_10ms": all(float(c["p50_us"]) < 10_000 for c in largest)},  # type: ignore[arg-type]
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print("outline of one token's reach area (times in microseconds, p50)")
    print(f"  {'grid':12} {'reach':>6} {'cells':>6} {'outline':>9} {'shapely':>9} {'ratio':>6}")
    for c in cases:
        print(
            f"  {c['grid']:12} {c['reach']:>6} {c['cells']:>6} {c['p50_us']:>9} "
            f"{c['baseline_p50_us']:>9} {c['speedup_p50']:>5}x  (p99 {c['p99_us']})"
        )
    print(f"  targets: {result['targets']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
