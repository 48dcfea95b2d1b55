"""Issue 26, a second reading of seed 002, through the engine's public API: identity,
the campaign ground rule, Weapon Familiarity, what the GM sets (conditions, an OCV
modifier), and the refusals a table reads."""

from __future__ import annotations

import json
from typing import Any

from engine import EndPhase
from engine.commands import Act, SetCondition
from engine.encounter import Encounter
from tests.engine.helpers import fight, kinds, refused, token

OIAI = {"name": "Only In Alternate Identity", "value": -0.25}
RAGE = {"kind": "other", "base_points": 20, "duration": "constant", "limitations": [OIAI]}
SHIELD = {"kind": "defence", "base_points": 20, "duration": "constant"}
BLAST = {
    "kind": "attack", "effect": "normal", "dice": "10d6",
    "advantages": [{"name": "Armor Piercing", "value": 0.25}],
}  # fmt: skip
FROG_CURSE = {
    "kind": "attack", "effect": "points", "dice": "7d6", "points_per_die": 15,
    "standard_dice": 7,
}  # fmt: skip


def hero_fight(extra: dict[str, Any] | None = None, **powers: dict[str, Any]) -> Encounter:
    stats: dict[str, Any] = {"end": 40, "stun": 20, "rec": 5, "STR": 15, **(extra or {})}
    stats.update({f"power:{name}": json.dumps(spec) for name, spec in powers.items()})
    kas = token("kas", 0, 0, owner="bob", init=15, ocv=5, extra=stats)
    return fight(kas, token("ogre", 1, 0, init=5, dcv=3, extra={"end": 20, "stun": 20}))


def act(encounter: Encounter, action: str, actor: str = "bob", **params: Any) -> list[Any]:
    return encounter.apply(Act(actor, "kas", action, params))


# -- Only In Alternate Identity ----------------------------------------------------------------


def test_a_power_only_in_alternate_identity_is_refused_outside_it() -> None:
    encounter = hero_fight(Rage=RAGE)
    message = refused(encounter, Act("bob", "kas", "power_on", {"power": "Rage"}), "illegal_action")
    assert "Only In Alternate Identity" in message and "true identity" in message
    assert "power_on:Rage" in dict(encounter.options("kas").refused)
    changed = act(encounter, "change_identity", identity="alternate")
    assert kinds(changed) == ["identity_changed"] and changed[0].identity == "alternate"
    on = act(encounter, "power_on", power="Rage")
    assert (on[-1].end, on[-1].time) == (2, "full_phase")  # 20 points; longer to activate


def test_leaving_the_alternate_identity_turns_its_powers_off() -> None:
    encounter = hero_fight({"identity": "alternate"}, Rage=RAGE)  # starts in costume
    act(encounter, "power_on", power="Rage")  # a Full Phase
    encounter.apply(EndPhase("bob", "kas"))
    encounter.apply(EndPhase("gm", "ogre"))  # Phase 2: kas acts (Rage upkeep 2 END)
    events = act(encounter, "change_identity", identity="true")
    assert kinds(events) == ["power_toggled", "identity_changed"]
    assert (events[0].power, events[0].on, events[0].time) == ("Rage", False, "identity")
    again = Act("bob", "kas", "change_identity", {"identity": "true"})
    assert "already in his true identity" in refused(encounter, again, "illegal_action")


def test_a_bad_identity_statistic_is_a_bad_scene() -> None:
    from engine import GridSpec, LoadScene, Scene, StartCombat

    encounter = Encounter()
    bad = token("kas", 0, 0, extra={"identity": "secret"})
    encounter.apply(LoadScene("gm", Scene(GridSpec(5, 5), (bad,))))
    message = refused(encounter, StartCombat("gm", "hero-supplement", 1, None), "bad_scene")
    assert "identity is 'true' or 'alternate'" in message


# -- "as a campaign ground rule" ---------------------------------------------------------------


def test_the_campaign_ground_rule_lifts_the_on_and_off_limit_for_the_table() -> None:
    encounter = hero_fight(Shield=SHIELD)
    act(encounter, "power_on", power="Shield")
    off = Act("bob", "kas", "power_off", {"power": "Shield"})
    assert "not off again unless the GM allows" in refused(encounter, off, "illegal_action")
    events = act(encounter, "power_options", "gm", toggle_freely=True)
    assert events[-1].toggle_freely is True and events[-1].adder_end == "all"
    assert act(encounter, "power_off", power="Shield")[-1].on is False
    assert act(encounter, "power_on", power="Shield")[-1].on is True  # and on again


def test_the_campaign_ground_rule_lifts_the_switch_once_limit() -> None:
    slot = {"kind": "defence", "base_points": 20, "duration": "constant", "framework": "Kit"}
    encounter = hero_fight({"framework:Kit": json.dumps({"pool": 20})}, Wall=slot)
    act(encounter, "switch_framework", framework="Kit", slots=[{"power": "Wall"}])
    twice = Act("bob", "kas", "switch_framework", {"framework": "Kit", "slots": []})
    assert "switched this Phase already" in refused(encounter, twice, "illegal_action")
    act(encounter, "power_options", "gm", toggle_freely=True)
    assert act(encounter, "switch_framework", framework="Kit", slots=[])[-1].allocation == ()


# -- Weapon Familiarity ------------------------------------------------------------------------

SWORD = {"kind": "attack", "effect": "killing", "dice": "1d6", "points_per_die": 15}


def swing(encounter: Encounter, weapon: str) -> Any:
    events = act(
        encounter, "attack", target="ogre", rolls=[3, 3, 3],
        weapon={"name": weapon, "group": "Blades"},
    )  # fmt: skip
    return events[-1]


def test_an_unpaid_sword_attacks_with_the_unfamiliar_weapon_penalty() -> None:
    assert swing(hero_fight(), "Longsword").ocv == 5 - 3


def test_the_sword_paid_for_needs_no_familiarity_but_only_that_sword() -> None:
    assert swing(hero_fight(Longsword=SWORD), "Longsword").ocv == 5
    assert swing(hero_fight(Longsword=SWORD), "Broadsword").ocv == 5 - 3


def test_wf_blades_makes_any_sword_familiar() -> None:
    assert swing(hero_fight({"wf:blades": True}), "Broadsword").ocv == 5
    assert swing(hero_fight(), "Broadsword").ocv == 5 - 3
    plain = act(hero_fight(), "attack", target="ogre", rolls=[3, 3, 3])[-1]
    assert plain.ocv == 5  # no weapon named: no penalty


# -- what the GM sets, the engine checks -------------------------------------------------------


def test_the_gm_sets_a_grab_and_a_casual_escape_rests_on_it() -> None:
    encounter = hero_fight()
    act(encounter, "power_options", "gm", casual_use=True)
    escape = Act("bob", "kas", "use_power", {"power": "STR", "casual": True,
                                             "target": "ogre", "escape": True})  # fmt: skip
    assert "needs a Grab or Entangle" in refused(encounter, escape, "illegal_action")
    encounter.apply(SetCondition("gm", "kas", "grabbed", True))
    assert kinds(encounter.apply(escape))[-1] == "power_used"


def test_the_gm_gives_a_use_an_ocv_modifier_and_only_the_gm() -> None:
    params = {"power": "Blast", "target": "ogre", "rolls": [3, 3, 3] + [3] * 10}
    plain = hero_fight(Blast=BLAST)
    used = [e for e in act(plain, "use_power", **params) if e.kind == "power_used"]
    assert used[0].hit is True  # 9 + OCV 5 = 14 against 10 + DCV 3
    encounter = hero_fight(Blast=BLAST)
    refused(encounter, Act("bob", "kas", "use_power", {**params, "ocv_modifier": -4}), "gm_only")
    params["rolls"] = [3, 3, 3]  # a miss rolls no effect
    used = [e for e in act(encounter, "use_power", "gm", **params, ocv_modifier=-4)
            if e.kind == "power_used"]  # fmt: skip
    assert (used[0].hit, used[0].stun) == (False, None)  # 9 + 5 - 4 = 10 against 13


# -- the wire's side of the refusals and of power_used ----------------------------------------


def test_power_used_names_its_advantages_and_dropping_one_is_the_rule_not_a_field() -> None:
    encounter = hero_fight(Blast=BLAST)
    drop = Act("bob", "kas", "use_power", {"power": "Blast", "dice": "8d6", "object": "wall",
                                           "advantages": []})  # fmt: skip
    message = refused(encounter, drop, "illegal_action")
    assert message.endswith("each time he uses the Power: Blast is always Armor Piercing")
    used = [e for e in act(encounter, "use_power", power="Blast", dice="8d6", object="wall")
            if e.kind == "power_used"]  # fmt: skip
    assert used[0].advantages == ("Armor Piercing",) and used[0].end == 5  # 50 points


def test_rolling_a_power_under_the_standard_effect_rule_is_refused_by_that_rule() -> None:
    encounter = hero_fight(**{"Frog Curse": FROG_CURSE})
    ask = Act("bob", "kas", "use_power", {"power": "Frog Curse", "object": "frog",
                                          "rolls": [3] * 7})  # fmt: skip
    message = refused(encounter, ask, "bad_rolls")
    assert "7 of the table's dice were not needed" in message
    assert "cannot switch back to the rolled effect" in message
    used = [e for e in act(encounter, "use_power", power="Frog Curse", object="frog")
            if e.kind == "power_used"]  # fmt: skip
    assert (used[0].points, used[0].rolled) == (21, ())
