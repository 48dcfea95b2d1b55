"""A flying token over a real bridge: ``load_scene`` carries the hero's elevation, the
table's ``scene_loaded`` event shows it, and the ogre's attack of opportunity comes only
within its reach measured in three dimensions (the foundation scene, tests/scenario.py:
1 m squares, the hero beside the ogre, both with 1 m of reach)."""

from __future__ import annotations

import pytest

import protocol
from protocol.threat import AskExits, Exits
from tests.bridge.conftest import Bridge
from tests.scenario import scene_body
from tests.wsclient import wire_data


def flying_scene(elevation: float) -> protocol.SceneSpec:
    body = scene_body()
    body["tokens"][1]["elevation"] = elevation  # the hero
    return protocol.SceneSpec.from_wire(body)


@pytest.mark.parametrize(
    ("elevation", "provokes"),
    [
        (1.0, True),  # one square up: max(1, 1) = 1 square, within the ogre's 1 m
        (10.0, False),  # ten up: out of reach
    ],
)
async def test_a_flying_hero_provokes_only_within_3d_reach(
    bridge: Bridge, elevation: float, provokes: bool
) -> None:
    table = bridge.table("t", ["alice"])
    gm = await bridge.member(table, "gm")
    alice = await bridge.member(table, "alice", binary=True)
    seq = await gm.send(protocol.LoadScene, scene=flying_scene(elevation))
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    loaded = await alice.event("scene_loaded")
    hero = next(t for t in wire_data(loaded)["scene"]["tokens"] if t["id"] == "hero")
    ogre = next(t for t in wire_data(loaded)["scene"]["tokens"] if t["id"] == "ogre")
    assert hero["elevation"] == elevation and "elevation" not in ogre  # 0 is left out
    seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=7)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    path = ((3, 5), (2, 5), (1, 5))
    seq = await alice.send(AskExits, token="hero", path=path)
    exits = await alice.wait_for(Exits, lambda m: m.ref == seq)
    assert [(e.by, e.at) for e in exits.exits] == ([("ogre", (4, 5))] if provokes else [])
    seq = await alice.send(protocol.Move, token="hero", path=path)
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    if provokes:
        paused = await alice.event("move_interrupted")
        assert (wire_data(paused)["by"], wire_data(paused)["at"]) == ("ogre", [4, 5])
    else:
        done = await alice.event("move_completed")
        assert wire_data(done)["at"] == [1, 5]
    state = table.encounter.state
    assert state.scene is not None and state.scene.token("hero").elevation == elevation  # type: ignore[union-attr]
