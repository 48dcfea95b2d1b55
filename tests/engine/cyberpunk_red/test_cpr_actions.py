"""Seed 001, *List of Actions*: each Action with what it needs, and the free ones.

Scenes are real (a 2 m grid, the core's spatial index); a reach of 2 m is the eight
neighbouring squares."""

from __future__ import annotations

import pytest

from engine.errors import CommandRejected
from engine.model import WallSpec
from engine.rulesets.cyberpunk_red import rules
from engine.rulesets.cyberpunk_red.actions import (
    AttackParams,
    GrabParams,
    HandParams,
    NoParams,
    ObjectParams,
    SkillParams,
    TakeParams,
    TargetParams,
    ThrowParams,
    VehicleParams,
    WeaponParams,
)
from engine.rulesets.cyberpunk_red.events import ActionDone, AttackRolled, GrabContested
from engine.rulesets.cyberpunk_red.state import Arena
from engine.rulesets.cyberpunk_red.world import SceneWorld
from tests.engine.cyberpunk_red.helpers import arena_of, cpr, scene, tray, vehicle, world_of

GUNNER = dict(weapon__pistol=2, weapon__rifle=1, weapon__machete=2, melee__machete=True,
              hand__right="pistol")  # fmt: skip


def setup(**gina: object) -> tuple[Arena, SceneWorld]:
    """Gina at (2, 2) with a pistol in hand; Rex next to her; Vik far off; a car by Gina."""
    s = scene(
        cpr("gina", 2, 2, **{**GUNNER, **gina}),  # type: ignore[arg-type]
        cpr("rex", 3, 2, weapon__knife=2, melee__knife=True, hand__left="knife"),
        cpr("vik", 9, 9),
        vehicle("car", 1, 1),
    )
    return arena_of(s), world_of(s)


def act(arena: Arena, world: SceneWorld, name: str, params: object, who: str = "gina"):  # type: ignore[no-untyped-def]
    return rules.perform(arena, world, who, name, params, tray())


def why(arena: Arena, world: SceneWorld, name: str, params: object, who: str = "gina") -> str:
    with pytest.raises(CommandRejected) as refusal:
        act(arena, world, name, params, who)
    assert refusal.value.code == "illegal_action"
    return refusal.value.message


def test_attack_is_rolled_and_reported_the_hit_stays_the_tables() -> None:
    arena, world = setup()
    after, events = act(arena, world, "attack", AttackParams("vik", "pistol", base=14, rolls=(7,)))
    (attack,) = events
    assert isinstance(attack, AttackRolled)
    assert (attack.die, attack.base, attack.total, attack.number) == (7, 14, 21, 1)
    assert after.fighter("gina").usage.attacks == ("pistol",)


def test_a_melee_attack_needs_reach_a_ranged_one_line_of_sight() -> None:
    arena, world = setup(hand__left="machete")
    assert "out of reach" in why(arena, world, "attack", AttackParams("vik", "machete"))
    act(arena, world, "attack", AttackParams("rex", "machete"))
    walled = scene(cpr("gina", 2, 2, **GUNNER), cpr("vik", 6, 2))  # type: ignore[arg-type]
    walled = walled.__class__(walled.grid, walled.tokens, (WallSpec("w", (8.0, 0.0), (8.0, 24.0)),))
    assert "line of sight" in why(
        arena_of(walled), world_of(walled), "attack", AttackParams("vik", "pistol")
    )


def test_a_vehicle_can_be_shot_at_but_not_grabbed() -> None:
    arena, world = setup()
    act(arena, world, "attack", AttackParams("car", "pistol"))
    assert "no combatant" in why(arena, world, "grab", GrabParams("car"))


def test_run_needs_a_move_first() -> None:
    arena, world = setup()
    assert "move first" in why(arena, world, "run", NoParams())


def test_reload_needs_the_weapon_in_hand() -> None:
    arena, world = setup()
    assert "not in a hand" in why(arena, world, "reload", WeaponParams("rifle"))
    _, events = act(arena, world, "reload", WeaponParams("pistol"))
    assert events == [ActionDone("gina", "reload", "action", item="pistol")]


def test_a_long_skill_task_takes_several_turns() -> None:
    arena, world = setup()
    arena, events = act(arena, world, "use_skill", SkillParams("electronics", turns=3))
    assert events[0].note == "turn 1 of 3"
    for turn in (2, 3):
        arena = arena.with_fighter(
            arena.fighter("gina").with_usage(type(arena.fighter("gina").usage)())
        )
        arena, events = act(arena, world, "use_skill", SkillParams("electronics"))
        assert events[0].note == f"turn {turn} of 3" + (": done" if turn == 3 else "")
    assert arena.fighter("gina").task is None


def test_spending_the_action_on_something_else_abandons_a_long_task() -> None:
    arena, world = setup()
    arena, _ = act(arena, world, "use_skill", SkillParams("electronics", turns=3))
    arena = arena.with_fighter(
        arena.fighter("gina").with_usage(type(arena.fighter("gina").usage)())
    )
    arena, _ = act(arena, world, "reload", WeaponParams("pistol"))
    assert arena.fighter("gina").task is None


def test_stabilize_needs_the_patient_within_reach() -> None:
    arena, world = setup()
    assert "not within reach" in why(arena, world, "stabilize", TargetParams("vik"))
    act(arena, world, "stabilize", TargetParams("rex"))


def test_grab_then_choke_throw_and_human_shield_need_a_held_opponent() -> None:
    arena, world = setup()
    for name, params in (
        ("choke", NoParams()),
        ("human_shield", NoParams()),
        ("throw", ThrowParams()),
    ):
        assert "Grab first" in why(arena, world, name, params)
    held, events = act(arena, world, "grab", GrabParams("rex", base=10, defense=8, rolls=(5, 5)))
    assert events == [GrabContested("gina", "rex", 15, 13, True)]
    assert held.fighter("gina").holding == "rex"
    # the next turn: throw Rex to the ground
    fresh = held.with_fighter(held.fighter("gina").with_usage(type(held.fighter("gina").usage)()))
    thrown, _ = act(fresh, world, "throw", ThrowParams())
    assert thrown.fighter("rex").prone and thrown.fighter("gina").holding is None


def test_a_grab_tie_goes_to_the_defender() -> None:
    arena, world = setup()
    after, events = act(arena, world, "grab", GrabParams("rex", base=8, defense=8, rolls=(4, 4)))
    assert not events[0].success and after.fighter("gina").holding is None


def test_grab_can_wrest_an_item() -> None:
    arena, world = setup()
    after, _ = act(arena, world, "grab", GrabParams("rex", item="knife", rolls=(9, 1)))
    assert after.fighter("gina").hand_of("knife") == "left"
    assert after.fighter("rex").left is None


def test_grab_needs_a_free_hand() -> None:
    arena, world = setup(hand__left="machete")
    assert "free hand" in why(arena, world, "grab", GrabParams("rex"))


def test_a_shield_is_the_only_thing_you_cant_put_in_your_hand_for_free() -> None:
    arena, world = setup(shield=True)
    assert "draw it" in why(arena, world, "take_weapon", TakeParams("shield"))
    drawn, _ = act(arena, world, "draw_shield", NoParams())
    assert drawn.fighter("gina").left == "shield"
    assert "Action is spent" in why(drawn, world, "stow_shield", NoParams())


def test_get_up_needs_prone() -> None:
    arena, world = setup()
    assert "not prone" in why(arena, world, "get_up", NoParams())


def test_use_object_and_holstering_cost_the_action() -> None:
    arena, world = setup()
    holstered, events = act(arena, world, "holster", HandParams("right"))
    assert holstered.fighter("gina").right is None and events[0].cost == "action"
    assert "Action is spent" in why(holstered, world, "use_object", ObjectParams("button"))


def test_free_take_a_weapon_within_reach_into_a_free_hand_and_drop_it() -> None:
    arena, world = setup()
    armed, events = act(arena, world, "take_weapon", TakeParams("machete"))
    assert armed.fighter("gina").left == "machete" and events[0].cost == "free"
    dropped, _ = act(armed, world, "drop_weapon", HandParams("left"))
    assert dropped.fighter("gina").weapon("machete") is None
    assert dropped.floor[0][0] == (2, 2)
    # Rex, next to it, picks it up for free: it is within reach
    rex, _ = act(dropped, world, "take_weapon", TakeParams("machete"), who="rex")
    assert rex.fighter("rex").right == "machete" and rex.floor == ()
    assert "within reach" in why(dropped, world, "take_weapon", TakeParams("machete"), who="vik")
    # free actions leave the Action open
    act(dropped, world, "attack", AttackParams("vik", "pistol"))


def test_board_start_and_get_out_of_a_vehicle() -> None:
    arena, world = setup()
    assert "not at the wheel" in why(arena, world, "start_vehicle", NoParams())
    aboard, _ = act(arena, world, "board_vehicle", VehicleParams("car", driver=True))
    assert aboard.fighter("gina").vehicle == "car" and aboard.vehicle("car").driver == "gina"
    fresh = aboard.with_fighter(
        aboard.fighter("gina").with_usage(type(aboard.fighter("gina").usage)())
    )
    assert "not running" in why(
        fresh, world, "maneuver_vehicle", rules.parse("maneuver_vehicle", {"maneuver": "ram"})
    )
    started, events = act(fresh, world, "start_vehicle", NoParams())
    assert started.vehicle("car").started and "front" in events[0].note
    out, events = act(started, world, "exit_vehicle", NoParams())
    assert out.fighter("gina").vehicle is None and events[0].cost == "free"
    assert "not within reach" in why(arena, world, "board_vehicle", VehicleParams("car"), who="vik")


def test_net_actions_instead_of_the_action() -> None:
    arena, world = setup(net_actions=2)
    params = rules.parse("net_action", {"program": "Slide"})
    once, _ = act(arena, world, "net_action", params)
    assert "Action is spent" in why(once, world, "attack", AttackParams("vik", "pistol"))
    twice, _ = act(once, world, "net_action", params)
    assert "all 2 NET Actions" in why(twice, world, "net_action", params)
    plain, world = setup()
    assert "NET Actions" in why(plain, world, "net_action", params)


def test_options_list_every_action_with_why_not() -> None:
    arena, world = setup()
    options = {c.action: c for c in rules.choices(arena, world, "gina")}
    assert set(options) == set(rules.CATALOGUE)
    assert options["attack"].reason is None
    assert options["get_up"].reason == "not prone"
    assert options["choke"].reason is not None and "Grab first" in options["choke"].reason
    assert options["take_weapon"].cost == "free"
    # the same check as the handler: what options allow, perform accepts
    after, _ = act(arena, world, "attack", AttackParams("vik", "pistol"))
    again = {c.action: c.reason for c in rules.choices(after, world, "gina")}
    assert again["reload"] is not None and "Action is spent" in again["reload"]
    assert again["attack"] is None  # ROF 2: a second attack
