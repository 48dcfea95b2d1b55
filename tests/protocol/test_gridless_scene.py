"""Gridless scenes on the wire: what ``load_scene`` accepts and refuses, and the moves
and answers that carry points."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import protocol
from protocol import ProtocolError, decode_client, decode_server, encode

CELL_SIZE = 1.5
WIDTH, HEIGHT = 10, 8  # so the scene is 15 x 12 m


def scene(grid: dict[str, Any] | None = None, **token: Any) -> dict[str, Any]:
    body = {"kind": "gridless", "cell_size": CELL_SIZE, "unit": "m", "width": WIDTH,
            "height": HEIGHT, **(grid or {})}  # fmt: skip
    tok = {"id": "t1", "name": "T", "owner": "gm", "side": "a", "x": 1, "y": 1, "size": 1,
           "reach": 1.0, "movement": 6.0, "stats": {}, **token}  # fmt: skip
    return {"grid": body, "tokens": [tok]}


def load(body: dict[str, Any]) -> protocol.LoadScene:
    frame = {"v": 1, "type": "load_scene", "seq": 3, "body": {"scene": body}}
    message = decode_client(json.dumps(frame))
    assert isinstance(message, protocol.LoadScene)
    return message


@given(
    x=st.floats(0, WIDTH * CELL_SIZE) | st.integers(0, int(WIDTH * CELL_SIZE)),
    y=st.floats(0, HEIGHT * CELL_SIZE) | st.integers(0, int(HEIGHT * CELL_SIZE)),
)
def test_a_centre_anywhere_on_the_scene_is_accepted_as_sent(x: float, y: float) -> None:
    token = load(scene(x=x, y=y)).scene.tokens[0]
    assert (token.x, token.y) == (x, y)
    assert type(token.x) is type(x)  # a whole number stays an int, a fraction a float


@given(
    axis=st.sampled_from(["x", "y"]),
    over=st.floats(1e-6, 1e6) | st.floats(-1e6, -1e-6),
)
def test_a_centre_off_the_scene_is_refused_naming_the_field(axis: str, over: float) -> None:
    edge = (WIDTH if axis == "x" else HEIGHT) * CELL_SIZE
    value = edge + over if over > 0 else over
    with pytest.raises(ProtocolError) as info:
        load(scene(**{axis: value}))
    assert (info.value.code, info.value.path) == ("bad_value", f"body.scene.tokens[0].{axis}")
    assert "off the scene" in info.value.detail


@given(
    change=st.sampled_from(
        [("diagonal", d) for d in ("alternating", "euclidean", "none", "approximate")]
        + [("offset", "even")]
    )
)
def test_a_gridless_grid_refuses_diagonals_and_offsets(change: tuple[str, str]) -> None:
    field, value = change
    with pytest.raises(ProtocolError) as info:
        load(scene({field: value}))
    assert (info.value.code, info.value.path) == ("bad_value", f"body.scene.grid.{field}")
    assert "gridless" in info.value.detail


@given(
    kind=st.sampled_from(["square", "hex_pointy", "hex_flat"]),
    whole=st.integers(0, WIDTH - 1),
    part=st.floats(0.01, 0.99),
)
def test_a_grid_refuses_a_fractional_cell_and_reads_a_whole_float_as_a_cell(
    kind: str, whole: int, part: float
) -> None:
    grid = {"kind": kind}
    with pytest.raises(ProtocolError) as info:
        load(scene(grid, x=whole + part))
    assert (info.value.code, info.value.path) == ("bad_value", "body.scene.tokens[0].x")
    assert "not a cell" in info.value.detail
    token = load(scene(grid, x=float(whole))).scene.tokens[0]
    assert token.x == whole and type(token.x) is int


def test_moves_and_answers_carry_points() -> None:
    frame = {
        "v": 1,
        "type": "move",
        "seq": 4,
        "body": {"token": "t1", "path": [[2.25, 3], [4, 5.5]]},
    }
    move = decode_client(json.dumps(frame))
    assert isinstance(move, protocol.Move) and move.path == ((2.25, 3), (4, 5.5))
    prompt = protocol.Prompt(
        seq=9, prompt="p1", kind="attack_of_opportunity", attacker="ogre", target="t1",
        at=(7.0, 5.5), exit_point=(7.0, 5.5), deadline_ms=1, remaining_ms=1,
    )  # fmt: skip
    assert decode_server(encode(prompt, binary=False)) == prompt
    assert decode_server(encode(prompt, binary=True)) == prompt


def test_a_gridless_grid_refuses_a_hex_token_shape() -> None:
    vtt = {"kind": "owlbear", "grid_size": 150.0, "hex_shape": "hexagon"}
    with pytest.raises(ProtocolError) as info:
        load(scene({"vtt": vtt}))
    assert (info.value.code, info.value.path) == ("bad_value", "body.scene.grid.vtt.hex_shape")
    plain = {"kind": "owlbear", "grid_size": 150.0}
    assert load(scene({"vtt": plain})).scene.grid.vtt is not None
