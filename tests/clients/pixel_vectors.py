"""Input/output vectors of :mod:`geometry.vtt_coords`, for the JavaScript mirror.

``python -m tests.clients.pixel_vectors`` rewrites ``clients/js/test/fixtures/
vtt-coords.json``: for Foundry and Owlbear scenes, square and hex, each conversion's
arguments and what the Python side returns (or the error it raises).  The JS test
(``clients/js/test/pixels.test.js``) runs ``clients/js/src/pixels.js`` on the same
arguments; ``tests/clients/test_pixel_vectors.py`` fails when the committed file no
longer matches the Python functions, so a change to either side shows.

Arguments are JSON: a cell or point is a list, an image grid is ``{"image": [offset_x,
offset_y, dpi, scale_x, scale_y]}``, a hex shape is its value (``"rectangle_1"``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from geometry.errors import GeometryError
from geometry.hexshapes import HexShape
from geometry.vtt_coords import (
    FoundryHexScene,
    FoundryScene,
    OwlbearHexScene,
    OwlbearImageGrid,
    OwlbearScene,
    foundry_token_size,
)

FIXTURE = Path(__file__).resolve().parents[2] / "clients/js/test/fixtures/vtt-coords.json"
CALLS_PER_METHOD = 16
SCENES: dict[str, Callable[..., Any]] = {
    "FoundryScene": FoundryScene,
    "OwlbearScene": OwlbearScene,
    "FoundryHexScene": FoundryHexScene,
    "OwlbearHexScene": OwlbearHexScene,
}


def _python_arg(value: Any) -> Any:
    """A JSON argument as the Python function takes it."""
    if isinstance(value, dict):
        return OwlbearImageGrid(*value["image"])
    if isinstance(value, str):
        return HexShape(value)
    if isinstance(value, list):
        return tuple(value)
    return value


def _json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


def _call(target: Any, method: str, args: list[Any]) -> dict[str, Any]:
    """One call and its result, or the error it raises."""
    try:
        result = getattr(target, method)(*(_python_arg(a) for a in args))
    except GeometryError as error:
        return {"method": method, "args": args, "error": str(error)}
    return {"method": method, "args": args, "result": _json(result)}


def _pixel(rng: random.Random, step: float) -> float:
    """A pixel: mostly anywhere, sometimes on the grid or half-way between lines, where
    rounding decides."""
    kind = rng.random()
    whole = rng.randint(-3, 40)
    if kind < 0.3:
        return whole * step
    if kind < 0.5:
        return (whole + 0.5) * step
    return round(rng.uniform(-3 * step, 40 * step), 3)


def _cell(rng: random.Random) -> list[int]:
    return [rng.randint(-3, 30), rng.randint(-3, 30)]


def _point(rng: random.Random) -> list[float]:
    return [round(rng.uniform(-20, 200), 4), round(rng.uniform(-20, 200), 4)]


def _image(rng: random.Random) -> dict[str, list[float]]:
    dpi = rng.choice([100.0, 150.0, 300.0])
    return {
        "image": [
            round(rng.uniform(0, 3 * dpi), 2),
            round(rng.uniform(0, 3 * dpi), 2),
            dpi,
            rng.choice([1.0, 0.5, 2.0, 1.25]),
            rng.choice([1.0, 0.75, 2.0]),
        ]
    }


def _scene(
    kind: str, args: list[Any], makers: dict[str, Callable[[], list[Any]]]
) -> dict[str, Any]:
    scene = SCENES[kind](*args)
    calls = [
        _call(scene, method, make())
        for method, make in makers.items()
        for _ in range(CALLS_PER_METHOD)
    ]
    return {"scene": kind, "args": args, "calls": calls}


def _every_token_shape(
    scene: FoundryHexScene, shapes: list[str], rng: random.Random
) -> list[dict[str, Any]]:
    """Every Foundry token shape in sizes 1-4, not left to chance: each one's x/y on a
    cell, and the cell of a drop near it (a drag without snapping), as the Foundry
    module turns token documents into cells."""
    calls = []
    for shape in shapes:
        for token_size in (1, 2, 3, 4):
            if token_size == 1 and shape != HexShape.RECTANGLE_1.value:
                continue  # every shape of size 1 is the one hex
            cell = [rng.randrange(1, 20), rng.randrange(1, 20)]
            calls.append(_call(scene, "token_xy", [cell, token_size, shape]))
            x, y = scene.token_xy(tuple(cell), token_size, HexShape(shape))
            jitter = scene.grid_size / 5
            drop = [round(v + rng.uniform(-jitter, jitter), 3) for v in (x, y)]
            calls.append(_call(scene, "token_cell", [*drop, token_size, shape]))
    return calls


def vectors() -> dict[str, Any]:
    """Every vector, from a fixed seed (the same file on every run)."""
    rng = random.Random(16)
    scenes = []
    for args in ([100.0, 5.0, 250.0, 150.0], [70.0, 1.5], [64.5, 2.0, 32.25, 0.0]):
        step = args[0]
        scenes.append(
            _scene(
                "FoundryScene",
                args,
                {
                    "token_origin": lambda s=step: [_pixel(rng, s), _pixel(rng, s)],
                    "token_xy": lambda: [_cell(rng)],
                    "to_point": lambda s=step: [_pixel(rng, s), _pixel(rng, s)],
                    "from_point": lambda: [_point(rng)],
                },
            )
        )
    for args in ([150.0, 5.0], [100.0, 1.5], [141.0, 2.0]):
        step = args[0]
        scenes.append(
            _scene(
                "OwlbearScene",
                args,
                {
                    "item_origin": lambda s=step: [
                        _pixel(rng, s),
                        _pixel(rng, s),
                        rng.randint(1, 3),
                        _image(rng) if rng.random() < 0.5 else None,
                    ],
                    "item_position": lambda: [
                        _cell(rng),
                        rng.randint(1, 3),
                        _image(rng) if rng.random() < 0.5 else None,
                    ],
                    "to_point": lambda s=step: [_pixel(rng, s), _pixel(rng, s)],
                    "from_point": lambda: [_point(rng)],
                },
            )
        )
    shapes = [s.value for s in HexShape if s is not HexShape.HEXAGON]
    tokens = random.Random(17)  # its own stream: the random calls above stay as they were
    for grid_type in (2, 3, 4, 5):
        for size, distance in ((100.0, 5.0), (87.5, 1.5)):
            scene = _scene(
                "FoundryHexScene",
                [grid_type, size, distance],
                {
                    "center_px": lambda: [_cell(rng)],
                    "to_point": lambda s=size: [_pixel(rng, s), _pixel(rng, s)],
                    "from_point": lambda: [_point(rng)],
                    "cell_at_px": lambda s=size: [_pixel(rng, s), _pixel(rng, s)],
                    "token_xy": lambda: [_cell(rng), rng.randint(1, 4), rng.choice(shapes)],
                    "token_cell": lambda s=size: [
                        _pixel(rng, s),
                        _pixel(rng, s),
                        rng.randint(1, 4),
                        rng.choice(shapes),
                    ],
                },
            )
            scene["calls"] += _every_token_shape(
                FoundryHexScene(grid_type, size, distance), shapes, tokens
            )
            scenes.append(scene)
    for flat in (False, True):
        for dpi, cell in ((150.0, 5.0), (100.0, 1.5)):
            scenes.append(
                _scene(
                    "OwlbearHexScene",
                    [dpi, cell, flat],
                    {
                        "item_position": lambda: [_cell(rng), rng.choice([1, 2, 3, 5])],
                        "to_point": lambda s=dpi: [_pixel(rng, s), _pixel(rng, s)],
                        "from_point": lambda: [_point(rng)],
                        "item_cell": lambda s=dpi: [
                            _pixel(rng, s),
                            _pixel(rng, s),
                            rng.choice([1, 2, 3, 5]),
                        ],
                    },
                )
            )
    return {"scenes": scenes, "refusals": _refusals()}


def _refusals() -> list[dict[str, Any]]:
    """Arguments each side must refuse with the same message."""
    out: list[dict[str, Any]] = []
    for kind, args in (
        ("FoundryScene", [0.0, 5.0]),
        ("FoundryScene", [100.0, -1.0]),
        ("OwlbearScene", [150.0, 0.0]),
        ("FoundryHexScene", [1, 100.0, 5.0]),
        ("FoundryHexScene", [2, -3.0, 5.0]),
        ("OwlbearHexScene", [0.0, 5.0, False]),
    ):
        try:
            SCENES[kind](*args)
        except GeometryError as error:
            out.append({"scene": kind, "args": args, "error": str(error)})
        else:  # pragma: no cover - a refusal that no longer refuses
            raise AssertionError(f"{kind}{args} was accepted")
    for width, height in ((1.0, 1.0), (2.0, 2.0), (1.0, 2.0), (0.5, 0.5), (2.5, 2.5)):
        try:
            out.append(
                {"function": "foundry_token_size", "args": [width, height],
                 "result": foundry_token_size(width, height)}
            )  # fmt: skip
        except GeometryError as error:
            out.append(
                {"function": "foundry_token_size", "args": [width, height], "error": str(error)}
            )
    return out


def write(path: Path = FIXTURE) -> None:
    """Write the fixture (stable: sorted keys, one scene per line for readable diffs)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = vectors()
    lines = [json.dumps(scene, sort_keys=True) for scene in data["scenes"]]
    refusals = json.dumps(data["refusals"], sort_keys=True)
    text = '{"scenes": [\n' + ",\n".join(lines) + '\n],\n"refusals": ' + refusals + "}\n"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
    print(f"wrote {FIXTURE}")
