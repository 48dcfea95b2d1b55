"""Gridless fights played live over the protocol, one per game (tests.scenario_gridless):
the stops are exact points, the ones geometry.gridless_threat works out.
(``test_replay_cli`` replays the recorded Hero fight and flight,
tests/recordings/gridless_*.jsonl.)"""

from __future__ import annotations

import math

import pytest

from geometry.gridless import GridlessScene
from geometry.gridless_threat import GridlessThreats
from tests.demo_table import play_on_demo_table
from tests.scenario_gridless import (
    play_cpr,
    play_hero,
    play_hero_flight,
    play_hero_plan,
    play_mm,
)
from tests.wsclient import wire_data


async def test_hero_the_move_pauses_where_it_leaves_the_ogres_reach() -> None:
    result, events = await play_on_demo_table(play_hero, ("gm", "alice"))
    threats = GridlessThreats(GridlessScene(12, 12))
    threats.set_region("ogre", (5.5, 5.5), 1.5)  # reach 1 m from a 1 m disc, to a centre
    (exit_,) = threats.resolve([(6.75, 5.5), (9.0, 5.5), (9.0, 8.25)]).exits
    interrupted = [wire_data(e) for e in events if e.kind == "move_interrupted"]
    assert [(m["by"], m["at"], m["exit_point"]) for m in interrupted] == [
        ("ogre", list(exit_.point), list(exit_.point))
    ]
    assert exit_.point == (7.0, 5.5)
    prompt = result["prompt"]
    assert (prompt.kind, prompt.attacker, prompt.at) == (
        "attack_of_opportunity",
        "ogre",
        (7.0, 5.5),
    )
    (asked,) = result["exits"].exits
    assert (asked.by, asked.at, asked.point) == ("ogre", (7.0, 5.5), (7.0, 5.5))
    completed = wire_data(result["completed"])
    assert completed["at"] == [9.0, 8.25]
    assert completed["cost"] == pytest.approx(5.0)


async def test_hero_a_flight_pauses_where_it_leaves_the_reach_in_three_dimensions() -> None:
    result, events = await play_on_demo_table(play_hero_flight, ("gm", "alice"))
    threats = GridlessThreats(GridlessScene(12, 12))
    threats.set_region("ogre", (5.5, 5.5), 1.5)
    (exit_,) = threats.resolve([(6.5, 5.5), (8.5, 5.5)], [0.0, 2.0]).exits
    (interrupted,) = [wire_data(e) for e in events if e.kind == "move_interrupted"]
    assert interrupted["at"] == list(exit_.point)
    assert interrupted["elevation"] == pytest.approx(exit_.elevation)
    assert result["prompt"].at == exit_.point
    started = next(wire_data(e) for e in events if e.kind == "move_started")
    assert started["elevations"] == [2.0]
    completed = wire_data(result["completed"])
    assert (completed["at"], completed["elevation"]) == ([8.5, 5.5], 2.0)
    assert completed["cost"] == pytest.approx(math.hypot(2.0, 2.0))


async def test_hero_a_planned_path_round_a_wall_is_a_move_the_bridge_accepts() -> None:
    result, _ = await play_on_demo_table(play_hero_plan, ("gm", "alice"))
    plan = result["plan"]
    assert plan.reason is None and tuple(plan.path[-1]) == (11.5, 10.5)
    assert all(y > 12.0 for _, y in plan.path[:-1])  # round the wall's southern end
    completed = wire_data(result["completed"])
    assert completed["at"] == [11.5, 10.5]
    assert completed["cost"] == pytest.approx(plan.cost)


async def test_cyberpunk_red_a_held_shot_fires_where_the_goon_comes_onto_the_alley() -> None:
    result, events = await play_on_demo_table(play_cpr, ("gm", "bob"))
    # The alley's squares span x 10..12 (2 m squares 5 across); the goon's disc (1 m
    # radius) touches them when its centre reaches x = 13, moving west along y = 5.
    prompt = result["prompt"]
    assert (prompt.kind, prompt.attacker) == ("readied_action", "rex")
    assert prompt.at == pytest.approx((13.0, 5.0))
    assert wire_data(result["fired"])["at"] == pytest.approx([13.0, 5.0])
    completed = wire_data(result["completed"])
    assert completed["at"] == [11.0, 5.0]
    assert completed["cost"] == pytest.approx(6.0)  # its length: MOVE 3 x 2 m
    moved = [wire_data(e) for e in events if e.kind == "move_started"]
    assert moved[-1]["path"] == [[11.0, 5.0]]


async def test_mutants_masterminds_a_close_attack_after_a_waypoint_move() -> None:
    result, events = await play_on_demo_table(play_mm, ("gm", "alice"))
    completed = wire_data(result["completed"])
    assert completed["at"] == [7.25, 4.5]
    # From (2.5, 2.5) to (5, 4.5), then 2.25 m east: the length of the two segments.
    assert completed["cost"] == pytest.approx(math.hypot(2.5, 2.0) + 2.25)
    # 7.25 - 8.5 = 1.25 m apart: within a 1 m reach of the hero's disc to the minion's
    # centre's cell (1 + (1 + 1 - 1) / 2 = 1.5 m).
    check = next(wire_data(e) for e in events if e.kind == "attack_check")
    assert check["target"] == "minion"
