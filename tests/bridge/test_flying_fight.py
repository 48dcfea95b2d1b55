"""The golden fight with flying tokens, played live: only the harpy, whose layer is next
to the hero's, gets an attack of opportunity as the hero flies off; the ogre on the
ground, whose square the hero also leaves, is too far below.  Then the harpy flies on
the grid up to the hero's layer and past it, and the hero may strike where it leaves
the square beside it.  (``test_replay_cli``
replays the recorded copy, ``tests/recordings/flying_fight.jsonl``.)"""

from __future__ import annotations

from typing import Any

import pytest

import protocol
from tests.bridge.conftest import Bridge
from tests.demo_table import play_on_demo_table
from tests.scenario_flying import flying_body, play_flying
from tests.wsclient import TableClient, wire_data


async def test_only_the_flier_in_reach_strikes_the_flying_hero() -> None:
    result, events = await play_on_demo_table(play_flying, ("gm", "alice"))
    prompts = [wire_data(e) for e in events if e.kind == "prompt_opened"]
    aoo = [p for p in prompts if p["prompt_kind"] == "attack_of_opportunity"]
    assert [(p["attacker"], p["target"]) for p in aoo] == [("harpy", "hero"), ("hero", "harpy")]
    interrupted = [wire_data(e) for e in events if e.kind == "move_interrupted"]
    assert [(m["by"], m["at"], m["exit_point"], m.get("elevation")) for m in interrupted] == [
        ("harpy", [4, 5], [4.0, 5.5], None),  # leaving (4, 5) westwards: its west edge
        ("hero", [2, 4], [2.5, 4.0], 10.0),  # the harpy leaves (2, 4) north at 10 m
    ]
    started = [wire_data(e) for e in events if e.kind == "move_started"][-1]
    assert started["elevations"] == [10.0, 10.0, 10.0]
    landed = wire_data(result["landed"])
    # One square a step under the one-square diagonals, the climb of half a metre
    # inside the first step's layer change (9.5 m is layer 9, 10 m layer 10).
    assert (landed["token"], landed["at"], landed["cost"], landed["elevation"]) == (
        "harpy",
        [2, 3],
        3.0,
        10.0,
    )
    loaded = next(wire_data(e) for e in events if e.kind == "scene_loaded")
    heights = {t["id"]: t.get("elevation", 0.0) for t in loaded["scene"]["tokens"]}
    assert heights == {"ogre": 0.0, "hero": 10.0, "harpy": 9.5}
    assert wire_data(result["completed"])["at"] == [1, 5]
    assert wire_data(result["attack"])["attacker"] == "harpy"


async def _to_the_turn_of(
    bridge: Bridge, name: str, body: dict[str, Any], ruleset: str, who: str
) -> tuple[TableClient, TableClient]:
    """A table ``name`` with Alice, the scene ``body`` loaded and a fight in ``ruleset``
    started (seed 7), phases ended until ``who`` acts: the GM's and Alice's clients."""
    table = bridge.table(name, ["alice"])
    gm, alice = await bridge.member(table, "gm"), await bridge.member(table, "alice")
    seq = await gm.send(protocol.LoadScene, scene=protocol.SceneSpec.from_wire(body))
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    seq = await gm.send(protocol.StartCombat, ruleset=ruleset, aware=None, seed=7)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    acts = await alice.event("combatant_acts")
    while wire_data(acts)["combatant"] != who:
        seq = await gm.send(protocol.EndPhase, token=wire_data(acts)["combatant"])
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        acts = await alice.event("combatant_acts")
    return gm, alice


async def test_a_foundry_drag_with_waypoint_elevations_flies_on_the_grid(bridge: Bridge) -> None:
    # Foundry's waypoints carry an elevation each: move_points sends them, the bridge
    # traces the cells between and gives each its height in step along the line.
    body = flying_body()
    body["grid"]["vtt"] = {"kind": "foundry", "grid_size": 100}
    body["tokens"] = [t for t in body["tokens"] if t["id"] != "harpy"]
    hero = next(t for t in body["tokens"] if t["id"] == "hero")
    hero.update(x=1, y=1, elevation=0.0, stats={**hero["stats"], "flight": 10})
    gm, alice = await _to_the_turn_of(bridge, "fliers", body, "hero-supplement", "hero")
    # The server checks one height per point itself (a client may not).
    await alice.send_raw(
        '{"v": 1, "type": "move_points", "seq": 90, "body": {"token": "hero",'
        ' "points": [[400, 100]], "elevations": [1.0, 2.0]}}'
    )
    refusal = await alice.reply_to(90)
    assert isinstance(refusal, protocol.ErrorMessage) and refusal.code == "bad_value", refusal
    assert "one each" in refusal.message
    # Four cells east rising to 4 m, then straight up on the last cell to 6 m.
    points, heights = ((500.0, 100.0), (500.0, 100.0)), (4.0, 6.0)
    seq = await alice.send(protocol.MovePoints, token="hero", points=points, elevations=heights)
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    started = wire_data(await gm.event("move_started"))
    assert started["path"] == [[2, 1], [3, 1], [4, 1], [5, 1], [5, 1]]
    assert started["elevations"] == [1.0, 2.0, 3.0, 4.0, 6.0]
    completed = wire_data(await gm.event("move_completed"))
    # One square a step under "one", and the climb in place two layers: 6 m.
    assert (completed["at"], completed["cost"], completed["elevation"]) == ([5, 1], 6.0, 6.0)


def _grid_body(cell: float, flier: dict[str, Any], foe: dict[str, Any]) -> dict[str, Any]:
    token = {"name": "n", "size": 1, "reach": 1.0, "movement": 6.0}
    return {
        "grid": {"kind": "square", "cell_size": cell, "unit": "m", "width": 12, "height": 12},
        "tokens": [
            {**token, "id": "flier", "owner": "alice", "side": "heroes", "x": 2, "y": 2, **flier},
            {**token, "id": "foe", "owner": "gm", "side": "monsters", "x": 9, "y": 9, **foe},
        ],
    }


@pytest.mark.parametrize(
    ("ruleset", "body", "mode", "cost"),
    [
        # Cyberpunk RED: a change of height is a climb, 2 m per 1 m of the move: a 2 m
        # square diagonally, then one across and one 2 m layer up, one square too
        # (Foundry's ruler): 4 m of path, 8 m of MOVE climbing.
        (
            "cyberpunk-red",
            _grid_body(2.0, {"stats": {"move": 4, "ref": 8}}, {"stats": {"move": 3, "ref": 3}}),
            "climb",
            8.0,
        ),
        # Mutants & Masterminds: Flight rank 2; two squares, the second a layer up.
        (
            "mm3e",
            _grid_body(
                1.0,
                {"stats": {"dexterity": 2, "dodge": 5, "parry": 5, "flight": 2}},
                {"stats": {"dexterity": 0, "dodge": 2, "parry": 2}},
            ),
            None,
            2.0,
        ),
    ],
)
async def test_every_game_that_climbs_or_flies_does_so_on_a_grid(
    bridge: Bridge, ruleset: str, body: dict[str, Any], mode: str | None, cost: float
) -> None:
    gm, alice = await _to_the_turn_of(bridge, f"fly-{ruleset}", body, ruleset, "flier")
    cell = body["grid"]["cell_size"]
    path, heights = ((3, 3), (4, 3)), (0.0, cell)
    if mode is not None:  # anything but the game's own way up is refused
        seq = await alice.send(protocol.Move, token="flier", path=path, elevations=heights)
        refusal = await alice.reply_to(seq)
        assert isinstance(refusal, protocol.ErrorMessage) and refusal.code == "illegal_move"
    seq = await alice.send(protocol.Move, token="flier", path=path, mode=mode, elevations=heights)
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    completed = wire_data(await gm.event("move_completed"))
    assert (completed["at"], completed["elevation"]) == ([4, 3], cell)
    assert completed["cost"] == pytest.approx(cost)
