"""Seed 000: attacks of opportunity's exemptions, and *Special Initiative Actions*
(Delay, Ready, Abort), each rule in the text's terms."""

from __future__ import annotations

import pytest

from engine import AnswerPrompt, EndPhase, ExpirePrompt, Move, SetCondition
from engine.events import CombatantSkipped, MoveCompleted, MoveStopped, PromptOpened
from engine.rulesets.hero import HeroSupplement
from engine.rulesets.hero.commands import Abort, Attack, Delay, Ready, TakeAction, TakeDelayed
from engine.rulesets.hero.events import HoldLapsed
from engine.rulesets.hero.state import Maneuver
from tests.engine.helpers import fight, kinds, refused, token

#: The Hero supplement's clock (Turns of four Phases).
HERO_TIME = HeroSupplement.time_words

DODGE = Maneuver("dodge", 0, 3)


def order(encounter) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    assert encounter.state.combat is not None
    return encounter.state.combat.order  # type: ignore[no-any-return]


def actor(encounter) -> str:  # type: ignore[no-untyped-def]
    assert encounter.state.combat is not None
    return encounter.state.combat.actor  # type: ignore[no-any-return]


def prompts(events: list[object]) -> list[PromptOpened]:
    return [e for e in events if isinstance(e, PromptOpened)]


# -- Attacks of Opportunity: what does not provoke ------------------------------------------


def test_the_1m_step_never_provokes() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    assert kinds(encounter.apply(Move("alice", "hero", ((3, 5),), mode="step"))) == [
        "move_started",
        "move_completed",
    ]


def test_attacking_the_threatener_as_part_of_the_action_does_not_provoke_it() -> None:
    # Attack first, then move away: the ogre was attacked as part of the action.
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(Attack("alice", "hero", "ogre", rolls=(1, 1, 1)))
    assert "prompt_opened" not in kinds(encounter.apply(Move("alice", "hero", ((3, 5), (2, 5)))))
    # Move past, then attack at the end of the move: declared with the move.
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    events = encounter.apply(Move("alice", "hero", ((4, 6), (5, 6)), attack="ogre"))
    assert "prompt_opened" not in kinds(events)
    assert kinds(events)[-2:] == ["dice_rolled", "attack_rolled"]


def test_a_move_with_an_attack_needs_the_attack_action_left() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    path = tuple((4, 5 + i) for i in range(1, 8))  # 7 m: two move actions
    refused(encounter, Move("alice", "hero", path, attack="ogre"), "over_budget")


def test_no_attack_of_opportunity_after_a_dodge() -> None:
    encounter = fight(token("ogre", 5, 5, init=10), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(TakeAction("gm", "ogre", "defend", maneuver=DODGE))
    encounter.apply(EndPhase("gm", "ogre"))
    assert "prompt_opened" not in kinds(encounter.apply(Move("alice", "hero", ((3, 5),))))


@pytest.mark.parametrize("name", ["Dodge", "DODGE", " dodge ", "dodge"])
def test_no_attack_of_opportunity_after_a_dodge_however_the_table_spells_it(name: str) -> None:
    """ "you cannot make an attack of opportunity if you have used the dodge manoeuvre"."""
    encounter = fight(token("ogre", 5, 5, init=10), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(TakeAction("gm", "ogre", "defend", maneuver=Maneuver(name, 0, 3)))
    encounter.apply(EndPhase("gm", "ogre"))
    assert "prompt_opened" not in kinds(encounter.apply(Move("alice", "hero", ((3, 5),))))


def test_a_hit_lets_the_gm_stop_the_mover() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(Move("alice", "hero", ((3, 5), (2, 5))))
    events = encounter.apply(AnswerPrompt("gm", "p1", True, (6, 6, 6)))
    (ask,) = prompts(events)
    assert (ask.prompt_kind, ask.controller) == ("continue_after_hit", "gm")
    refused(encounter, AnswerPrompt("alice", ask.prompt, True), "not_your_prompt")
    events = encounter.apply(AnswerPrompt("gm", ask.prompt, False))
    assert isinstance(events[-1], MoveStopped) and events[-1].at == (4, 5)
    # A miss goes straight on.
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(Move("alice", "hero", ((3, 5), (2, 5))))
    events = encounter.apply(AnswerPrompt("gm", "p1", True, (1, 1, 1)))
    assert isinstance(events[-1], MoveCompleted)


# -- Withdraw -------------------------------------------------------------------------------


def test_withdrawing_from_an_adjacent_visible_enemy_does_not_provoke() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    events = encounter.apply(Move("alice", "hero", ((3, 5), (2, 5)), mode="withdraw"))
    assert kinds(events) == ["move_started", "move_completed"]


def test_withdrawing_from_an_enemy_with_unusual_reach_provokes() -> None:
    encounter = fight(
        token("giant", 5, 5, init=1, reach=2.0), token("hero", 4, 5, owner="alice", init=9)
    )
    events = encounter.apply(Move("alice", "hero", ((3, 5), (2, 5)), mode="withdraw"))
    assert [p.attacker for p in prompts(events)] == ["giant"]


def test_withdrawing_past_an_enemy_provokes() -> None:
    # Start beside the ogre, then walk along it: leaving (4,6), another of its squares.
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    events = encounter.apply(Move("alice", "hero", ((4, 6), (4, 7)), mode="withdraw"))
    (prompt,) = prompts(events)
    assert prompt.attacker == "ogre" and prompt.at == (4, 6)


def test_an_enemy_the_withdrawer_cannot_sense_still_gets_its_attack() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(SetCondition("gm", "ogre", "invisible", True))
    events = encounter.apply(Move("alice", "hero", ((3, 5), (2, 5)), mode="withdraw"))
    assert [p.attacker for p in prompts(events)] == ["ogre"]


def test_withdrawing_in_darkness_the_adjacent_enemy_is_not_seen_and_gets_its_attack() -> None:
    """ "You are not considered threatened by any adjacent opponent you can see": a
    withdrawing character in darkness sees no one, so the adjacent ogre still gets its
    attack of opportunity."""
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(SetCondition("gm", "hero", "darkness", True))
    events = encounter.apply(Move("alice", "hero", ((3, 5), (2, 5)), mode="withdraw"))
    assert [p.attacker for p in prompts(events)] == ["ogre"]


def test_withdrawing_from_an_adjacent_enemy_standing_in_darkness_provokes() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(SetCondition("gm", "ogre", "darkness", True))
    events = encounter.apply(Move("alice", "hero", ((3, 5), (2, 5)), mode="withdraw"))
    assert [p.attacker for p in prompts(events)] == ["ogre"]


# -- Delay ----------------------------------------------------------------------------------


def three() -> tuple[object, ...]:
    return (
        token("hero", 1, 1, owner="alice", init=15),
        token("ogre", 9, 9, init=10),
        token("elf", 1, 9, owner="bob", init=5),
    )


def test_delay_to_just_before_someone() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    events = encounter.apply(Delay("alice", "hero", before="elf"))
    assert kinds(events)[:3] == ["hold_declared", "combatant_done", "combatant_acts"]
    assert actor(encounter) == "ogre"
    events = encounter.apply(EndPhase("gm", "ogre"))
    assert "delay_taken" in kinds(events)
    assert actor(encounter) == "hero" and order(encounter) == ("ogre", "hero", "elf")
    encounter.apply(EndPhase("alice", "hero"))
    assert actor(encounter) == "elf"
    # Next Phase: the hero's INIT is now just before the elf's.
    encounter.apply(EndPhase("bob", "elf"))
    assert actor(encounter) == "ogre"


def test_a_delayed_action_waits_and_cannot_interrupt() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    encounter.apply(Delay("alice", "hero"))
    encounter.apply(Move("gm", "ogre", ((8, 8),)))
    refused(encounter, TakeDelayed("alice", "hero"), "illegal_action")  # the ogre has acted
    encounter.apply(EndPhase("gm", "ogre"))
    events = encounter.apply(TakeDelayed("alice", "hero"))  # before the elf, who has not
    assert kinds(events) == ["delay_taken", "initiative_order", "combatant_acts"]
    assert order(encounter) == ("ogre", "hero", "elf") and actor(encounter) == "hero"
    refused(encounter, TakeDelayed("alice", "hero"), "no_hold")


def test_a_delay_is_lost_when_the_next_action_comes() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    encounter.apply(Delay("alice", "hero", before="elf"))
    encounter.apply(SetCondition("gm", "hero", "cannot_act", True))
    encounter.apply(EndPhase("gm", "ogre"))  # the elf's place comes; the hero cannot act
    assert actor(encounter) == "elf"
    encounter.apply(SetCondition("gm", "hero", "cannot_act", False))
    events = encounter.apply(EndPhase("bob", "elf"))  # Phase 2: the hero's own INIT comes
    assert HoldLapsed("hero", "delay") in events
    assert actor(encounter) == "hero" and order(encounter) == ("hero", "ogre", "elf")


def test_a_delayed_action_taken_next_phase_raises_init_and_costs_the_regular_action() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(Delay("gm", "ogre", before="hero"))  # the hero's next place: Phase 2
    encounter.apply(EndPhase("bob", "elf"))
    # Phase 2: the ogre acts just before the hero, taking its delayed action.
    assert actor(encounter) == "ogre" and order(encounter) == ("ogre", "hero", "elf")
    encounter.apply(EndPhase("gm", "ogre"))
    encounter.apply(EndPhase("alice", "hero"))
    assert actor(encounter) == "elf"  # no second, regular action for the ogre this Phase


def test_delay_takes_no_action_on_ones_init() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    encounter.apply(Move("alice", "hero", ((2, 1),)))
    refused(encounter, Delay("alice", "hero"), "illegal_action")


# -- Ready ----------------------------------------------------------------------------------


def test_readying_is_an_attack_action() -> None:
    encounter = fight(token("hero", 4, 5, owner="alice", init=9), token("ogre", 5, 5, init=1))
    encounter.apply(Attack("alice", "hero", "ogre", rolls=(1, 1, 1)))
    refused(encounter, Ready("alice", "hero", "attack", trigger_by="ogre"), "over_budget")


def test_a_ready_on_entering_an_area_interrupts_just_before_and_moves_init() -> None:
    elf = token("elf", 6, 2, owner="bob", init=15)
    ogre = token("ogre", 9, 5, init=10)
    encounter = fight(elf, ogre)
    encounter.apply(Ready("bob", "elf", "attack", area=((6, 4), (6, 5), (5, 5))))
    encounter.apply(EndPhase("bob", "elf"))
    events = encounter.apply(Move("gm", "ogre", ((8, 5), (7, 5), (6, 5), (5, 5))))
    (prompt,) = prompts(events)
    assert (prompt.prompt_kind, prompt.controller, prompt.at) == ("readied_action", "bob", (7, 5))
    events = encounter.apply(AnswerPrompt("bob", prompt.prompt, True))
    assert "readied_action_taken" in kinds(events)
    assert actor(encounter) == "elf" and order(encounter) == ("elf", "ogre")
    # Only the readied attack action: no move action.
    refused(encounter, TakeAction("bob", "elf", "draw_focus"), "illegal_action")
    encounter.apply(Attack("bob", "elf", "ogre", ranged=True, range=9.0))
    events = encounter.apply(EndPhase("bob", "elf"))
    assert kinds(events)[:2] == ["interjection_ended", "move_completed"]
    assert actor(encounter) == "ogre"


def test_a_ready_on_another_characters_action_fires_before_it() -> None:
    encounter = fight(token("elf", 1, 1, owner="bob", init=15), token("ogre", 9, 9, init=10))
    encounter.apply(Ready("bob", "elf", "move", trigger_by="ogre"))
    events = encounter.apply(EndPhase("bob", "elf"))
    (prompt,) = prompts(events)
    refused(encounter, Move("gm", "ogre", ((8, 8),)), "prompt_pending")
    encounter.apply(AnswerPrompt("bob", prompt.prompt, True))
    encounter.apply(Move("bob", "elf", ((2, 1), (3, 1))))
    refused(encounter, Move("bob", "elf", ((4, 1), (5, 1), (6, 1), (7, 1), (8, 1))), "over_budget")
    encounter.apply(EndPhase("bob", "elf"))
    assert actor(encounter) == "ogre"


def test_a_declined_ready_keeps_waiting_and_lapses_at_the_next_action() -> None:
    encounter = fight(token("elf", 1, 1, owner="bob", init=15), token("ogre", 9, 9, init=10))
    encounter.apply(Ready("bob", "elf", "attack", trigger_by="ogre"))
    (prompt,) = prompts(encounter.apply(EndPhase("bob", "elf")))
    encounter.apply(ExpirePrompt("system", prompt.prompt))
    events = encounter.apply(EndPhase("gm", "ogre"))
    assert HoldLapsed("elf", "ready") in events and actor(encounter) == "elf"


def test_the_1m_step_comes_with_a_readied_action_only_without_other_movement() -> None:
    encounter = fight(token("elf", 1, 1, owner="bob", init=15), token("ogre", 9, 9, init=10))
    encounter.apply(Move("bob", "elf", ((2, 1),)))
    encounter.apply(Ready("bob", "elf", "attack", trigger_by="ogre"))
    (prompt,) = prompts(encounter.apply(EndPhase("bob", "elf")))
    encounter.apply(AnswerPrompt("bob", prompt.prompt, True))
    refused(encounter, Move("bob", "elf", ((3, 1),), mode="step"), "over_budget")


# -- Abort ----------------------------------------------------------------------------------


def test_abort_before_ones_init_gives_up_that_action() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    events = encounter.apply(Abort("bob", "elf", DODGE))
    assert events[0].gives_up == (1, 1)  # type: ignore[attr-defined]
    encounter.apply(EndPhase("alice", "hero"))
    events = encounter.apply(EndPhase("gm", "ogre"))
    assert CombatantSkipped("elf", HERO_TIME.reading(1, 1), "aborted") in events
    assert actor(encounter) == "hero"
    assert order(encounter) == ("hero", "ogre", "elf")  # INIT unchanged


def test_abort_after_acting_gives_up_the_next_phases_action_and_locks_aborting() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    encounter.apply(EndPhase("alice", "hero"))
    events = encounter.apply(Abort("alice", "hero", DODGE))
    assert events[0].gives_up == (1, 2)  # type: ignore[attr-defined]
    encounter.apply(EndPhase("gm", "ogre"))
    events = encounter.apply(EndPhase("bob", "elf"))
    assert CombatantSkipped("hero", HERO_TIME.reading(1, 2), "aborted") in events
    assert actor(encounter) == "ogre"
    # The lock lifts once its INIT has passed in that Phase.
    encounter.apply(Abort("alice", "hero", DODGE))


def test_no_abort_again_before_init_after_giving_up_the_next_phase() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    encounter.apply(Abort("gm", "ogre", DODGE))  # acted already: gives up Phase 2's action
    encounter.apply(EndPhase("bob", "elf"))
    assert actor(encounter) == "hero"  # Phase 2, before the ogre's INIT
    refused(encounter, Abort("gm", "ogre", DODGE), "cannot_abort")
    events = encounter.apply(EndPhase("alice", "hero"))
    assert (
        CombatantSkipped("ogre", HERO_TIME.reading(1, 2), "aborted") in events
        and actor(encounter) == "elf"
    )
    assert encounter.apply(Abort("gm", "ogre", DODGE))[0].gives_up == (1, 3)  # type: ignore[attr-defined]


def test_the_acting_character_does_not_abort() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    refused(encounter, Abort("alice", "hero", DODGE), "cannot_abort")


def test_an_aborted_dodge_raises_dcv_and_ends_aos() -> None:
    encounter = fight(
        token("ogre", 5, 5, init=9, dcv=4), token("hero", 4, 5, owner="alice", init=10)
    )
    encounter.apply(Abort("gm", "ogre", DODGE))
    events = encounter.apply(Attack("alice", "hero", "ogre", rolls=(3, 3, 3)))
    assert events[-1].dcv == 7  # type: ignore[attr-defined]
    assert "prompt_opened" not in kinds(
        encounter.apply(Move("alice", "hero", ((3, 6),), attack=None))
    )


# -- Initiative: a character who cannot act keeps its INIT ------------------------------------


def test_a_character_who_cannot_act_is_skipped_and_keeps_init() -> None:
    encounter = fight(*three())  # type: ignore[arg-type]
    encounter.apply(SetCondition("gm", "ogre", "cannot_act", True))
    events = encounter.apply(EndPhase("alice", "hero"))
    assert (
        CombatantSkipped("ogre", HERO_TIME.reading(1, 1), "cannot act") in events
        and actor(encounter) == "elf"
    )
    encounter.apply(SetCondition("gm", "ogre", "cannot_act", False))
    encounter.apply(EndPhase("bob", "elf"))
    encounter.apply(EndPhase("alice", "hero"))
    assert actor(encounter) == "ogre" and order(encounter) == ("hero", "ogre", "elf")


def test_a_readied_action_taken_next_phase_before_its_init_replaces_the_regular_action() -> None:
    # The elf readies against the hero's action; the hero acts first in the next Phase.
    encounter = fight(
        token("hero", 1, 1, owner="alice", init=15), token("elf", 9, 1, owner="bob", init=5)
    )
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(Ready("bob", "elf", "move", trigger_by="hero"))
    (prompt,) = prompts(encounter.apply(EndPhase("bob", "elf")))  # Phase 2: the hero is up
    encounter.apply(AnswerPrompt("bob", prompt.prompt, True))
    assert order(encounter) == ("elf", "hero") and actor(encounter) == "elf"
    encounter.apply(EndPhase("bob", "elf"))
    assert actor(encounter) == "hero"
    events = encounter.apply(EndPhase("alice", "hero"))
    assert "pass_started" in kinds(events)  # the elf had no second, regular action


def test_position_shift_makes_standing_up_free() -> None:
    encounter = fight(token("hero", 1, 1, owner="alice", init=15, extra={"position_shift": True}))
    encounter.apply(TakeAction("alice", "hero", "drop_prone"))
    assert encounter.apply(TakeAction("alice", "hero", "stand_up"))[0].slot is None  # type: ignore[attr-defined]
