"""A scene load is charged by what it carries: its frame's bytes, and then its tokens,
walls and terrain (``vtt_bridge.costs.scene_cost``), so a neighbour cannot send large
scenes back to back faster than the server absorbs them.  Real servers on loopback;
nothing timed."""

from __future__ import annotations

from pathlib import Path

import pytest

import protocol
from tests.bridge.conftest import closed_with
from tests.bridge.test_fair_turns import demo_member, walled_scene
from vtt_bridge.costs import (
    SCENE_TOKENS_PER_TOKEN,
    SCENE_WALLS_PER_TOKEN,
    extra_cost,
    frame_cost,
    scene_cost,
)


def load(scene: protocol.SceneSpec, seq: int = 2) -> protocol.LoadScene:
    return protocol.LoadScene(seq=seq, scene=scene)


def test_a_small_scene_costs_only_its_frame() -> None:
    assert extra_cost(load(walled_scene(tokens=2))) == 0


def test_the_price_grows_with_tokens_and_walls() -> None:
    few = walled_scene(tokens=2)
    many = walled_scene(tokens=2 + 10 * SCENE_TOKENS_PER_TOKEN)
    assert scene_cost(many) == scene_cost(few) + 10
    walls = tuple(
        protocol.WallSpec.from_wire(
            {"id": f"x{i}", "a": [50.0, 10.0 + i], "b": [60.0, 10.0 + i], "blocks_move": True,
             "blocks_sight": True, "door": "none"}
        )
        for i in range(3 * SCENE_WALLS_PER_TOKEN)
    )  # fmt: skip
    walled = protocol.SceneSpec(grid=few.grid, tokens=few.tokens, walls=few.walls + walls)
    assert scene_cost(walled) == scene_cost(few) + 3


@pytest.mark.parametrize("short", [True, False])
async def test_a_big_scene_is_refused_one_token_short_of_its_price(
    tmp_path: Path, short: bool
) -> None:
    scene = walled_scene(side=100, tokens=160)
    frame = protocol.encode_json(load(scene))
    price = frame_cost(len(frame)) + scene_cost(scene)
    assert scene_cost(scene) == 10
    # The join costs one token; the frame is paid for, the scene's price is not (yet).
    limits = {"rate_limit": 0.001, "rate_burst": 1 + price - (1 if short else 0)}
    async with demo_member(tmp_path, "gm", **limits) as (_, table, client):
        await client.send_raw(frame)
        answer = await client.reply_to(2)
        if not short:
            assert isinstance(answer, protocol.Ack)
            assert table.positions == 1
            return
        assert isinstance(answer, protocol.ErrorMessage)
        assert answer.code == "rate_limited" and answer.ref == 2
        assert f"'load_scene' costs {scene_cost(scene)} of" in answer.message
        assert await closed_with(client.ws) == 1008
        assert table.positions == 0  # nothing was applied
