"""Seed 001, *Hold Action*: "Holding means saying in advance what you'll do, to whom and
when: 'after Gina's turn' or 'when the door opens.'  If the condition hasn't happened by
the end of the Round, the action is lost."""

from __future__ import annotations

import pytest

from engine.errors import CommandRejected
from engine.rulesets.cyberpunk_red import holding, rules
from engine.rulesets.cyberpunk_red.events import (
    ActionHeld,
    AttackRolled,
    HeldActionFired,
    HeldActionLost,
)
from engine.rulesets.cyberpunk_red.holding import HoldParams
from engine.rulesets.cyberpunk_red.state import HeldParams
from tests.engine.cyberpunk_red.helpers import arena_of, cpr, scene, tray, world_of

S = scene(
    cpr("gina", 2, 2, weapon__pistol=2, hand__right="pistol"),
    cpr("rex", 8, 2),
    cpr("vik", 9, 9),
)
ARENA, WORLD = arena_of(S), world_of(S)
SHOOT_REX = HeldParams(target="rex", weapon="pistol", base=12)


def test_holding_declares_action_target_and_trigger_and_spends_the_action() -> None:
    p = HoldParams("attack", "after_turn", token="vik", params=SHOOT_REX)
    arena, events = rules.perform(ARENA, WORLD, "gina", "hold_action", p, tray())
    assert events == [ActionHeld("gina", "attack", "after_turn", "vik", (), 1)]
    assert arena.fighter("gina").usage.action == "hold_action"
    assert arena.hold("gina") is not None


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        (HoldParams("run", "after_turn", token="vik"), "cannot hold 'run'"),
        (HoldParams("attack", "after_turn", params=SHOOT_REX), "names a token"),
        (HoldParams("attack", "enters", params=SHOOT_REX), "cells of its area"),
        (HoldParams("attack", "soon", token="vik", params=SHOOT_REX), "unknown trigger"),
        (HoldParams("attack", "after_turn", token="vik", params=HeldParams(target="rex")), ""),
        (HoldParams("attack", "after_turn", token="vik", params=HeldParams(weapon="pistol")),
         "'target' is required"),
        (HoldParams("attack", "after_turn", token="nobody", params=SHOOT_REX), "no token"),
    ],
)  # fmt: skip
def test_a_hold_is_checked_when_declared(params: HoldParams, reason: str) -> None:
    if not reason:
        rules.perform(ARENA, WORLD, "gina", "hold_action", params, tray())
        return
    with pytest.raises(CommandRejected) as refusal:
        rules.perform(ARENA, WORLD, "gina", "hold_action", params, tray())
    assert reason in refusal.value.message


def test_after_ginas_turn_it_fires_interrupting_as_one_attack() -> None:
    p = HoldParams("attack", "after_turn", token="vik", params=SHOOT_REX)
    arena, _ = rules.perform(ARENA, WORLD, "gina", "hold_action", p, tray())
    assert holding.after_turn(arena, "rex", ("gina", "rex", "vik")) == []
    (held,) = holding.after_turn(arena, "vik", ("gina", "rex", "vik"))
    after, events = holding.fire(arena, WORLD, held, "vik", None, tray())
    fired, attack = events
    assert fired == HeldActionFired("gina", "attack", "vik")
    assert isinstance(attack, AttackRolled) and attack.held and attack.base == 12
    assert after.hold("gina") is None
    assert after.fighter("gina").usage.action == "hold_action"  # paid when declared


def test_a_held_action_that_cannot_be_carried_out_when_it_fires_is_lost() -> None:
    p = HoldParams("attack", "after_turn", token="vik",
                   params=HeldParams(target="rex", weapon="unarmed"))  # fmt: skip
    arena, _ = rules.perform(ARENA, WORLD, "gina", "hold_action", p, tray())
    (held,) = holding.after_turn(arena, "vik", ("gina",))
    after, events = holding.fire(arena, WORLD, held, "vik", None, tray())
    assert len(events) == 1 and isinstance(events[0], HeldActionLost)
    assert "out of reach" in events[0].reason and after.hold("gina") is None


def test_if_the_condition_hasnt_happened_by_the_end_of_the_round_the_action_is_lost() -> None:
    p = HoldParams("attack", "enters", area=((5, 2), (5, 3)), params=SHOOT_REX)
    arena, _ = rules.perform(ARENA, WORLD, "gina", "hold_action", p, tray())
    after, events = holding.end_of_round(arena)
    assert events == [HeldActionLost("gina", "attack", "the Round ended")]
    assert after.holds == () and after.round == 2
