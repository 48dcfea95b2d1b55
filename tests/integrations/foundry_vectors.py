"""Foundry pixel <-> cell vectors from the bridge's own conversions, as JSON.

``python -m tests.integrations.foundry_vectors`` prints, for square scenes with padding
and every Foundry hex grid type with every token shape and size 1-4, the token document
``x``/``y`` of sample cells and the cell of sample (unsnapped) pixel positions, computed
by :mod:`geometry.vtt_coords`.  The Foundry module's ``src/grid.js`` is tested against
them (``integrations/foundry/test/grid.test.js``), so the module and the bridge agree.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from geometry.hexshapes import HexShape
from geometry.vtt_coords import FoundryHexScene, FoundryScene

#: (grid.size, grid.distance, sceneX, sceneY) of square scenes: Foundry's default 100 px
#: with 25% padding on a 4000 x 3000 scene, and an odd 72 px grid.
SQUARES = [(100.0, 5.0, 1000.0, 800.0), (72.0, 1.5, 216.0, 144.0)]
HEX_SIZES = [(100.0, 5.0), (86.0, 2.0)]
SHAPES = [s for s in HexShape if s is not HexShape.HEXAGON]


def vectors() -> dict[str, Any]:
    """Square and hex vectors (module docstring)."""
    rng = random.Random(17)
    squares = []
    for size, distance, sx, sy in SQUARES:
        scene = FoundryScene(size, distance, sx, sy)
        cells = [(rng.randrange(0, 30), rng.randrange(0, 20)) for _ in range(20)]
        pixels = [(sx + rng.uniform(-20, 3000), sy + rng.uniform(-20, 2000)) for _ in range(60)]
        squares.append(
            {
                "grid": {"size": size, "distance": distance, "sceneX": sx, "sceneY": sy},
                "xy": [[c, list(scene.token_xy(c))] for c in cells],
                "cell": [[list(p), list(scene.token_origin(*p))] for p in pixels],
                "point": [[list(p), list(scene.to_point(*p))] for p in pixels[:10]],
            }
        )
    hexes = []
    for grid_type in (2, 3, 4, 5):
        for size, distance in HEX_SIZES:
            scene = FoundryHexScene(grid_type, size, distance)
            for shape in SHAPES:
                for token_size in (1, 2, 3, 4):
                    if token_size == 1 and shape is not HexShape.RECTANGLE_1:
                        continue  # every shape of size 1 is the one hex
                    cells = [(rng.randrange(1, 20), rng.randrange(1, 20)) for _ in range(8)]
                    xys = [scene.token_xy(c, token_size, shape) for c in cells]
                    # Dropped near a snapped position, as a drag without snapping leaves it.
                    jitter = [
                        (x + rng.uniform(-size / 5, size / 5), y + rng.uniform(-size / 5, size / 5))
                        for x, y in xys
                    ]
                    hexes.append(
                        {
                            "grid": {"type": grid_type, "size": size, "distance": distance},
                            "shape": shape.value,
                            "size": token_size,
                            "xy": [[c, list(p)] for c, p in zip(cells, xys, strict=True)],
                            "cell": [
                                [list(p), list(scene.token_cell(*p, token_size, shape))]
                                for p in jitter
                            ],
                            "point": [[list(p), list(scene.to_point(*p))] for p in jitter[:3]],
                        }
                    )
    return {"squares": squares, "hexes": hexes}


if __name__ == "__main__":
    json.dump(vectors(), sys.stdout)
