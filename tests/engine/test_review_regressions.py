"""Regressions found by review: each test reproduces a bug that once existed."""

from __future__ import annotations

from engine import AnswerPrompt, EndPhase, Move, SetCondition
from engine.events import CombatantSkipped, MoveCompleted, MoveStopped, PromptOpened
from engine.rulesets.hero import HeroSupplement
from engine.rulesets.hero.commands import Abort, Delay, Ready, TakeAction, TakeDelayed
from engine.rulesets.hero.state import Maneuver
from tests.engine.helpers import fight, kinds, refused, token

#: The Hero supplement's clock (Turns of four Phases).
HERO_TIME = HeroSupplement.time_words


def prompts(events: list[object]) -> list[PromptOpened]:
    return [e for e in events if isinstance(e, PromptOpened)]


def test_nobody_able_to_act_is_a_refusal_not_a_crash() -> None:
    encounter = fight(token("a", 0, 0, init=12), token("b", 5, 5, init=10))
    encounter.apply(SetCondition("gm", "b", "cannot_act", True))
    encounter.apply(SetCondition("gm", "a", "cannot_act", True))
    message = refused(encounter, EndPhase("gm", "a"), "illegal_action")
    assert "nobody could act" in message
    encounter.apply(SetCondition("gm", "b", "cannot_act", False))
    encounter.apply(EndPhase("gm", "a"))
    assert encounter.state.combat is not None and encounter.state.combat.actor == "b"


def test_two_readied_actions_on_one_trigger_are_both_taken() -> None:
    encounter = fight(
        token("r1", 1, 1, owner="alice", init=14),
        token("r2", 1, 3, owner="bob", init=12),
        token("t", 8, 8, init=10),
    )
    encounter.apply(Ready("alice", "r1", "attack", trigger_by="t"))
    encounter.apply(EndPhase("alice", "r1"))
    encounter.apply(Ready("bob", "r2", "attack", trigger_by="t"))
    first, second = prompts(encounter.apply(EndPhase("bob", "r2")))
    encounter.apply(AnswerPrompt("alice", first.prompt, True))
    refused(encounter, AnswerPrompt("bob", second.prompt, True), "illegal_action")
    encounter.apply(TakeAction("alice", "r1", "drop_item", "stone"))  # r1 acts despite p2
    encounter.apply(EndPhase("alice", "r1"))
    encounter.apply(AnswerPrompt("bob", second.prompt, True))
    assert encounter.state.combat is not None and encounter.state.combat.actor == "r2"
    encounter.apply(EndPhase("bob", "r2"))
    assert encounter.state.combat.actor == "t"  # type: ignore[union-attr]


def test_an_attack_of_opportunity_and_a_readied_area_are_separate_opportunities() -> None:
    encounter = fight(token("m", 1, 1, init=14), token("r", 2, 2, owner="alice", init=10))
    encounter.apply(EndPhase("gm", "m"))
    encounter.apply(Ready("alice", "r", "attack", area=((6, 1),)))
    encounter.apply(EndPhase("alice", "r"))
    events = encounter.apply(Move("gm", "m", ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1))))
    (aoo,) = prompts(events)
    events = encounter.apply(AnswerPrompt("alice", aoo.prompt, False))
    (ready,) = prompts(events)
    assert ready.prompt_kind == "readied_action" and ready.at == (5, 0)


def test_cannot_act_characters_take_no_held_actions() -> None:
    encounter = fight(token("d", 1, 1, owner="alice", init=14), token("x", 5, 5, init=10))
    encounter.apply(Delay("alice", "d"))
    encounter.apply(SetCondition("gm", "d", "cannot_act", True))
    refused(encounter, TakeDelayed("alice", "d"), "illegal_action")
    encounter = fight(token("r", 1, 1, owner="alice", init=14), token("t", 5, 5, init=10))
    encounter.apply(Ready("alice", "r", "attack", trigger_by="t"))
    encounter.apply(SetCondition("gm", "r", "cannot_act", True))
    assert not prompts(encounter.apply(EndPhase("alice", "r")))


def test_a_hold_lapses_when_its_holders_init_is_skipped() -> None:
    encounter = fight(
        token("d", 1, 1, owner="alice", init=14),
        token("x", 5, 5, init=12),
        token("y", 8, 8, init=8),
    )
    encounter.apply(Delay("alice", "d", before="y"))
    encounter.apply(Abort("alice", "d", Maneuver("dodge", 0, 3)))  # gives up Phase 2's action
    encounter.apply(SetCondition("gm", "d", "cannot_act", True))
    encounter.apply(EndPhase("gm", "x"))  # y's place: d cannot act, the delay waits
    events = encounter.apply(EndPhase("gm", "y"))  # Phase 2: d is skipped, its delay lapses
    assert CombatantSkipped(
        "d", HERO_TIME.reading(1, 2), "aborted"
    ) in events and "hold_lapsed" in kinds(events)


def test_moving_after_readying_rules_out_the_readied_step() -> None:
    encounter = fight(token("r", 1, 1, owner="alice", init=14), token("t", 8, 8, init=10))
    encounter.apply(Ready("alice", "r", "free", trigger_by="t"))
    encounter.apply(Move("alice", "r", ((2, 1),), mode="step"))
    (prompt,) = prompts(encounter.apply(EndPhase("alice", "r")))
    encounter.apply(AnswerPrompt("alice", prompt.prompt, True))
    refused(encounter, Move("alice", "r", ((3, 1),), mode="step"), "over_budget")


def test_a_named_attack_target_must_be_in_reach_where_the_move_ends() -> None:
    encounter = fight(token("a", 1, 1, owner="alice", init=14), token("b", 1, 2, init=10))
    refused(encounter, Move("alice", "a", ((2, 0), (3, 0), (4, 0)), attack="b"), "out_of_reach")
    events = encounter.apply(Move("alice", "a", ((2, 0), (3, 0), (4, 0))))
    assert "prompt_opened" in kinds(events)  # b gets its attack of opportunity


def test_a_delayed_action_cannot_interrupt_after_free_actions() -> None:
    encounter = fight(token("d", 1, 1, owner="alice", init=14), token("t", 5, 5, init=10))
    encounter.apply(Delay("alice", "d"))
    encounter.apply(TakeAction("gm", "t", "drop_prone"))
    refused(encounter, TakeDelayed("alice", "d"), "illegal_action")


def test_taking_a_delayed_action_starts_it_like_any_action() -> None:
    encounter = fight(
        token("r", 1, 1, owner="alice", init=16),
        token("d", 3, 3, init=14),
        token("t", 8, 8, init=10),
    )
    encounter.apply(Ready("alice", "r", "attack", trigger_by="d"))
    encounter.apply(EndPhase("alice", "r"))  # d's INIT: r is asked, declines
    combat = encounter.state.combat
    assert combat is not None and combat.prompts
    encounter.apply(AnswerPrompt("alice", combat.prompts[0].id, False))
    encounter.apply(Delay("gm", "d"))
    events = encounter.apply(TakeDelayed("gm", "d"))  # before t: d's action starts again
    assert "combatant_acts" in kinds(events)
    assert [p.attacker for p in prompts(events)] == ["r"]  # the trigger comes again


def test_an_interrupted_mover_that_can_no_longer_act_stops() -> None:
    encounter = fight(token("r", 6, 2, owner="alice", init=15), token("m", 9, 5, init=10))
    encounter.apply(Ready("alice", "r", "attack", area=((7, 5),)))
    encounter.apply(EndPhase("alice", "r"))
    (prompt,) = prompts(encounter.apply(Move("gm", "m", ((8, 5), (7, 5)))))
    encounter.apply(AnswerPrompt("alice", prompt.prompt, True))
    encounter.apply(SetCondition("gm", "m", "cannot_act", True))
    events = encounter.apply(EndPhase("alice", "r"))
    assert isinstance(events[-1], MoveStopped) and events[-1].at == (8, 5)
    assert not [e for e in events if isinstance(e, MoveCompleted)]


def test_options_follow_what_a_readied_action_allows() -> None:
    encounter = fight(token("r", 1, 1, owner="alice", init=15), token("t", 8, 8, init=10))
    encounter.apply(Ready("alice", "r", "free", trigger_by="t"))
    (prompt,) = prompts(encounter.apply(EndPhase("alice", "r")))
    encounter.apply(AnswerPrompt("alice", prompt.prompt, True))
    options = encounter.options("r", "alice")
    assert "attack" not in options.available and "combat" not in options.available
    assert "step" in options.available and "take_delayed" not in options.available


def test_a_move_paused_on_an_allys_square_goes_on() -> None:
    # The mover passes through its ally's square and leaves it from within the enemy's
    # reach: paused there, it shares the square until it moves on.  The encounter (and
    # its spatial index) must take that, answer the prompt and finish the move.
    encounter = fight(
        token("mover", 8, 8, owner="alice", init=14),
        token("ally", 9, 9, owner="alice", init=5),
        token("enemy", 10, 10, init=10),
    )
    events = encounter.apply(Move("alice", "mover", ((9, 9), (9, 8))))
    (prompt,) = prompts(events)
    scene = encounter.state.scene
    assert scene is not None
    assert {t.id: t.cell for t in scene.tokens}["mover"] == (9, 9)  # on the ally's square
    options = encounter.options("ally", "alice")  # reads the index while they share it
    assert options.token == "ally"
    events = encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    assert "move_completed" in kinds(events)
    scene = encounter.state.scene
    assert scene is not None
    assert {t.id: t.cell for t in scene.tokens} == {
        "mover": (9, 8),
        "ally": (9, 9),
        "enemy": (10, 10),
    }
    encounter.apply(EndPhase("alice", "mover"))  # and the fight goes on
