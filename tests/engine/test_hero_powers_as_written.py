"""Issue 26, a second reading of seed 002 (Hero System 6E, using Powers): the rules as
written, each in the text's terms, on the pure rules (the wire's side is
``test_hero_powers_as_written_actions.py``)."""

from __future__ import annotations

import pytest

from engine.params import ParamError, decode_params
from engine.rulesets.hero.powers import (
    Adder,
    Modifier,
    Power,
    PowerRefused,
    PowerState,
    Sheet,
    TableOptions,
    Use,
    activate,
    strength,
    upkeep,
)
from tests.engine.test_hero_powers import PHASE1, Dice, go

ARMOR_PIERCING = Modifier("Armor Piercing", 0.25)
X2_END = Modifier("Increased Endurance Cost", -0.5, "x2")  # 6E's -1/2 for x2
ZERO_END = Modifier("Reduced Endurance", 0.5, "0 END")  # 6E's +1/2
HALF_END = Modifier("Reduced Endurance", 0.25, "½ END")  # 6E's +1/4


# -- "A character must use all of a Power's Advantages and Limitations each time" -------------


def test_increased_endurance_cost_x2_at_4d6_pays_4_end() -> None:
    blast = Power("Blast", "attack", "normal", "4d6", limitations=(X2_END,))
    used = go(Sheet((blast,)), Use("Blast", object="wall"))
    assert (used.active_points, used.end) == (20, 4)  # 20 points: 2 END, times two
    assert used.limitations == ("Increased Endurance Cost",)


def test_reduced_endurance_0_end_at_3d6_pays_nothing() -> None:
    blast = Power("Blast", "attack", "normal", "3d6", advantages=(ZERO_END,))
    used = go(Sheet((blast,)), Use("Blast", object="wall"))
    assert (used.active_points, used.end) == (22, 0)  # 15 x 1½, rounded down
    assert used.advantages == ("Reduced Endurance",)


def test_reduced_endurance_half_end_is_figured_without_itself_and_rounds_down() -> None:
    blast = Power("Blast", "attack", "normal", "10d6", advantages=(HALF_END,))
    used = go(Sheet((blast,)), Use("Blast", object="wall"))
    # 62 Active Points, but END on the 50 without the Advantage: 5, halved, 2 (not 3)
    assert (used.active_points, used.end) == (62, 2)
    one = go(Sheet((blast,)), Use("Blast", dice="1d6", object="wall"))
    assert one.end == 1  # half of 1 END is never below 1


def test_end_modifiers_apply_to_a_constant_power_on_and_its_upkeep() -> None:
    rage = Power("Rage", "other", base_points=20, duration="constant", limitations=(X2_END,))
    state, paid, _ = activate(Sheet((rage,)), PowerState(), "Rage", now=PHASE1, end=30)
    assert paid == 4
    assert upkeep(Sheet((rage,)), state, now=(1, 2), end=30)[1] == 4


def test_a_blast_reduced_to_8d6_is_still_armor_piercing() -> None:
    blast = Power("Blast", "attack", "normal", "10d6", advantages=(ARMOR_PIERCING,))
    used = go(Sheet((blast,)), Use("Blast", dice="8d6", object="wall"))
    assert used.advantages == ("Armor Piercing",) and used.active_points == 50


def test_asking_to_drop_an_advantage_is_refused_by_that_rule() -> None:
    blast = Power("Blast", "attack", "normal", "10d6", advantages=(ARMOR_PIERCING,))
    with pytest.raises(PowerRefused) as err:
        go(Sheet((blast,)), Use("Blast", dice="8d6", object="wall", advantages=()))
    assert err.value.rule == "always_apply"
    assert err.value.message == (
        "a character must use all of a Power's Advantages and Limitations each time he "
        "uses the Power: Blast is always Armor Piercing"
    )
    kept = Use("Blast", object="wall", advantages=("armor_piercing",))  # all of them: fine
    assert go(Sheet((blast,)), kept).advantages == ("Armor Piercing",)
    with pytest.raises(PowerRefused, match="has no Advantage 'Penetrating'"):
        go(Sheet((blast,)), Use("Blast", object="wall", advantages=("Penetrating",)))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"limitations": [{"name": "Reduced Endurance", "value": -0.5}]}, "is an Advantage"),
        ({"advantages": [{"name": "Reduced Endurance", "value": 0.5}]}, "'½ END' or '0 END'"),
        ({"limitations": [{"name": "Increased Endurance Cost", "value": -0.5}]}, "'x2'"),
        (
            {
                "advantages": [{"name": "Reduced Endurance", "value": 0.5, "detail": "0 END"}],
                "limitations": [
                    {"name": "Increased Endurance Cost", "value": -0.5, "detail": "x2"}
                ],
            },
            "reduced or increased, not both",
        ),
    ],
)
def test_malformed_end_modifiers_are_refused_when_declared(data: dict, message: str) -> None:  # type: ignore[type-arg]
    base = {"name": "Blast", "kind": "attack", "effect": "normal", "dice": "4d6"}
    with pytest.raises(ParamError, match=message):
        decode_params(Power, {**base, **data})


# -- "he must still pay END based on the Active Points of the Power used (with Adders)" -------


def test_flight_flown_at_combat_speed_pays_end_with_its_noncombat_adder() -> None:
    flight = Power("Flight", "movement", base_points=40, adders=(Adder("x8 Noncombat", 10),))
    combat_speed = Use("Flight", adders=(), object="sky")
    used = go(Sheet((flight,)), combat_speed)
    assert (used.active_points, used.end) == (40, 5)  # 50 points with the Adder: 5 END
    relaxed = go(Sheet((flight,)), combat_speed, options=TableOptions(adder_end="used"))
    assert relaxed.end == 4  # the table's relaxation: END on the Adders used


def test_the_text_s_reading_is_the_default() -> None:
    assert TableOptions().adder_end == "all"


# -- "a Power using the rule cannot switch back" -----------------------------------------------


def test_a_power_under_the_standard_effect_rule_cannot_switch_back_to_dice() -> None:
    transform = Power("Severe Transform", "attack", "points", "7d6", 15, standard_dice=7)
    with pytest.raises(PowerRefused, match="cannot switch back to the rolled effect") as err:
        go(Sheet((transform,)), Use("Severe Transform", object="frog", standard=False))
    assert err.value.rule == "standard_effect"
    flat = go(Sheet((transform,)), Use("Severe Transform", object="frog", standard=True))
    assert flat.effect is not None and flat.effect.points == 21  # Arkelos' 21, as bought


def test_a_rolled_power_does_not_take_the_standard_effect_for_one_use() -> None:
    blast = Power("Blast", "attack", "normal", "7d6")
    with pytest.raises(PowerRefused, match="not bought with the Standard Effect Rule"):
        go(Sheet((blast,)), Use("Blast", object="wall", standard=True))


# -- Casual Use: the rule that refuses is the one the text names first -------------------------

SHIELD = Power("Force Field", "defence", base_points=20, duration="constant")


def test_casual_use_of_a_defence_is_refused_as_not_an_attack() -> None:
    with pytest.raises(PowerRefused) as err:
        go(Sheet((SHIELD,)), Use("Force Field", casual=True, object="wall"))
    assert "defences, movement and other Powers can't be used Casually" in err.value.message
    assert err.value.rule == "casual"


def test_casual_str_at_a_character_is_refused_as_harm_even_after_a_casual_use() -> None:
    sheet = Sheet((strength(40),))
    door = go(sheet, Use("STR", casual=True, object="door"))
    with pytest.raises(PowerRefused) as err:
        go(sheet, Use("STR", casual=True, target="fenris"), state=door.state)
    assert "never allow a character to Casually use a Power to attack or harm" in str(
        err.value.message
    )


def test_casual_use_at_a_character_is_refused_even_with_the_gm_s_leave() -> None:
    blast = Power("Blast", "attack", "normal", "12d6")
    with pytest.raises(PowerRefused, match="never allow a character to Casually"):
        go(Sheet((blast,)), Use("Blast", casual=True, target="fenris", gm_allows=True))
    # and whatever the table's option: "never" comes before "at the GM's option"
    with pytest.raises(PowerRefused, match="never allow a character to Casually"):
        go(Sheet((blast,)), Use("Blast", casual=True, target="fenris"), options=TableOptions())


def test_a_casual_escape_needs_the_grab_or_entangle_the_gm_set() -> None:
    sheet = Sheet((strength(40),))
    with pytest.raises(PowerRefused, match="needs a Grab or Entangle"):
        go(sheet, Use("STR", casual=True, object="entangle", escape=True))
    assert go(sheet, Use("STR", casual=True, object="entangle", escape=True),
              conditions=("entangled",)).time == "none"  # fmt: skip
    with pytest.raises(PowerRefused, match="from his Grab"):  # an Entangle has no holder
        go(sheet, Use("STR", casual=True, target="fenris", escape=True), conditions=("entangled",))


# -- the GM's OCV modifier ----------------------------------------------------------------------


def test_the_gm_s_ocv_modifier_counts_in_the_attack_roll() -> None:
    blast = Power("Blast", "attack", "normal", "2d6")
    plain = go(Sheet((blast,)), Use("Blast", target="fenris"), roll=Dice([4, 3, 3, 1, 1]))
    assert plain.hit is True  # 10 against 10
    harder = go(
        Sheet((blast,)), Use("Blast", target="fenris", ocv_modifier=-4), roll=Dice([4, 3, 3])
    )
    assert harder.hit is False and harder.effect is None  # 6 against 10


def test_an_ocv_modifier_without_an_attack_roll_is_refused() -> None:
    blast = Power("Blast", "attack", "normal", "2d6")
    with pytest.raises(PowerRefused, match="no Attack Roll to modify"):
        go(Sheet((blast,)), Use("Blast", object="wall", ocv_modifier=-4))


def test_escape_without_casual_is_refused_not_ignored() -> None:
    with pytest.raises(PowerRefused, match="escape is a Casual Use's") as err:
        go(Sheet((strength(40),)), Use("STR", object="entangle", escape=True))
    assert err.value.rule == "casual"
