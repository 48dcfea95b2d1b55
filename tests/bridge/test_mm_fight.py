"""Issue 14's golden Mutants & Masterminds fight, played live: every rule it is meant to
show really happens.  (``test_replay_cli`` replays the recorded copy in
``tests/recordings/``; ``python -m tests.scenario_mm`` records it again.)"""

from __future__ import annotations

from typing import Any

import protocol
from tests.bridge.conftest import Bridge
from tests.scenario_mm import SEED, fight_scene, run_fight
from tests.wsclient import wire_data


def data(events: list[Any], kind: str) -> list[dict[str, Any]]:
    return [wire_data(e) for e in events if e.kind == kind]


async def test_the_mm_fight_shows_every_rule() -> None:
    events = await run_fight()
    kinds = [e.kind for e in events]
    checks = data(events, "initiative_check")
    order = data(events, "initiative_order")[0]
    scores = dict(map(tuple, order["scores"]))
    # A tie settled by the initiative modifier: the hero (+4) before the ally (+1).
    ties = data(events, "initiative_tie")
    assert ties[0]["by"] == "modifier" and ties[0]["order"] == [["hero"], ["ally"]]
    assert scores["hero"] == scores["ally"]
    # Another settled by a roll-off, between the villain and his minions' one check.
    assert ties[1]["by"] == "roll_off"
    grouped = [c["combatants"] for c in checks if len(c["combatants"]) > 1]
    assert grouped == [["minion1", "minion2"]]
    offs = [d for d in data(events, "dice_rolled") if "roll-off" in d["purpose"]]
    winner = max(offs, key=lambda d: d["results"][0])["purpose"].rsplit(": ", 1)[1]
    assert ties[1]["order"][0] == winner.split(", ")
    assert scores["villain"] == scores["minion1"] == scores["minion2"]
    # A surprise round: only the aware heroes act, one action each.
    assert data(events, "pass_started")[0]["surprise"] is True
    surprise = [
        d["combatant"] for d in data(events, "combatant_acts") if d["clock"]["at"] == {"round": 0}
    ]
    assert surprise == ["hero", "ally"]
    # A flat-footed defender attacked: minion1's Parry does not count.
    first = data(events, "attack_check")[0]
    assert (first["target"], first["flat_footed"], first["defence_rank"], first["dc"]) == (
        "minion1", True, 0, 10,
    )  # fmt: skip
    later = [d for d in data(events, "attack_check") if d["target"] == "hero"]
    assert later and not later[0]["flat_footed"] and later[0]["defence_rank"] == 9
    # A newcomer rolls and takes its count in the existing order.
    (joined,) = data(events, "combatant_joined")
    assert joined["combatant"] == "sidekick"
    (own,) = [c for c in checks if c["combatants"] == ["sidekick"]]
    assert own["total"] == joined["score"] == own["d20"] + own["modifier"]
    assert "sidekick" in [d["combatant"] for d in data(events, "combatant_acts")]
    # A trade-down to two moves: 12 m at 6 m a move action.
    assert data(events, "traded_down") == [{"combatant": "villain"}]
    villain_moves = [d for d in data(events, "move_completed") if d["token"] == "villain"]
    assert villain_moves[0]["cost"] == 12.0
    # The smoke ends mid-round in round 2, just before the minions' count comes up (the
    # villain shares it and acts first there).
    ended = kinds.index("effect_ended")
    after = next(wire_data(e) for e in events[ended:] if e.kind == "combatant_acts")
    before = [wire_data(e) for e in events[:ended] if e.kind == "combatant_acts"][-1]
    assert after["combatant"] == "villain" and after["clock"] == {
        "at": {"round": 2},
        "label": "Round 2",
    }
    assert before["clock"]["at"] == {"round": 2} and before["combatant"] == "ally"
    (started,) = data(events, "effect_started")
    assert started["count"] == scores["minion2"] == scores["villain"]


async def test_ask_options_answers_for_an_mm_combatant(bridge: Bridge) -> None:
    table = bridge.table("mm", ["alice", "bob"])
    gm, alice = await bridge.member(table, "gm"), await bridge.member(table, "alice")
    seq = await gm.send(protocol.LoadScene, scene=fight_scene())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    seq = await gm.send(
        protocol.StartCombat, ruleset="mm3e", aware=("hero", "ally"), seed=SEED,
        groups=(("minion1", "minion2"),),
    )  # fmt: skip
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    # The villain, unaware, is told the rule that keeps it out of the surprise round.
    seq = await gm.send(protocol.AskOptions, token="villain")
    idle = await gm.wait_for(protocol.Options, lambda m: m.ref == seq)
    assert not idle.can_act and idle.available == ()
    assert idle.reason is not None
    assert idle.reason.startswith("unaware in the surprise round: no action")
    assert {u.code for u in idle.unavailable} == {"not_your_turn"}
    seq = await alice.send(protocol.AskOptions, token="hero")
    mine = await alice.wait_for(protocol.Options, lambda m: m.ref == seq)
    assert mine.can_act and mine.movement_left == 6.0
    assert set(mine.available) == {"ground", "attack", "use_power", "free_action", "end_phase"}
    assert {u.action: (u.code, u.reason) for u in mine.unavailable}["trade_down"] == (
        "illegal_action",
        "the surprise round allows one standard or move action: nothing to trade",
    )
    attack = {"target": "minion1"}
    seq = await alice.send(protocol.Act, token="hero", action="attack", params=attack)
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    seq = await alice.send(protocol.AskOptions, token="hero")
    mine = await alice.wait_for(protocol.Options, lambda m: m.ref == seq)
    refused = {u.action: u.reason for u in mine.unavailable}
    assert "not both" in refused["ground"] and "taken this turn" in refused["attack"]
    # A player's params are checked by the bridge against the action's declaration.
    seq = await alice.send(
        protocol.Act, token="hero", action="attack", params={"target": "minion1", "reach": "far"}
    )
    error = await alice.reply_to(seq)
    assert isinstance(error, protocol.ErrorMessage)
    assert (error.code, error.path) == ("bad_value", "body.params.reach")
