"""Issue 4's golden fight, played live: every rule it is meant to show really happens.

(``test_replay_cli`` replays the recorded copy in ``tests/recordings/``.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.scenario_hero import run_fight
from tests.wsclient import wire_data


def first(
    events: list[Any], kind: str, where: Callable[[dict[str, Any]], bool] = lambda d: True
) -> dict[str, Any]:
    found = [wire_data(e) for e in events if e.kind == kind and where(wire_data(e))]
    assert found, f"no {kind} event"
    return found[0]


async def test_the_full_fight_shows_every_rule() -> None:
    events = await run_fight()
    kinds = [e.kind for e in events]
    # A Surprise Phase, in which the unaware wolf does not act.
    assert first(events, "pass_started")["surprise"] is True
    surprise_actors = [
        wire_data(e)["combatant"]
        for e in events
        if e.kind == "combatant_acts" and wire_data(e)["clock"]["label"] == "Surprise Phase"
    ]
    assert "wolf" not in surprise_actors
    # A Delay to just before the giant, taken automatically, moving the elf's INIT.
    assert first(events, "delay_taken") == {"combatant": "elf", "before": "giant"}
    # Combat Reflexes: the wolf attacks two opponents in the same Phase.
    wolf_attacks = [
        wire_data(e)["target"]
        for e in events
        if e.kind == "attack_rolled" and wire_data(e)["attacker"] == "wolf"
    ]
    assert wolf_attacks == ["hero", "elf"]
    # A withdraw away from the giant's 2 m reach provokes it.
    withdraw = first(events, "move_interrupted", lambda d: d["by"] == "giant")
    assert withdraw["token"] == "hero"
    # An Abort that gives up the elf's action in that Phase.
    aborted = first(events, "aborted")
    assert first(events, "combatant_skipped")["combatant"] == aborted["combatant"] == "elf"
    # A Ready triggered by the giant's movement: the hero acts just ahead of the giant.
    assert first(events, "readied_action_taken") == {
        "combatant": "hero",
        "trigger_by": "giant",
        "action": "attack",
    }
    orders = [wire_data(e)["order"] for e in events if e.kind == "initiative_order"]
    assert orders[-1].index("hero") + 1 == orders[-1].index("giant")
    # The Post-Turn Recovery after Phase 4, then Turn 2.
    assert first(events, "recovered", lambda d: d["combatant"] == "hero") == {
        "combatant": "hero", "turn": 1, "end": [22, 27], "stun": [18, 23],
    }  # fmt: skip
    turns = [wire_data(e)["clock"]["at"]["turn"] if e.kind == "pass_started" else 0 for e in events]
    assert kinds.index("recovered") < turns.index(2)
