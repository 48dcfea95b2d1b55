"""Issue 15's golden Powers fight, played live: every rule it is meant to show happens.

(``test_replay_cli`` replays the recorded copy in ``tests/recordings/``.)
"""

from __future__ import annotations

from typing import Any

from tests.scenario_hero_powers import run_powers_fight
from tests.wsclient import wire_data


def used(events: list[Any], who: str) -> list[dict[str, Any]]:
    return [
        wire_data(e) for e in events if e.kind == "power_used" and wire_data(e)["combatant"] == who
    ]


async def test_the_powers_fight_shows_every_rule() -> None:
    events = await run_powers_fight()
    kinds = [e.kind for e in events]
    iron, kas = used(events, "ironclad"), used(events, "kasdrevan")
    # Ironclad: Casual STR 30 (6d6) on the door, 3 END, no time; then STR 60 in the same
    # Phase at Fenris, 6 END, an Attack Action.
    smash, punch = iron[0], iron[1]
    assert (smash["dice"], smash["end"], smash["time"], smash["object"]) == (
        "6d6",
        3,
        "none",
        "door",
    )
    assert (punch["dice"], punch["end"], punch["time"]) == ("12d6", 6, "attack")
    between = kinds[kinds.index("power_used") : kinds.index("power_used") + 3]
    assert "pass_started" not in between and "combatant_done" not in between[:2]
    # Kasdrevan: Casual RKA 1d6 on the Entangle, 1 END, Phase not used; then RKA 2d6.
    casual, full = kas[0], kas[1]
    assert (casual["dice"], casual["end"], casual["time"]) == ("1d6", 1, "none")
    assert (full["dice"], full["end"], full["time"]) == ("2d6", 3, "attack")
    # A Framework switch with part of the reserve, and the Blast at part of its dice.
    switched = next(wire_data(e) for e in events if e.kind == "framework_switched")
    assert switched["allocation"] == [["Jet Boots", 20], ["Sonic Blast", 40]]
    blast = next(u for u in iron if u["power"] == "Sonic Blast")
    assert (blast["dice"], blast["active_points"], blast["end"]) == ("8d6", 40, 4)
    # The Standard Effect Rule: 21, no dice rolled.
    curse = next(u for u in kas if u["power"] == "Frog Curse")
    assert (curse["points"], curse["rolled"], curse["standard"]) == (21, [], 7)
    # END runs out: the Jet Boots' upkeep, a refused punch (the server said why), 0 END,
    # the Boots dropped; the Post-Turn Recovery gives REC 6 back; a full punch in Turn 2.
    upkeep = [wire_data(e) for e in events if e.kind == "power_upkeep"]
    assert upkeep[-1] == {
        "combatant": "ironclad",
        "end": 0,
        "end_left": 0,
        "dropped": ["Jet Boots"],
    }
    assert iron[-2]["end_left"] == 0
    recovered = next(
        wire_data(e)
        for e in events
        if e.kind == "recovered" and wire_data(e)["combatant"] == "ironclad"
    )
    assert recovered["end"] == [0, 6]
    assert (iron[-1]["end"], iron[-1]["end_left"]) == (6, 0)
    assert kinds.index("recovered") < len(kinds) - kinds[::-1].index("power_used") - 1
