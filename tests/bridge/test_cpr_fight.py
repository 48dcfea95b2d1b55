"""Issue 12's golden Cyberpunk RED fight, played live: every rule it is meant to show
really happens.  (``test_replay_cli`` replays the recorded copy in ``tests/recordings/``.)
"""

from __future__ import annotations

from typing import Any

from tests.scenario_cpr import run_fight
from tests.wsclient import wire_data


def data(events: list[Any], kind: str) -> list[dict[str, Any]]:
    return [wire_data(e) for e in events if e.kind == kind]


async def test_the_cyberpunk_red_fight_shows_every_rule() -> None:
    events, asked = await run_fight()
    kinds = [e.kind for e in events]
    # ask_options: what Gina may do and why not, before her turn's actions and after.
    before, after = asked
    assert before.can_act and before.movement_left == 8.0
    assert {"walk", "swim", "attack", "hold_action", "end_phase"} <= set(before.available)
    assert "move first" in {u.action: u.reason for u in before.unavailable}["run"]
    assert {u.action: u.reason for u in after.unavailable}["attack"] == (
        '"no more than two attacks a turn"'
    )
    assert after.movement_left == 2.0
    # A tie rerolled: Gina and the boss both 16; only they reroll; the scores stay.
    rolls = [d["purpose"] for d in data(events, "dice_rolled")]
    assert [r for r in rolls if "reroll, tie" in r] == [
        "initiative reroll, tie at 16: gina REF 8 + d10",
        "initiative reroll, tie at 16: boss REF 8 + d10",
    ]
    first_order = data(events, "initiative_order")[0]
    assert first_order["order"] == ["gina", "boss", "rex", "goon"]
    assert dict(map(tuple, first_order["scores"]))["boss"] == 16
    # A move split around an ROF 2 attack: move, shoot, move, shoot.
    gina = [
        e.kind
        for e in events
        if wire_data(e).get("token") == "gina" or wire_data(e).get("attacker") == "gina"
    ][:6]
    assert gina == ["move_started", "move_completed", "cpr_attack",
                    "move_started", "move_completed", "cpr_attack"]  # fmt: skip
    assert [d["number"] for d in data(events, "cpr_attack") if d["attacker"] == "gina"] == [1, 2]
    # A newcomer rolls the table's die and takes its place: tied with Rex at 14, only the
    # two reroll, and Rex comes out on top.
    joins = [(d["purpose"], d["results"], d["source"]) for d in data(events, "dice_rolled")
             if "nix" in d["purpose"]]  # fmt: skip
    why = "initiative reroll, nix joins tied with rex at 14"
    assert joins == [
        ("initiative (joins): nix REF 7 + d10", [7], "table"),
        (f"{why}: nix REF 7 + d10", [1], "table"),
        (f"{why}: rex REF 6 + d10", [9], "table"),
    ]
    joined = data(events, "combatant_joined")[0]
    assert (joined["combatant"], joined["score"], joined["token"]["id"]) == ("nix", 14, "nix")
    assert data(events, "initiative_order")[1]["order"] == ["gina", "boss", "rex", "nix", "goon"]
    # A Hold Action fired by a token entering an area, interrupting the goon's move.
    fired = data(events, "cpr_held_fired")[0]
    assert (fired["holder"], fired["by"]) == ("rex", "goon")
    held_shot = [d for d in data(events, "cpr_attack") if d["held"]]
    assert held_shot and held_shot[0]["attacker"] == "rex"
    i = kinds.index("cpr_held_fired")
    assert kinds.index("move_interrupted") < i < kinds.index("interjection_ended")
    assert data(events, "move_completed")[2] == {
        "token": "goon", "at": [10, 2], "cost": 6.0, "movement_left": 0.0,
    }  # fmt: skip
    # Another lost at the end of the Round, before Round 2 opens.
    assert data(events, "cpr_held_lost") == [
        {"holder": "boss", "action": "attack", "reason": "the Round ended"}
    ]
    rounds = [i for i, e in enumerate(events) if e.kind == "pass_started"]
    assert kinds.index("cpr_held_lost") < rounds[1]
    # Swimming: two squares of canal, 2 m per 1 m: the boss's whole 8 m.
    swim = [d for d in data(events, "move_completed") if d["token"] == "boss"]
    assert swim == [{"token": "boss", "at": [11, 6], "cost": 8.0, "movement_left": 0.0}]
    # The newcomer acts in Round 2 at its place.
    acts = [
        d["combatant"] for d in data(events, "combatant_acts") if d["clock"]["label"] == "Round 2"
    ]
    assert acts == ["gina", "boss", "rex", "nix", "goon"]
