"""Seed 000, *Delay*, for a delay with no place named: "just wait until some time later
and act then".  The text's consequences, each a test:

* "Your INIT changes to when you took the delayed action."
* "If you come to your next action and have not yet performed an action, you don't get
  to take a delayed action (though you can delay again)."
* "If you take a delayed action in the next Phase, before your regular action comes up,
  your INIT score rises to that new point in the order of actions, and you do not get
  your regular action that Phase."
"""

from __future__ import annotations

from engine import AnswerPrompt, EndPhase, ExpirePrompt, SetCondition
from engine.events import PromptOpened
from engine.rulesets.hero.commands import Delay, TakeDelayed
from engine.rulesets.hero.events import DelayTaken, HoldLapsed
from engine.rulesets.hero.state import hero
from tests.engine.helpers import fight, kinds, refused, token


def three():  # type: ignore[no-untyped-def]
    return fight(
        token("hero", 1, 1, owner="alice", init=15),
        token("ogre", 9, 9, init=10),
        token("elf", 1, 9, owner="bob", init=5),
    )


def state(encounter):  # type: ignore[no-untyped-def]
    combat = encounter.state.combat
    assert combat is not None
    return combat


def asked(events: list[object]) -> PromptOpened:
    prompts = [e for e in events if isinstance(e, PromptOpened)]
    assert len(prompts) == 1 and prompts[0].prompt_kind == "delayed_action"
    return prompts[0]


def test_just_wait_and_act_then_at_the_end_of_the_phase_fixes_init_there() -> None:
    """ "just wait until some time later and act then, thus fixing your new INIT score at
    that point": when everyone else has acted the delayer is asked, not forced."""
    encounter = three()
    encounter.apply(Delay("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    events = encounter.apply(EndPhase("bob", "elf"))
    prompt = asked(events)
    assert prompt.controller == "alice" and prompt.attacker == "hero"
    assert "delay_taken" not in kinds(events) and "pass_started" not in kinds(events)
    events = encounter.apply(AnswerPrompt("alice", prompt.prompt, True))
    assert DelayTaken("hero", None) in events
    combat = state(encounter)
    assert combat.actor == "hero" and combat.order == ("ogre", "elf", "hero")
    assert dict(combat.scores)["hero"] == 5  # "Your INIT changes to when you took" it
    events = encounter.apply(EndPhase("alice", "hero"))
    assert "pass_started" in kinds(events) and state(encounter).actor == "ogre"


def test_a_delayer_may_keep_waiting_past_the_end_of_the_phase() -> None:
    """Declining (or letting the prompt expire) keeps the delay: the next Phase opens and
    the delay is still held."""
    encounter = three()
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    events = encounter.apply(Delay("bob", "elf"))  # the last in the order delays
    prompt = asked(events)
    events = encounter.apply(ExpirePrompt("system", prompt.prompt))
    assert "pass_started" in kinds(events)
    combat = state(encounter)
    assert (combat.turn, combat.phase, combat.actor) == (1, 2, "hero")
    hold = hero(combat).hold("elf")
    assert hold is not None and hold.kind == "delay" and hold.declared == (1, 1)


def test_a_delayed_action_taken_in_the_next_phase_raises_init_and_replaces_the_regular_one() -> (
    None
):
    """ "If you take a delayed action in the next Phase, before your regular action comes
    up, your INIT score rises to that new point in the order of actions, and you do not
    get your regular action that Phase." """
    encounter = three()
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    prompt = asked(encounter.apply(Delay("bob", "elf")))
    encounter.apply(AnswerPrompt("bob", prompt.prompt, False))
    events = encounter.apply(TakeDelayed("bob", "elf"))  # Phase 2, before the hero acts
    assert DelayTaken("elf", "hero") in events
    combat = state(encounter)
    assert combat.actor == "elf" and combat.order == ("elf", "hero", "ogre")
    assert dict(combat.scores)["elf"] == 15  # "rises to that new point"
    seen = []
    for _ in range(3):
        combat = state(encounter)
        seen.append((combat.phase, combat.actor))
        owner = {"hero": "alice", "ogre": "gm", "elf": "bob"}[combat.actor]
        encounter.apply(EndPhase(owner, combat.actor))
    # No regular action for the elf in Phase 2; in Phase 3 it acts first.
    assert seen == [(2, "elf"), (2, "hero"), (2, "ogre")]
    assert (state(encounter).phase, state(encounter).actor) == (3, "elf")


def test_a_delayer_who_never_acts_keeps_its_init_and_may_delay_again() -> None:
    """ "If you come to your next action and have not yet performed an action, you don't
    get to take a delayed action (though you can delay again)": the hold lapses, the INIT
    stays what it was."""
    encounter = three()
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(Delay("gm", "ogre"))
    prompt = asked(encounter.apply(EndPhase("bob", "elf")))
    encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    events = encounter.apply(EndPhase("alice", "hero"))  # Phase 2: the ogre's INIT comes
    assert HoldLapsed("ogre", "delay") in events
    combat = state(encounter)
    assert combat.actor == "ogre" and combat.order == ("hero", "ogre", "elf")
    assert dict(combat.scores)["ogre"] == 10
    encounter.apply(Delay("gm", "ogre"))  # "though you can delay again"
    assert state(encounter).actor == "elf"


def test_a_delay_cannot_be_taken_once_ones_own_next_action_has_come() -> None:
    encounter = three()
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(Delay("gm", "ogre"))
    prompt = asked(encounter.apply(EndPhase("bob", "elf")))
    encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    refused(encounter, TakeDelayed("gm", "ogre"), "no_hold")


def test_several_waiting_delayers_are_asked_one_at_a_time_in_init_order() -> None:
    encounter = three()
    encounter.apply(Delay("alice", "hero"))
    encounter.apply(Delay("gm", "ogre"))
    first = asked(encounter.apply(EndPhase("bob", "elf")))
    assert first.attacker == "hero"
    second = asked(encounter.apply(AnswerPrompt("alice", first.prompt, False)))
    assert second.attacker == "ogre"
    events = encounter.apply(AnswerPrompt("gm", second.prompt, True))
    assert DelayTaken("ogre", None) in events and state(encounter).actor == "ogre"
    # After the ogre's delayed action the hero, still waiting, is asked again: later still.
    third = asked(encounter.apply(EndPhase("gm", "ogre")))
    assert third.attacker == "hero"
    encounter.apply(AnswerPrompt("alice", third.prompt, False))
    assert (state(encounter).phase, state(encounter).actor) == (2, "hero")


def test_while_the_delayer_is_asked_nothing_else_happens() -> None:
    encounter = three()
    encounter.apply(Delay("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    asked(encounter.apply(EndPhase("bob", "elf")))
    refused(encounter, EndPhase("bob", "elf"), "prompt_pending")
    refused(encounter, TakeDelayed("alice", "hero"), "prompt_pending")


def test_a_delayer_that_can_no_longer_act_cannot_take_it_at_the_end() -> None:
    encounter = three()
    encounter.apply(Delay("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    prompt = asked(encounter.apply(EndPhase("bob", "elf")))
    encounter.apply(SetCondition("gm", "hero", "cannot_act", True))
    refused(encounter, AnswerPrompt("alice", prompt.prompt, True), "illegal_action")
    events = encounter.apply(AnswerPrompt("alice", prompt.prompt, False))
    assert "pass_started" in kinds(events)


def test_options_offer_the_kept_delay_in_the_next_phase_until_ones_own_action() -> None:
    encounter = three()
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))
    prompt = asked(encounter.apply(Delay("bob", "elf")))
    assert encounter.options("elf", "bob").open_prompts == (prompt.prompt,)
    encounter.apply(AnswerPrompt("bob", prompt.prompt, False))
    assert "take_delayed" in encounter.options("elf", "bob").available  # Phase 2, hero up
    encounter.apply(EndPhase("alice", "hero"))
    encounter.apply(EndPhase("gm", "ogre"))  # the elf's own INIT: the delay lapses
    options = encounter.options("elf", "bob")
    assert options.can_act and "take_delayed" not in options.available
    assert "delay" in options.available  # "though you can delay again"
