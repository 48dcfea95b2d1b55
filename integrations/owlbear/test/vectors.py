"""Print conversion vectors from geometry/vtt_coords.py as JSON, for test/coords.test.js.

Seeded so every run checks the same cases; positions are off-centre (not multiples of a
half cell) so rounding is exercised, plus exact cell centres and corners."""

import json
import random

from geometry.vtt_coords import OwlbearHexScene, OwlbearImageGrid, OwlbearScene

rng = random.Random(17)
square = []
for _ in range(300):
    dpi = rng.choice([150.0, 140.0, 72.5, 300.0])
    scene = OwlbearScene(dpi, rng.choice([5.0, 1.0, 2.0]))
    size = rng.choice([1, 1, 2, 3])
    image = None
    if rng.random() < 0.7:
        idpi = rng.choice([150.0, 300.0, 256.0])
        image = OwlbearImageGrid(
            rng.uniform(0, 2 * size * idpi),
            rng.uniform(0, 2 * size * idpi),
            idpi,
            rng.choice([1.0, 0.5, 2.0, 1.25]),
            rng.choice([1.0, 0.5, 2.0, 1.25]),
        )
    x, y = rng.uniform(0, 40 * dpi), rng.uniform(0, 40 * dpi)
    if rng.random() < 0.2:  # an exact corner or centre
        x, y = round(x / dpi * 2) * dpi / 2, round(y / dpi * 2) * dpi / 2
    origin = scene.item_origin(x, y, size, image)
    cell = (rng.randrange(0, 40), rng.randrange(0, 40))
    square.append(
        {
            "dpi": dpi,
            "size": size,
            "image": None
            if image is None
            else {
                "offsetX": image.offset_x,
                "offsetY": image.offset_y,
                "dpi": image.dpi,
                "scaleX": image.scale_x,
                "scaleY": image.scale_y,
            },
            "xy": [x, y],
            "origin": list(origin),
            "cell": list(cell),
            "position": list(scene.item_position(cell, size, image)),
            "point": list(scene.to_point(x, y)),
            "cellSize": scene.cell_size,
        }
    )
hexes = []
for _ in range(300):
    flat = rng.random() < 0.5
    scene = OwlbearHexScene(rng.choice([150.0, 100.0, 93.0]), rng.choice([5.0, 1.0]), flat)
    x, y = rng.uniform(0, 30 * scene.dpi), rng.uniform(0, 30 * scene.dpi)
    cell = (rng.randrange(0, 30), rng.randrange(0, 30))
    hexes.append(
        {
            "dpi": scene.dpi,
            "cellSize": scene.cell_size,
            "flat": flat,
            "xy": [x, y],
            "cellAt": list(scene.item_cell(x, y)),
            "cell": list(cell),
            "position": list(scene.item_position(cell)),
            "point": list(scene.to_point(x, y)),
        }
    )
print(json.dumps({"square": square, "hex": hexes}))
