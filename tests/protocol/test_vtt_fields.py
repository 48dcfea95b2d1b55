"""The wire fields for VTT geometry: Foundry's diagonal rules, hex token shapes, VTT
pixel conventions on hex grids and Owlbear image grids on ``move_points``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from protocol import ImageGrid, LoadScene, MovePoints, ProtocolError
from protocol.codec import decode_client
from protocol.scene import DIAGONAL_RULES, FOUNDRY_DIAGONALS


def frame(kind: str, body: dict[str, Any]) -> str:
    return json.dumps({"v": 1, "type": kind, "seq": 1, "body": body})


def scene(**grid: Any) -> dict[str, Any]:
    base = {"kind": "square", "cell_size": 5, "unit": "ft", "width": 10, "height": 10}
    return {"scene": {"grid": {**base, **grid}, "tokens": []}}


def test_every_foundry_diagonal_rule_has_a_name() -> None:
    # CONST.GRID_DIAGONALS: EQUIDISTANT 0 ... ILLEGAL 6 (Foundry API documentation).
    assert sorted(FOUNDRY_DIAGONALS) == list(range(7))
    assert set(FOUNDRY_DIAGONALS.values()) == DIAGONAL_RULES
    for name in ("approximate", "rectilinear", "alternating_2"):
        message = decode_client(frame("load_scene", scene(diagonal=name)))
        assert isinstance(message, LoadScene) and message.scene.grid.diagonal == name


def test_hex_grids_take_vtt_coordinates_and_a_token_shape() -> None:
    vtt = {"kind": "foundry", "grid_size": 100, "scene_x": 250, "hex_shape": "trapezoid_2"}
    message = decode_client(frame("load_scene", scene(kind="hex_pointy", vtt=vtt)))
    assert isinstance(message, LoadScene)
    assert message.scene.grid.vtt is not None and message.scene.grid.vtt.hex_shape == "trapezoid_2"


def test_an_unknown_token_shape_is_refused_with_its_path() -> None:
    vtt = {"kind": "foundry", "grid_size": 100, "hex_shape": "blob"}
    with pytest.raises(ProtocolError) as refusal:
        decode_client(frame("load_scene", scene(kind="hex_flat", vtt=vtt)))
    assert refusal.value.code == "bad_value" and "hex_shape" in refusal.value.path


def test_move_points_carries_an_owlbear_image_grid() -> None:
    body = {"token": "hero", "points": [[300, 300]], "image": {"offset": [0, 0], "dpi": 300}}
    message = decode_client(frame("move_points", body))
    assert isinstance(message, MovePoints)
    assert message.image == ImageGrid(offset=(0.0, 0.0), dpi=300.0)
    # ``scale`` came later: at its default it is left out, for servers older than it.
    assert message.to_body()["image"] == {"offset": [0.0, 0.0], "dpi": 300.0}
    plain = decode_client(frame("move_points", {"token": "hero", "points": [[1, 2]]}))
    assert isinstance(plain, MovePoints) and "image" not in plain.to_body()


@pytest.mark.parametrize(
    ("image", "code", "where"),
    [
        ({"offset": [0, 0], "dpi": 0}, "bad_value", "image.dpi"),
        ({"offset": [0, 0], "dpi": 150, "scale": [1, -1]}, "bad_value", "image.scale[1]"),
        ({"offset": [0], "dpi": 150}, "bad_value", "image.offset"),
        ({"offset": [0, 0], "dpi": 150, "anchor": 1}, "unknown_field", "image.anchor"),
    ],
)
def test_a_bad_image_grid_is_refused_with_its_path(
    image: dict[str, Any], code: str, where: str
) -> None:
    with pytest.raises(ProtocolError) as refusal:
        decode_client(frame("move_points", {"token": "hero", "points": [[1, 2]], "image": image}))
    assert refusal.value.code == code
    assert where in refusal.value.path
