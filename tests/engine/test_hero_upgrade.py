"""What a release before the ruleset seam stored still reads: its states (snapshots of
Hero fights, ``tests/engine/golden/hero_v1_states.json``, the final states of the
``db_v1`` fixture tables) and its logged Hero commands (``attack``, ``delay`` ...)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import AnswerPrompt, Encounter, EncounterState, EndPhase, from_plain, to_plain
from engine.commands import Act
from engine.rulesets.hero.state import hero
from engine.rulesets.hero.upgrade import LEGACY_ACTS, command_to_act, state_to_seam
from tests.engine.helpers import fight, kinds, token

STATES = json.loads(
    (Path(__file__).parent / "golden" / "hero_v1_states.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("name", sorted(STATES))
def test_a_pre_seam_state_reads_and_round_trips(name: str) -> None:
    state = from_plain(EncounterState, state_to_seam(STATES[name]))
    assert from_plain(EncounterState, to_plain(state)) == state
    old = STATES[name]["combat"]
    if old is None:
        assert state.combat is None
        return
    fight_state = hero(state.combat)  # type: ignore[arg-type]
    assert len(fight_state.forfeits) == len(old["forfeits"])
    assert len(fight_state.vitals) == len(old["vitals"])
    assert fight_state.usage.moved == old["usage"]["moved"]


def test_a_carried_forward_fight_goes_on() -> None:
    waiting = from_plain(EncounterState, state_to_seam(STATES["waiting"]))
    encounter = Encounter(waiting)
    events = encounter.apply(AnswerPrompt("gm", "p1", False))
    assert kinds(events)[:2] == ["prompt_closed", "move_completed"]
    fighting = Encounter(from_plain(EncounterState, state_to_seam(STATES["hero-fight"])))
    combat = fighting.state.combat
    assert combat is not None
    assert "combatant_done" in kinds(fighting.apply(EndPhase("gm", combat.actor)))


def legacy(command: Act) -> dict[str, Any]:
    """The plain form a pre-seam release logged for this Hero action."""
    plain: dict[str, Any] = {"actor": command.actor, "token": command.token, **command.params}
    if command.action in LEGACY_ACTS:
        return {"type": command.action, **plain}
    return {"type": "take_action", **plain, "action": command.action}


def test_pre_seam_commands_read_as_the_act_they_are_now() -> None:
    from engine.rulesets.hero.commands import Abort, Attack, Delay, Ready, SetVitals, TakeAction
    from engine.rulesets.hero.state import Maneuver

    made = [
        Attack("alice", "hero", "ogre", maneuver=Maneuver("strike"), rolls=(3, 4, 5)),
        TakeAction("alice", "hero", "defend", maneuver=Maneuver("dodge", 0, 3)),
        Delay("alice", "hero", "ogre"),
        Ready("alice", "hero", "attack", None, ((1, 2),)),
        Abort("bob", "elf", None, "move"),
        SetVitals("gm", "hero", 3, 4),
    ]
    for command in made:
        plain = command_to_act(legacy(command))
        assert plain.pop("type") == "act"
        assert from_plain(Act, json.loads(json.dumps(plain))) == Act(
            command.actor, command.token, command.action, json.loads(json.dumps(command.params))
        )


def test_a_pre_seam_log_replays_to_the_same_events() -> None:
    from engine.rulesets.hero.commands import Attack, Delay, TakeAction, TakeDelayed

    def play(to_plain_form: bool) -> list[list[str]]:
        encounter = fight(
            token("hero", 4, 5, owner="alice", init=14),
            token("ogre", 5, 5, init=12),
            token("elf", 1, 9, owner="bob", init=10),
        )
        commands: list[Any] = [
            TakeAction("alice", "hero", "draw_focus", detail="sword"),
            Attack("alice", "hero", "ogre", rolls=(3, 3, 3)),
            EndPhase("alice", "hero"),
            Delay("gm", "ogre"),
            TakeDelayed("gm", "ogre"),
        ]
        seen = []
        for command in commands:
            if to_plain_form and isinstance(command, Act):
                plain = command_to_act(json.loads(json.dumps(legacy(command))))
                plain.pop("type")
                command = from_plain(Act, plain)
            seen.append([json.dumps(to_plain(e), sort_keys=True) for e in encounter.apply(command)])
        return seen

    assert play(True) == play(False)
