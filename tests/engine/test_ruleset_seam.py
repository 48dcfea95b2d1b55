"""The ruleset seam, exercised by the toy ruleset (``tests/toy_ruleset.py``): generic
``act`` with typed params, options from the same checks, groups acting at one count,
newcomers and leavers, effects ending at a point in the order, triggers, and attacks of
opportunity as a core mechanism."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from engine import (
    Combatant,
    CommandRejected,
    Encounter,
    EncounterState,
    EndPhase,
    GridSpec,
    LoadScene,
    Move,
    Scene,
    StartCombat,
    from_plain,
    state_hash,
    to_plain,
)
from engine.clock import ActNow, Reorder, Requeue, ResumeAt
from engine.commands import Act, AnswerPrompt, EndEffect, JoinCombat, LeaveCombat, SetEffect
from engine.errors import UnsupportedRuleset
from engine.params import ParamError, decode_params, describe_params, dice_fields
from engine.rulesets import find_ruleset
from engine.rulesets.base import Initiative, register
from engine.tray import DiceTray
from engine.turns import settle
from tests.engine.helpers import kinds, refused
from tests.toy_ruleset import ToyDuel, ToyFighter, ZapParams, Zapped

TOY = "toy-duel"


def fighter(
    tid: str, x: int, y: int, speed: int, *, side: str = "a", owner: str = "gm"
) -> Combatant:
    return Combatant(tid, tid.title(), owner, side, x, y, movement=4.0, stats=(("speed", speed),))


def duel(*tokens: Combatant, groups: tuple[tuple[str, ...], ...] = (), seed: int = 3) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 12), tuple(tokens))))
    encounter.apply(StartCombat("gm", TOY, seed, None, groups=groups))
    return encounter


def acting(encounter: Encounter) -> str:
    combat = encounter.state.combat
    assert combat is not None
    return combat.actor


def act(encounter: Encounter, token: str, action: str, **params: Any) -> list[Any]:
    return encounter.apply(Act("gm", token, action, params))


def finish(encounter: Encounter) -> list[Any]:
    return encounter.apply(EndPhase("gm", acting(encounter)))


# -- initiative and groups -------------------------------------------------------------------


def test_a_group_shares_one_roll_and_acts_together_at_its_count() -> None:
    encounter = duel(
        fighter("boss", 0, 0, 9, side="b"),
        fighter("m1", 1, 0, 1, side="b"),
        fighter("m2", 2, 0, 3, side="b"),
        fighter("hero", 5, 5, 5),
        groups=(("m1", "m2"),),
    )
    combat = encounter.state.combat
    assert combat is not None
    scores = dict(combat.scores)
    assert scores["m1"] == scores["m2"]
    i, j = combat.order.index("m1"), combat.order.index("m2")
    assert abs(i - j) == 1
    assert combat.group_of("m1") == ("m1", "m2")


def test_groups_naming_a_stranger_are_refused() -> None:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(8, 8), (fighter("a", 0, 0, 1),))))
    refused(encounter, StartCombat("gm", TOY, 1, None, groups=(("a", "ghost"),)), "unknown_token")


# -- act: params declared once, checked before the engine runs -----------------------------


def test_act_runs_the_ruleset_action_with_its_dice() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 1, 0, 0, side="b"))
    assert acting(encounter) == "a"
    events = act(encounter, "a", "zap", target="b", rolls=[5])
    assert kinds(events) == ["dice_rolled", "toy_zapped"]
    combat = encounter.state.combat
    assert combat is not None and combat.rules.zaps == 1
    assert combat.state_of("a") == ToyFighter(acted=True)


@pytest.mark.parametrize(
    ("params", "code", "path"),
    [
        ({}, "missing_field", "target"),
        ({"target": "b", "power": 4}, "bad_value", "power"),
        ({"target": "b", "power": True}, "bad_type", "power"),
        ({"target": "b", "colour": "red"}, "unknown_field", "colour"),
        ({"target": "b", "rolls": [1, "x"]}, "bad_type", "rolls[1]"),
    ],
)
def test_params_break_their_declaration_with_a_code_and_path(
    params: dict[str, Any], code: str, path: str
) -> None:
    with pytest.raises(ParamError) as error:
        decode_params(ZapParams, params)
    assert (error.value.code, error.value.path) == (code, path)
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 1, 0, 0, side="b"))
    refused(encounter, Act("gm", "a", "zap", params), "bad_params")


def test_the_declaration_describes_itself_and_marks_dice() -> None:
    rows = {r.name: r for r in describe_params(ZapParams)}
    assert rows["target"].default is None and rows["target"].type == "token id"
    assert rows["power"].type == "integer 1..3" and rows["power"].default == "1"
    assert dice_fields(ZapParams) == ("rolls",)


def test_unknown_actions_and_gm_tools_are_refused() -> None:
    encounter = duel(fighter("a", 0, 0, 9, owner="pat"), fighter("b", 1, 0, 0, side="b"))
    refused(encounter, Act("gm", "a", "fly", {}), "unknown_action")
    refused(encounter, Act("pat", "a", "daze", {"target": "b"}), "gm_only")


def test_options_come_from_the_same_refusals_the_actions_run() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 5, 5, 0, side="b"))
    before = encounter.options("a")
    assert before.can_act and set(before.available) >= {"zap", "guard", "stride", "end_phase"}
    act(encounter, "a", "guard")
    after = encounter.options("a")
    assert dict(after.refused)["zap"] == "the action is used this turn"
    message = refused(encounter, Act("gm", "a", "zap", {"target": "b"}), "illegal_action")
    assert message == dict(after.refused)["zap"]
    other = encounter.options("b")
    assert not other.can_act and other.available == ()


def test_options_list_an_actions_choices_with_why_not() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 5, 5, 0, side="b"))
    opts = encounter.options("a")
    assert "zap:b" in opts.available
    assert dict(opts.refused)["zap:a"] == "not oneself"
    refused(encounter, Act("gm", "a", "zap", {"target": "a"}), "unknown_token")
    act(encounter, "a", "guard")  # the action itself refused: no choices listed
    assert not [n for n in encounter.options("a").available if n.startswith("zap")]
    assert "zap:b" not in dict(encounter.options("a").refused)


def test_options_dry_run_each_move_mode() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 9, 9, 0, side="b"))
    encounter.apply(Move("gm", "a", ((1, 0), (2, 0), (3, 0)), "stride"))
    opts = encounter.options("a")
    assert "stride" in opts.available
    assert "sneak" in dict(opts.refused)  # one cell sneaking costs 2, 1 left
    assert opts.movement_left == 1.0


# -- movement and attacks of opportunity as a mechanism -----------------------------------


def test_striding_out_of_reach_provokes_and_the_ruleset_rolls_it() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 1, 0, 0, side="b"))
    events = encounter.apply(Move("gm", "a", ((0, 1), (0, 2)), "stride"))
    assert kinds(events)[-2:] == ["move_interrupted", "prompt_opened"]
    events = encounter.apply(AnswerPrompt("gm", "p1", True, (2,)))
    assert "toy_zapped" in kinds(events) and kinds(events)[-1] == "move_completed"


def test_sneaking_provokes_nothing_and_unknown_modes_are_refused() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 1, 0, 0, side="b"))
    refused(encounter, Move("gm", "a", ((0, 1),), "fly"), "illegal_move")
    events = encounter.apply(Move("gm", "a", ((0, 1),), "sneak"))
    assert kinds(events) == ["move_started", "move_completed"]


# -- triggers ---------------------------------------------------------------------------------


def test_a_token_entering_an_area_sets_off_a_held_action() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 0, side="b"))
    act(encounter, "a", "ambush", on="enter", area=[[5, 8], [5, 9]])
    finish(encounter)
    events = encounter.apply(Move("gm", "b", ((7, 8), (6, 8), (5, 8), (4, 8)), "stride"))
    assert kinds(events)[-2:] == ["move_interrupted", "prompt_opened"]
    combat = encounter.state.combat
    assert combat is not None and combat.pending_move is not None
    scene = encounter.state.scene
    assert isinstance(scene, Scene) and scene.token("b").cell == (6, 8)  # type: ignore[union-attr]
    events = encounter.apply(AnswerPrompt("gm", "p1", True))
    assert kinds(events)[-1] == "toy_zapped"
    events = finish(encounter)  # the holder is done: the move goes on
    assert kinds(events)[-1] == "move_completed"


def test_a_token_coming_into_sight_sets_off_a_held_action() -> None:
    from engine import WallSpec

    wall = WallSpec("w", (4.0, 0.0), (4.0, 4.0))
    tokens = (fighter("a", 0, 2, 9), fighter("b", 6, 2, 0, side="b"))
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 12), tokens, (wall,))))
    encounter.apply(StartCombat("gm", TOY, 3))
    act(encounter, "a", "ambush", on="sight", by="b")
    finish(encounter)
    events = encounter.apply(Move("gm", "b", ((6, 3), (6, 4), (6, 5), (6, 6)), "stride"))
    assert kinds(events)[-2:] == ["move_interrupted", "prompt_opened"]
    assert events[-2].at == (6, 4)  # the last cell a cannot see


def test_a_held_action_on_someones_action_prompts_before_it() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 0, side="b"))
    act(encounter, "a", "ambush", on="action", by="b")
    events = finish(encounter)
    assert kinds(events)[-1] == "prompt_opened"


def test_held_actions_lapse_at_the_end_of_the_round() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 0, side="b"))
    act(encounter, "a", "ambush", on="enter", area=[[0, 5]])
    finish(encounter)
    finish(encounter)
    combat = encounter.state.combat
    assert combat is not None and combat.turn == 2 and combat.triggers == ()


# -- effects ----------------------------------------------------------------------------------


def test_an_effect_ends_just_before_the_count_it_began_at() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 5, side="b"), fighter("c", 8, 0, 0))
    order = encounter.state.combat.order  # type: ignore[union-attr]
    assert order == ("a", "b", "c")
    finish(encounter)  # a
    started = act(encounter, "b", "bless", target="c", rounds=1)
    assert kinds(started) == ["effect_started"]
    finish(encounter)  # b
    finish(encounter)  # c: round 2 opens, a acts
    assert encounter.state.combat.effects  # type: ignore[union-attr]
    events = finish(encounter)  # a done: b's count comes up in round 2
    assert kinds(events)[:2] == ["combatant_done", "effect_ended"]
    assert kinds(events).index("effect_ended") < kinds(events).index("combatant_acts")


def test_an_effect_ends_on_time_when_its_starter_has_left() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 5, side="b"), fighter("c", 8, 0, 0))
    finish(encounter)
    act(encounter, "b", "bless", target="c", rounds=1)
    finish(encounter)
    encounter.apply(LeaveCombat("gm", "b"))
    finish(encounter)  # c
    events = finish(encounter)  # a: nobody at b's count any more; c is below it
    assert kinds(events)[:2] == ["combatant_done", "effect_ended"]


def test_the_gm_sets_and_ends_effects() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 5, side="b"))
    (started,) = encounter.apply(SetEffect("gm", "fog", None, None))
    assert started.ends is None
    refused(encounter, SetEffect("pat", "fog"), "gm_only")
    refused(encounter, EndEffect("gm", "e9"), "unknown_effect")
    (ended,) = encounter.apply(EndEffect("gm", started.effect))
    assert ended.reason == "ended"


# -- joining and leaving ----------------------------------------------------------------------


def test_a_newcomer_rolls_and_takes_its_place_after_ties() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 0, side="b"))
    events = encounter.apply(JoinCombat("gm", fighter("n", 5, 5, 20)))
    assert kinds(events) == ["token_placed", "dice_rolled", "combatant_joined", "initiative_order"]
    combat = encounter.state.combat
    assert combat is not None and combat.order[0] == "n" and combat.actor == "a"
    assert combat.state_of("n") == ToyFighter()
    refused(encounter, JoinCombat("gm", fighter("n", 6, 6, 1)), "not_in_combat")


def test_the_one_acting_leaves_and_the_next_acts() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 0, side="b"))
    events = encounter.apply(LeaveCombat("gm", "a", remove=True))
    assert kinds(events)[:2] == ["combatant_left", "initiative_order"]
    assert acting(encounter) == "b"
    scene = encounter.state.scene
    assert isinstance(scene, Scene) and scene.token("a") is None


def test_a_dazed_combatant_is_skipped() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 5, side="b"), fighter("c", 8, 0, 0))
    act(encounter, "a", "daze", target="b")
    events = finish(encounter)
    assert "combatant_skipped" in kinds(events) and acting(encounter) == "c"


# -- state -----------------------------------------------------------------------------------


def test_ruleset_state_round_trips_through_plain_values() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 1, 0, 0, side="b"))
    act(encounter, "a", "zap", target="b")
    encounter.apply(SetEffect("gm", "fog", "b", 2))
    state = encounter.state
    rebuilt = from_plain(EncounterState, to_plain(state))
    assert rebuilt == state and state_hash(rebuilt) == state_hash(state)
    assert isinstance(rebuilt.combat.state_of("a"), ToyFighter)  # type: ignore[union-attr]


def test_the_toy_ruleset_is_registered_by_name() -> None:
    assert find_ruleset(TOY).title == "Toy duel"
    with pytest.raises(CommandRejected):
        Encounter().apply(StartCombat("gm", TOY, 1))


# -- a ruleset explains its initiative with its own events -----------------------------------


@dataclass(frozen=True, slots=True)
class OrderExplained:
    """Test event: the order a ruleset rolled, in its own words."""

    kind: ClassVar[str] = "toy_order_explained"
    order: tuple[str, ...]


@register
class ExplainingDuel(ToyDuel):
    """The toy duel, whose initiative also says why the order is what it is."""

    name: ClassVar[str] = "toy-duel-explained"

    def initiative(self, combatants: Any, tray: DiceTray, groups: Any) -> Initiative:
        rolled = super().initiative(combatants, tray, groups)
        return replace(rolled, events=(OrderExplained(rolled.order),))


def test_start_combat_sends_the_rulesets_initiative_events_after_the_dice() -> None:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 12), (fighter("a", 0, 0, 5),))))
    events = encounter.apply(StartCombat("gm", "toy-duel-explained", 3))
    names = kinds(events)
    assert names.index("dice_rolled") < names.index("toy_order_explained")
    assert names.index("toy_order_explained") < names.index("initiative_order")
    (explained,) = [e for e in events if e.kind == "toy_order_explained"]
    assert explained.order == ("a",)


def test_a_ruleset_says_before_or_inside_for_where_a_held_action_pauses_a_move() -> None:
    # The toy keeps the default (paused on the cell before: above); Cyberpunk RED says
    # inside (tests/engine/cyberpunk_red/test_cpr_second_reading.py).  Anything else is
    # refused when the ruleset registers, and it is not registered.
    class Sideways(ToyDuel):
        name: ClassVar[str] = "toy-sideways"
        trigger_pause: ClassVar[str] = "beside"

    with pytest.raises(ValueError, match="trigger_pause must be 'before' or 'inside'"):
        register(Sideways)
    with pytest.raises(UnsupportedRuleset):
        find_ruleset("toy-sideways")


# -- time asked for with values (engine.clock) ------------------------------------------------


def test_an_action_returning_advance_ends_the_turn_through_the_walk() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 5, side="b"), fighter("c", 8, 0, 0))
    events = act(encounter, "a", "nap")
    # The request itself never reaches the log: the walk's events stand in its place.
    assert kinds(events)[:2] == ["combatant_done", "combatant_acts"]
    assert acting(encounter) == "b"


def test_an_action_returning_reorder_and_act_now_moves_and_starts_the_combatant() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 5, side="b"), fighter("c", 8, 0, 0))
    combat = encounter.state.combat
    assert combat is not None
    up = combat.actor
    last = combat.order[-1]
    events = act(encounter, up, "barge", target=last)
    combat = encounter.state.combat
    assert combat is not None
    assert kinds(events) == ["initiative_order", "combatant_acts"]
    assert combat.order.index(last) == combat.order.index(up) - 1
    assert combat.score_of(last) == combat.score_of(up)
    assert acting(encounter) == last


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (ActNow("ghost"), "not_in_combat"),
        (Reorder("ghost", "a"), "not_in_combat"),
        (Reorder("a", "a"), "illegal_action"),
        (Requeue(("a", "b"), (("a", 9), ("b", 5))), "illegal_action"),
        (Requeue(("c", "b", "a"), (("a", 9), ("b", 5), ("c", 1))), "illegal_action"),
        (ResumeAt(7), "illegal_action"),
    ],
    ids=repr,
)
def test_a_clock_request_naming_what_is_not_there_is_refused(request_: object, code: str) -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 5, side="b"), fighter("c", 8, 0, 0))
    with pytest.raises(CommandRejected) as refusal:
        settle(encounter.state, find_ruleset(TOY), [Zapped("a", "b", 6, True), request_])
    assert refusal.value.code == code
