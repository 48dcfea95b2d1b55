"""``end_combat``: the GM ends a fight in each shipped game.  Whatever the fight holds
open (a prompt, a paused move, a held, readied or delayed action, a timed effect) ends
with its own event, in the documented order, then ``combat_ended``; afterwards the scene
loads again, tokens move freely and a second fight starts.  Refusals change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    EndCombat,
    EndPhase,
    GridSpec,
    LoadScene,
    Move,
    Scene,
    SetEffect,
    StartCombat,
    replay_commands,
)
from engine.events import CombatEnded, EffectEnded, PromptClosed
from engine.rulesets.cyberpunk_red.events import HeldActionLost
from engine.rulesets.hero.commands import Delay
from engine.rulesets.hero.events import HoldLapsed
from engine.rulesets.hero.state import hero
from tests.engine.cyberpunk_red.test_cpr_engine import act, done, started
from tests.engine.helpers import fight, kinds, refused, token
from tests.engine.mutants_masterminds.helpers import fight as mm_fight
from tests.engine.mutants_masterminds.helpers import mm


def hero_three():  # type: ignore[no-untyped-def]
    return fight(
        token("hero", 1, 1, owner="alice", init=15),
        token("ogre", 9, 9, init=10),
        token("elf", 1, 9, owner="bob", init=5),
    )


def a_second_fight_starts(encounter: Any, ruleset: str, mover: str, owner: str) -> None:
    """After the end: no combat, the scene reloads, a token moves freely, a fight starts."""
    assert encounter.state.combat is None
    scene = encounter.state.scene
    start = encounter.state.scene.token(mover)
    encounter.apply(Move(owner, mover, ((start.x + 1, start.y),)))  # free movement
    assert encounter.state.scene.token(mover).cell == (start.x + 1, start.y)
    assert kinds(encounter.apply(LoadScene("gm", scene))) == ["scene_loaded"]
    events = encounter.apply(StartCombat("gm", ruleset, 99))
    assert kinds(events)[0] == "combat_started" and encounter.state.combat is not None


def test_hero_a_delay_with_its_prompt_open_and_an_effect_end_with_the_fight() -> None:
    encounter = hero_three()
    encounter.apply(SetEffect("gm", "smoke", None, 3))
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    asking = encounter.apply(Delay("bob", "elf"))  # the last delays: asked at the end
    prompt = next(e for e in asking if e.kind == "prompt_opened")
    combat = encounter.state.combat
    assert combat is not None and combat.prompts and hero(combat).hold("elf") is not None
    effect = combat.effects[0]

    events = encounter.apply(EndCombat("gm", "the ogre surrendered"))
    assert events == [
        PromptClosed(prompt.prompt, "combat_ended", "gm"),
        EffectEnded(effect.id, "smoke", None, "combat_ended"),
        HoldLapsed("elf", "delay"),
        CombatEnded("the ogre surrendered"),
    ]
    a_second_fight_starts(encounter, "hero-supplement", "hero", "alice")


def test_cyberpunk_red_a_hold_that_fired_mid_move_ends_with_the_fight() -> None:
    encounter = started()
    done(encounter)  # Gina
    done(encounter)  # the boss
    act(encounter, "rex", "hold_action", action="attack", trigger="enters",
        area=[[11, 2], [11, 3]], params={"target": "goon", "weapon": "rifle"})  # fmt: skip
    done(encounter)
    events = encounter.apply(Move("gm", "goon", ((12, 2), (11, 2), (10, 2))))
    prompt = events[-1]
    assert prompt.kind == "prompt_opened"
    combat = encounter.state.combat
    assert combat is not None and combat.pending_move is not None

    events = encounter.apply(EndCombat("gm", None))
    assert kinds(events) == [
        "prompt_closed", "move_stopped", "cpr_held_lost", "combat_ended",
    ]  # fmt: skip
    assert events[0] == PromptClosed(prompt.prompt, "combat_ended", "gm")
    assert events[2] == HeldActionLost("rex", "attack", "the fight ended")
    assert events[-1] == CombatEnded(None)
    goon = encounter.state.scene.token("goon")
    assert events[1].at == goon.cell  # the mover stays where the fight left it
    a_second_fight_starts(encounter, "cyberpunk-red", "gina", "gm")


def test_mutants_and_masterminds_a_timed_effect_ends_with_the_fight() -> None:
    encounter, _ = mm_fight(mm("flash", 1, 1, dex=4), mm("brute", 5, 5, side="villains"))
    encounter.apply(SetEffect("gm", "darkness", "brute", 2))
    encounter.apply(SetEffect("gm", "shield", None, None))
    combat = encounter.state.combat
    assert combat is not None
    ids = [e.id for e in combat.effects]
    events = encounter.apply(EndCombat("gm", "the villains fled"))
    assert events == [
        EffectEnded(ids[0], "darkness", "brute", "combat_ended"),
        EffectEnded(ids[1], "shield", None, "combat_ended"),
        CombatEnded("the villains fled"),
    ]
    a_second_fight_starts(encounter, "mm3e", "flash", "gm")


@pytest.mark.parametrize(("actor", "code"), [("alice", "gm_only"), ("system", "gm_only")])
def test_only_the_gm_ends_a_fight(actor: str, code: str) -> None:
    encounter = hero_three()
    refused(encounter, EndCombat(actor, None), code)


def test_there_is_no_fight_to_end_before_one_starts_or_after_it_ended() -> None:
    encounter = hero_three()
    encounter.apply(EndCombat("gm", None))
    refused(encounter, EndCombat("gm", None), "no_combat")
    empty = replay_commands([LoadScene("gm", Scene(GridSpec(4, 4), ()))])
    refused(empty, EndCombat("gm", "nothing"), "no_combat")


def test_an_ended_fight_replays_to_the_same_state() -> None:
    scene = Scene(GridSpec(20, 20), (token("hero", 1, 1, owner="alice"), token("ogre", 9, 9)))
    commands = [
        LoadScene("gm", scene),
        StartCombat("gm", "hero-supplement", 7),
        SetEffect("gm", "smoke", None, 1),
        EndCombat("gm", "done"),
        StartCombat("gm", "hero-supplement", 8),
    ]
    first, second = replay_commands(commands), replay_commands(commands)
    assert first.state_hash() == second.state_hash()
    combat = first.state.combat
    assert combat is not None and combat.effects == () and combat.turn == 1
