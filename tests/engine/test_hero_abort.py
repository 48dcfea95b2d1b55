"""Seed 000, *Abort*: "You can abort to any defensive attack or move action before your
INIT score comes up in a Phase, giving up your next Action to do so."  The defensive
attack action (a defensive manoeuvre held out of turn) and the move action (taken at once,
out of turn)."""

from __future__ import annotations

import pytest

from engine import AnswerPrompt, EndPhase, Move
from engine.events import CombatantActs, CombatantSkipped, InterjectionEnded
from engine.rulesets.hero import HeroSupplement
from engine.rulesets.hero.commands import Abort, Attack
from engine.rulesets.hero.events import Aborted
from engine.rulesets.hero.state import Maneuver
from tests.engine.helpers import fight, kinds, refused, token

#: The Hero supplement's clock (Turns of four Phases).
HERO_TIME = HeroSupplement.time_words


def three():  # type: ignore[no-untyped-def]
    return fight(
        token("hero", 1, 1, owner="alice", init=15),
        token("ogre", 9, 9, init=10),
        token("elf", 1, 9, owner="bob", init=5),
    )


def actor(encounter) -> str:  # type: ignore[no-untyped-def]
    assert encounter.state.combat is not None
    return encounter.state.combat.actor  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "maneuver",
    [
        Maneuver("dodge", 0, 3),
        Maneuver("Block"),
        Maneuver("dive_for_cover"),
        Maneuver("parry", 0, 2),
    ],
)
def test_an_abort_to_a_defensive_manoeuvre_is_held(maneuver: Maneuver) -> None:
    encounter = three()
    events = encounter.apply(Abort("bob", "elf", maneuver))
    assert events == [Aborted("elf", maneuver.name, maneuver.dcv, (1, 1), "defend")]


@pytest.mark.parametrize(
    "maneuver",
    [Maneuver("strike"), Maneuver("haymaker", 0, -5), Maneuver("martial strike", 2, 1)],
)
def test_an_abort_is_never_to_an_offensive_manoeuvre(maneuver: Maneuver) -> None:
    """ "any defensive attack or move action": a Strike, a Haymaker or a manoeuvre with an
    OCV bonus is not defensive."""
    encounter = three()
    assert "defensive" in refused(encounter, Abort("bob", "elf", maneuver), "cannot_abort")


def test_an_abort_to_a_move_action_moves_out_of_turn_and_gives_up_the_next_action() -> None:
    encounter = three()
    events = encounter.apply(Abort("bob", "elf", None, "move"))
    assert events == [
        Aborted("elf", None, 0, (1, 1), "move"),
        CombatantActs(
            "elf", HERO_TIME.reading(1, 1), True, 6.0
        ),  # one move action: its combat movement
    ]
    assert actor(encounter) == "elf"
    refused(encounter, Attack("bob", "elf", "hero", ranged=True, range=20.0), "illegal_action")
    refused(encounter, Move("bob", "elf", tuple((1 + i, 9) for i in range(1, 8))), "over_budget")
    events = encounter.apply(Move("bob", "elf", ((2, 9), (3, 9))))
    assert kinds(events) == ["move_started", "move_completed"]
    events = encounter.apply(EndPhase("bob", "elf"))
    assert events == [InterjectionEnded("elf")]
    assert actor(encounter) == "hero"  # the interrupted character's action goes on
    encounter.apply(EndPhase("alice", "hero"))
    events = encounter.apply(EndPhase("gm", "ogre"))
    assert (
        CombatantSkipped("elf", HERO_TIME.reading(1, 1), "aborted") in events
    )  # "giving up your next Action"


def test_an_abort_to_a_move_action_names_no_manoeuvre_and_waits_for_prompts() -> None:
    encounter = fight(
        token("ogre", 5, 5, init=10),
        token("hero", 4, 5, owner="alice", init=15),
        token("elf", 1, 9, owner="bob", init=5),
    )
    refused(encounter, Abort("bob", "elf", Maneuver("dodge", 0, 3), "move"), "illegal_action")
    refused(encounter, Abort("bob", "elf", None, "dash"), "bad_params")  # not a declared word
    encounter.apply(Move("alice", "hero", ((3, 5),)))  # provokes: a prompt waits
    refused(encounter, Abort("bob", "elf", None, "move"), "prompt_pending")


def test_an_abort_to_a_move_provokes_like_any_move_and_the_action_then_goes_on() -> None:
    encounter = fight(
        token("hero", 1, 1, owner="alice", init=15),
        token("ogre", 5, 5, init=10),
        token("elf", 4, 5, owner="bob", init=5),
    )
    encounter.apply(Abort("bob", "elf", None, "move"))
    events = encounter.apply(Move("bob", "elf", ((3, 5), (2, 5))))
    assert kinds(events) == ["move_started", "move_interrupted", "prompt_opened"]
    prompt = events[-1].prompt  # type: ignore[attr-defined]
    events = encounter.apply(AnswerPrompt("gm", prompt, False))
    assert kinds(events)[-1] == "move_completed"
    encounter.apply(EndPhase("bob", "elf"))
    assert actor(encounter) == "hero"


def test_an_abort_to_a_move_after_acting_gives_up_the_next_phases_action() -> None:
    encounter = three()
    encounter.apply(EndPhase("alice", "hero"))
    events = encounter.apply(Abort("alice", "hero", None, "move"))
    assert events[0] == Aborted("hero", None, 0, (1, 2), "move")
    encounter.apply(EndPhase("alice", "hero"))  # ends the aborted move action
    assert actor(encounter) == "ogre"
    encounter.apply(EndPhase("gm", "ogre"))
    events = encounter.apply(EndPhase("bob", "elf"))
    assert CombatantSkipped("hero", HERO_TIME.reading(1, 2), "aborted") in events
