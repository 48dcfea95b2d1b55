"""The golden fight with flying tokens, played live: only the harpy, whose layer is next
to the hero's, gets an attack of opportunity as the hero flies off; the ogre on the
ground, whose square the hero also leaves, is too far below.  Then the harpy flies on
the grid up to the hero's layer and past it, and the hero may strike where it leaves
the square beside it.  (``test_replay_cli``
replays the recorded copy, ``tests/recordings/flying_fight.jsonl``.)"""

from __future__ import annotations

from tests.demo_table import play_on_demo_table
from tests.scenario_flying import play_flying
from tests.wsclient import wire_data


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
