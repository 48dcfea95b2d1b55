"""Cell centres and the cells under sample points, from the bridge's own geometry, as JSON.

``python -m tests.clients.grid_points`` prints, for a square grid and every hex
orientation and parity (and Foundry's token shape on two of them), each cell's centre,
for points scattered over the scene the cell the geometry puts them in, and the cells
tokens of a few sizes cover.  The table view's layout (``vtt_bridge/static/view/
layout.js``) is tested against these, so the page draws where the bridge computes.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from engine.model import GridSpec, VttSpec

GRIDS = [
    GridSpec(width=7, height=5, cell_size=1.5, unit="m", kind="square"),
    GridSpec(width=7, height=6, cell_size=5.0, unit="ft", kind="hex_pointy", offset="odd"),
    GridSpec(width=7, height=6, cell_size=5.0, unit="ft", kind="hex_pointy", offset="even"),
    GridSpec(width=6, height=7, cell_size=2.0, unit="m", kind="hex_flat", offset="odd"),
    GridSpec(width=6, height=7, cell_size=2.0, unit="m", kind="hex_flat", offset="even"),
    GridSpec(
        width=9, height=9, cell_size=5.0, unit="ft", kind="hex_pointy", offset="even",
        vtt=VttSpec("foundry", 100.0),
    ),
    GridSpec(
        width=9, height=9, cell_size=5.0, unit="ft", kind="hex_flat", offset="odd",
        vtt=VttSpec("foundry", 100.0, hex_shape="ellipse_1"),
    ),
]  # fmt: skip
#: Token sizes and anchors whose footprints are exported (odd and even rows and columns).
FOOTPRINTS = [(size, origin) for size in (1, 2, 3) for origin in ((2, 2), (3, 3))]
POINTS_PER_GRID = 300


def grid_points() -> list[dict[str, Any]]:
    """Per grid: its wire spec, every cell's centre, and sample points with their cells."""
    rng = random.Random(16)
    out = []
    for spec in GRIDS:
        grid = spec.build()
        cells = [(c, r) for r in range(spec.height) for c in range(spec.width)]
        centres = [[c, r, *grid.center((c, r))] for c, r in cells]
        xs = [x for _, _, x, _ in centres]
        ys = [y for _, _, _, y in centres]
        samples = []
        while len(samples) < POINTS_PER_GRID:
            point = (rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys)))
            cell = grid.cell_at(point)
            if grid.contains(cell):
                samples.append([*point, *cell])
        wire: dict[str, Any] = {
            "kind": spec.kind,
            "cell_size": spec.cell_size,
            "unit": spec.unit,
            "width": spec.width,
            "height": spec.height,
            "offset": spec.offset,
        }
        if spec.vtt is not None:
            wire["vtt"] = {"kind": spec.vtt.kind, "grid_size": spec.vtt.grid_size}
            if spec.vtt.hex_shape is not None:
                wire["vtt"]["hex_shape"] = spec.vtt.hex_shape
        footprints = [
            [size, list(origin), sorted(list(c) for c in grid.footprint(origin, size))]
            for size, origin in FOOTPRINTS
        ]
        out.append({"grid": wire, "centres": centres, "samples": samples, "footprints": footprints})
    return out


if __name__ == "__main__":
    json.dump(grid_points(), sys.stdout)
