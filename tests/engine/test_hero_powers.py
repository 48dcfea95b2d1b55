"""Hero System 6E Powers (seed 002), rule by rule, with the text's worked examples."""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import CommandRejected
from engine.model import Combatant
from engine.params import ParamError, decode_params
from engine.rulesets.hero.powers import (
    Adder,
    DiceCode,
    Framework,
    Modifier,
    Power,
    PowerRefused,
    PowerState,
    Sheet,
    TableOptions,
    Use,
    activate,
    active_points,
    deactivate,
    end_cost,
    resolve,
    sheet_of,
    strength,
    switch,
    upkeep,
    use_power,
)

CASUAL = TableOptions(casual_use=True)
PHASE1, PHASE2 = (1, 1), (1, 2)


class Dice:
    """The table's dice, handed out in order; records every roll asked for."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        self.values = list(values)
        self.asked: list[tuple[str, int]] = []

    def __call__(self, purpose: str, count: int, sides: int) -> tuple[int, ...]:
        self.asked.append((purpose, count))
        assert len(self.values) >= count, f"{purpose} wants {count} dice, {self.values} left"
        out, self.values = tuple(self.values[:count]), self.values[count:]
        return out


def no_dice(purpose: str, count: int, sides: int) -> tuple[int, ...]:
    raise AssertionError(f"{purpose} rolled {count} dice under the Standard Effect Rule")


BLAST = Power("Blast", "attack", "normal", "10d6")
FIRE_BLAST = Power("Fire Blast", "attack", "killing", "2d6", points_per_die=15)


def go(sheet: Sheet, use: Use, *, end: int = 60, state: PowerState | None = None, **kw):  # type: ignore[no-untyped-def]
    kw.setdefault("options", CASUAL)
    kw.setdefault("roll", Dice([3] * 40))
    kw.setdefault("now", PHASE1)
    return use_power(sheet, state or PowerState(), use, end=end, actor="me", **kw)


# -- the worked examples ------------------------------------------------------------------------


def test_ironclad_casual_str_smashes_the_door_then_punches_fenris_in_the_same_phase() -> None:
    ironclad = Sheet((strength(60),))
    dice = Dice([6, 6, 2, 3, 4, 1])  # 7 BODY on 6d6, as the text rolls
    smash = go(ironclad, Use("STR", casual=True, object="door"), roll=dice)
    assert (smash.dice, smash.active_points, smash.end, smash.time) == ("6d6", 30, 3, "none")
    assert smash.effect is not None and smash.effect.body == 7
    assert not smash.ends_phase and not smash.state.attacked  # no time: he keeps running
    punch = go(ironclad, Use("STR", target="fenris"), state=smash.state, end=60 - 3)
    assert (punch.dice, punch.active_points, punch.end) == ("12d6", 60, 6)
    assert punch.state.phase == PHASE1 and punch.ends_phase  # the same Phase


def test_kasdrevan_casual_fire_blast_on_the_entangle_then_full_power_as_an_attack_action() -> None:
    kasdrevan = Sheet((FIRE_BLAST,))
    casual = go(
        kasdrevan,
        Use("Fire Blast", casual=True, object="entangle", escape=True),
        roll=Dice([3, 2]),
        conditions=("entangled",),  # "caught in a 4 BODY, 4 PD/4ED Entangle"
    )
    assert (casual.dice, casual.end, casual.time, casual.ends_phase) == ("1d6", 1, "none", False)
    assert casual.effect is not None and casual.effect.body == 3  # not past the 4 ED
    full = go(kasdrevan, Use("Fire Blast", object="entangle"), state=casual.state, end=59)
    assert (full.dice, full.active_points, full.end, full.time) == ("2d6", 30, 3, "attack")
    assert full.ends_phase and full.state.attacked


@pytest.mark.parametrize("seed", range(5))
def test_arkelos_severe_transform_7d6_under_ser_is_always_21_body(seed: int) -> None:
    transform = Power("Severe Transform", "attack", "points", "7d6", 15, standard_dice=7)
    effect = resolve(transform, transform.full_dice, no_dice)
    assert effect.points == 21 and effect.dice == () and effect.standard == 7


def test_blast_10d6_is_50_active_points_5_end_and_8d6_costs_4() -> None:
    full = go(Sheet((BLAST,)), Use("Blast", object="wall"))
    part = go(Sheet((BLAST,)), Use("Blast", dice="8d6", object="wall"))
    assert (full.active_points, full.end) == (50, 5)
    assert (part.active_points, part.end, part.dice) == (40, 4, "8d6")


# -- END and its rounding ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "end"),
    [
        (0, 0),  # a Power used at zero costs nothing
        (4, 1),  # used at all, at least 1 END
        (15, 1),  # a half rounds down: Kasdrevan's RKA 1d6 costs 1
        (16, 2),
        (25, 2),
        (26, 3),
        (50, 5),
        (62, 6),  # Blast 10d6 Armor Piercing
    ],
)
def test_end_is_one_per_ten_active_points_a_half_rounding_down(points: int, end: int) -> None:
    assert end_cost(points) == end


def test_advantages_apply_when_reduced_and_raise_the_end() -> None:
    ap = Power(
        "AP Blast", "attack", "normal", "10d6", advantages=(Modifier("Armor Piercing", 0.25),)
    )
    assert active_points(ap, ap.full_dice, 0) == 62  # 62.5 rounds down
    used = go(Sheet((ap,)), Use("AP Blast", dice="8d6", object="wall"))
    assert (used.active_points, used.end) == (50, 5)  # still Armor Piercing at 8d6


def test_limitations_never_lower_active_points_or_end() -> None:
    lim = Power("Blast", "attack", "normal", "10d6", limitations=(Modifier("OAF", -1),))
    assert go(Sheet((lim,)), Use("Blast", object="wall")).end == 5


def test_adders_are_optional_but_end_is_paid_on_the_power_with_its_adders() -> None:
    flight = Power("Flight", "movement", base_points=40, adders=(Adder("x16 Noncombat", 15),))
    rocket = Power("Rocket", "attack", "normal", "4d6", adders=(Adder("Double Knockback", 10),))
    sheet = Sheet((flight, rocket))
    assert go(sheet, Use("Rocket", object="wall")).active_points == 30
    # "he must still pay END based on the Active Points of the Power used (with Adders)"
    plain = go(sheet, Use("Rocket", adders=(), object="wall"))
    assert (plain.active_points, plain.end) == (20, 3)
    relaxed = go(
        sheet, Use("Rocket", adders=(), object="wall"), options=TableOptions(adder_end="used")
    )
    assert (relaxed.active_points, relaxed.end) == (20, 2)  # a table's relaxation
    with pytest.raises(PowerRefused, match="no Adder"):
        go(sheet, Use("Rocket", adders=("Penetrating",), object="wall"))


def test_any_amount_from_zero_to_full() -> None:
    sheet = Sheet((BLAST,))
    zero = go(sheet, Use("Blast", dice="0d6", object="wall"))
    assert (zero.end, zero.active_points) == (0, 0)
    assert go(sheet, Use("Blast", dice="1½d6", object="wall")).active_points == 8
    with pytest.raises(PowerRefused, match="more than all of it") as err:
        go(sheet, Use("Blast", dice="11d6", object="wall"))
    assert err.value.code == "illegal_action"


def test_without_the_end_the_power_is_refused_and_nothing_is_paid() -> None:
    state = PowerState()
    with pytest.raises(PowerRefused) as err:
        go(Sheet((BLAST,)), Use("Blast", object="wall"), end=4, state=state)
    assert (err.value.rule, err.value.code) == ("no_endurance", "over_budget")
    assert "costs 5 END; has 4" in str(err.value)
    assert go(Sheet((BLAST,)), Use("Blast", dice="8d6", object="wall"), end=4).end == 4


# -- several Powers in a Phase, oneself, time -----------------------------------------------------


def test_several_powers_in_one_phase_given_time_end_and_framework_points() -> None:
    flight = Power("Flight", "movement", base_points=20, duration="constant")
    armour = Power("Resistant Protection", "defence", base_points=30, duration="constant")
    sheet = Sheet((flight, armour, BLAST))
    state, paid1, _ = activate(sheet, PowerState(), "Flight", now=PHASE1, end=10)
    state, paid2, _ = activate(sheet, state, "Resistant Protection", now=PHASE1, end=10 - paid1)
    blast = go(sheet, Use("Blast", dice="4d6", object="wall"), state=state, end=10 - paid1 - paid2)
    assert (paid1, paid2, blast.end) == (2, 3, 2)
    assert set(blast.state.on) == {"Flight", "Resistant Protection"}
    with pytest.raises(PowerRefused, match="Attack Action is already spent"):
        go(sheet, Use("Blast", dice="1d6", object="wall"), state=blast.state)


def test_no_offensive_power_on_oneself_unless_the_gm_allows() -> None:
    with pytest.raises(PowerRefused) as err:
        go(Sheet((BLAST,)), Use("Blast", target="me"))
    assert err.value.rule == "self"
    assert go(Sheet((BLAST,)), Use("Blast", target="me", gm_allows=True)).end == 5
    heal = Power("Healing", "other", "points", "2d6", 10, attack_action=True)
    assert go(Sheet((heal,)), Use("Healing", target="me")).power == "Healing"


# -- activation and deactivation -------------------------------------------------------------------

DESOLID = Power("Desolidification", "defence", base_points=40, duration="constant")
FLIGHT = Power("Flight", "movement", base_points=40, duration="constant")


def test_not_both_on_and_off_in_one_phase_unless_the_gm_allows() -> None:
    sheet = Sheet((DESOLID,))
    state, _, time = activate(sheet, PowerState(), "Desolidification", now=PHASE1, end=60)
    assert time == "zero"
    with pytest.raises(PowerRefused) as err:
        deactivate(sheet, state, "Desolidification", now=PHASE1)
    assert err.value.rule == "on_off"
    assert (
        "Desolidification"
        not in deactivate(sheet, state, "Desolidification", now=PHASE1, gm_allows=True).on
    )
    off = deactivate(sheet, state, "Desolidification", now=PHASE2)  # the next Phase: fine
    with pytest.raises(PowerRefused, match="turned off this Phase"):
        activate(sheet, off, "Desolidification", now=PHASE2, end=60)


def test_movement_powers_go_on_and_off_in_one_phase() -> None:
    sheet = Sheet((FLIGHT,))
    state, _, _ = activate(sheet, PowerState(), "Flight", now=PHASE1, end=60)
    assert deactivate(sheet, state, "Flight", now=PHASE1).on == ()


@pytest.mark.parametrize(
    ("limitation", "time"),
    [
        (Modifier("Extra Time", -0.5), "full_phase"),  # no time named: a Full Phase
        (Modifier("Only In Alternate Identity", -0.25), "full_phase"),
        (Modifier("Extra Time", -1, "turn"), "turn"),  # longer: the GM's to apply
    ],
)
def test_extra_time_and_alternate_identity_make_activation_longer(
    limitation: Modifier, time: str
) -> None:
    power = Power(
        "Armour", "defence", base_points=30, duration="constant", limitations=(limitation,)
    )
    sheet = Sheet((power,))
    hero = PowerState(alternate=True)  # in the identity Only In Alternate Identity needs
    if time == "full_phase":
        assert activate(sheet, hero, "Armour", now=PHASE1, end=60)[2] == "full_phase"
    else:
        with pytest.raises(PowerRefused, match="takes turn"):
            activate(sheet, PowerState(), "Armour", now=PHASE1, end=60)
        assert (
            activate(sheet, PowerState(), "Armour", now=PHASE1, end=60, gm_allows=True)[2] == "turn"
        )


def test_constant_powers_pay_end_every_phase_and_go_off_without_it() -> None:
    sheet = Sheet((FLIGHT, DESOLID))
    state, paid, _ = activate(sheet, PowerState(), "Flight", now=PHASE1, end=20)
    state, paid2, _ = activate(sheet, state, "Desolidification", now=PHASE1, end=20 - paid)
    state, upkept, dropped = upkeep(sheet, state, now=PHASE2, end=5)
    assert (paid, paid2, upkept, dropped) == (4, 4, 4, ("Desolidification",))
    assert state.on == ("Flight",)


# -- Power Frameworks -----------------------------------------------------------------------------

MP = Framework("Gadget Pool", 60)
MP_BLAST = Power("Gadget Blast", "attack", "normal", "12d6", framework="Gadget Pool")
MP_FLIGHT = Power(
    "Gadget Flight", "movement", base_points=30, duration="constant", framework="Gadget Pool"
)
GADGETS = Sheet((MP_BLAST, MP_FLIGHT), (MP,))


def test_a_framework_slot_needs_its_points_allocated() -> None:
    with pytest.raises(PowerRefused) as err:
        go(GADGETS, Use("Gadget Blast", object="wall"))
    assert err.value.rule == "framework"
    state = switch(
        GADGETS,
        PowerState(),
        "Gadget Pool",
        [("Gadget Blast", 30), ("Gadget Flight", None)],
        now=PHASE1,
    )
    assert go(GADGETS, Use("Gadget Blast", dice="6d6", object="wall"), state=state).end == 3
    with pytest.raises(PowerRefused, match="30 points in Gadget Blast"):
        go(GADGETS, Use("Gadget Blast", dice="7d6", object="wall"), state=state)


def test_a_framework_reserve_is_shared_and_switched_once_a_phase() -> None:
    with pytest.raises(PowerRefused, match="has 60 points; 90 asked"):
        switch(
            GADGETS,
            PowerState(),
            "Gadget Pool",
            [("Gadget Blast", None), ("Gadget Flight", None)],
            now=PHASE1,
        )
    state = switch(GADGETS, PowerState(), "Gadget Pool", [("Gadget Flight", None)], now=PHASE1)
    with pytest.raises(PowerRefused) as err:
        switch(GADGETS, state, "Gadget Pool", [("Gadget Blast", None)], now=PHASE1)
    assert err.value.rule == "switch_twice"
    assert switch(
        GADGETS, state, "Gadget Pool", [("Gadget Blast", None)], now=PHASE1, gm_allows=True
    )
    later = switch(GADGETS, state, "Gadget Pool", [("Gadget Blast", None)], now=PHASE2)
    assert later.allocated == (("Gadget Blast", 60),)


def test_switching_a_constant_slot_away_turns_it_off() -> None:
    state = switch(GADGETS, PowerState(), "Gadget Pool", [("Gadget Flight", None)], now=PHASE1)
    state, _, _ = activate(GADGETS, state, "Gadget Flight", now=PHASE1, end=60)
    later = switch(GADGETS, state, "Gadget Pool", [("Gadget Blast", None)], now=PHASE2)
    assert later.on == () and later.deactivated == ("Gadget Flight",)


# -- Attack-Action Powers --------------------------------------------------------------------------

AID = Power("Aid STR", "other", "points", "3d6", 6, attack_action=True)


def test_an_attack_action_power_rolls_to_hit_and_ends_the_phase() -> None:
    hit = go(
        Sheet((AID,)), Use("Aid STR", target="ally"), roll=Dice([4, 4, 4, 6, 5, 4]), ocv=5, dcv=3
    )
    assert hit.hit is True and hit.ends_phase and hit.time == "attack"
    assert hit.effect is not None and hit.effect.points == 15


def test_a_missed_attack_action_power_has_no_effect_pays_and_ends_the_phase() -> None:
    miss = go(Sheet((AID,)), Use("Aid STR", target="ally"), roll=Dice([1, 1, 1]), ocv=5, dcv=3)
    assert miss.hit is False and miss.effect is None and miss.ends_phase and miss.end == 2


def test_the_gm_may_waive_the_attack_action_on_a_willing_target() -> None:
    dice = Dice([2, 2, 2])
    waived = go(Sheet((AID,)), Use("Aid STR", target="me", gm_allows=True), roll=dice)
    assert waived.hit is None and not waived.ends_phase and dice.asked == [("Aid STR 3d6", 3)]


# -- Casual Use ------------------------------------------------------------------------------------


def test_casual_use_is_a_table_option() -> None:
    with pytest.raises(PowerRefused, match="not one of this table's options"):
        go(Sheet((BLAST,)), Use("Blast", casual=True, object="door"), options=TableOptions())


@pytest.mark.parametrize(
    "power",
    [
        Power("Force Field", "defence", base_points=20),  # defences
        Power("Running", "movement", base_points=10),  # movement
        Power("Mind Link", "other", base_points=10),  # other Powers
        Power("Blast", "attack", "normal", "8d6", casual=False),  # the -0 Limitation
    ],
)
def test_only_attack_powers_and_str_are_used_casually(power: Power) -> None:
    with pytest.raises(PowerRefused) as err:
        go(Sheet((power,)), Use(power.name, casual=True, object="door"))
    assert err.value.rule == "casual"


def test_haymaker_martial_strike_and_block_are_not_powers_to_use_casually() -> None:
    for manoeuvre in ("Haymaker", "Martial Strike", "Block"):
        with pytest.raises(PowerRefused, match="no Power"):
            go(Sheet((strength(40),)), Use(manoeuvre, casual=True, object="door"))


@pytest.mark.parametrize("bar", ["Concentration", "Gestures", "Extra Time"])
def test_concentration_gestures_and_extra_time_bar_casual_use_unless_the_gm_allows(
    bar: str,
) -> None:
    power = Power("Spell", "attack", "killing", "2d6", 15, limitations=(Modifier(bar, -0.5),))
    with pytest.raises(PowerRefused, match=bar):
        go(Sheet((power,)), Use("Spell", casual=True, object="door"))
    assert go(Sheet((power,)), Use("Spell", casual=True, object="door", gm_allows=True)).end == 1


def test_casual_use_is_half_effect_or_less_for_half_the_end() -> None:
    blast12 = Power("Blast", "attack", "normal", "12d6")
    half = go(Sheet((blast12,)), Use("Blast", casual=True, object="wall"))
    assert (half.dice, half.end) == ("6d6", 3)  # "a Casual Blast of 6d6"
    less = go(Sheet((blast12,)), Use("Blast", dice="4d6", casual=True, object="wall"))
    assert (less.dice, less.end) == ("4d6", 2)
    with pytest.raises(PowerRefused, match="at most 6d6"):
        go(Sheet((blast12,)), Use("Blast", dice="7d6", casual=True, object="wall"))
    assert (
        go(Sheet((strength(40),)), Use("STR", casual=True, object="crate")).dice == "4d6"
    )  # STR 20


def test_casual_use_never_attacks_a_character_but_escapes_a_grab() -> None:
    sheet = Sheet((strength(60),))
    with pytest.raises(PowerRefused, match="never allow a character to Casually use a Power"):
        go(sheet, Use("STR", casual=True, target="fenris"))
    escape = Use("STR", casual=True, target="fenris", escape=True)
    assert go(sheet, escape, conditions=("grabbed",)).time == "none"


def test_casual_use_once_a_segment_and_one_power_a_segment() -> None:
    sheet = Sheet((strength(60), FIRE_BLAST))
    first = go(sheet, Use("STR", casual=True, object="door"))
    for again in ("STR", "Fire Blast"):  # neither the same nor another Power Casually
        with pytest.raises(PowerRefused, match="this Segment"):
            go(sheet, Use(again, casual=True, object="wall"), state=first.state)
    # the same Power again in that Segment, for its usual purpose, at its standard END
    assert go(sheet, Use("STR", object="door"), state=first.state).end == 6
    # a Segment is a Phase at this table: the next Phase allows Casual Use again
    assert (
        go(sheet, Use("Fire Blast", casual=True, object="wall"), state=first.state, now=PHASE2).end
        == 1
    )
    assert (
        go(sheet, Use("Fire Blast", casual=True, object="wall"), state=first.state, now=(2, 1)).end
        == 1
    )


# -- the Standard Effect Rule ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "body", "stun", "points"),
    [
        # a flat 3 points a die; normal damage: 3 STUN and 1 BODY a die
        (Power("Blast", "attack", "normal", "6d6", standard_dice=6), 6, 18, None),
        # Flash counts BODY: a flat 1 BODY a die
        (Power("Flash", "attack", "body", "5d6", standard_dice=5), 5, None, None),
        # a half die counts +1 point
        (Power("RKA", "attack", "killing", "2½d6", 15, standard_dice=2), 7, None, None),
        # +1 counts +1
        (Power("RKA", "attack", "killing", "2d6+1", 15, standard_dice=2), 7, None, None),
        # -1 is ignored: RKA 3d6-1 does 9 BODY
        (Power("RKA", "attack", "killing", "3d6-1", 15, standard_dice=3), 9, None, None),
    ],
)
def test_the_standard_effect_rule(
    power: Power, body: int, stun: int | None, points: int | None
) -> None:
    rolls = Dice([4])  # a killing attack still rolls its STUN Multiplier
    effect = resolve(power, power.full_dice, rolls)
    assert (effect.body, effect.dice) == (body, ())
    if power.effect == "killing":
        assert rolls.asked == [("RKA STUN Multiplier", 1)] and effect.stun == body * 2
    else:
        assert effect.stun == stun


def test_the_ser_plus_one_may_count_zero_as_a_table_option() -> None:
    rka = Power("RKA", "attack", "killing", "2d6+1", 15, standard_dice=2)
    assert resolve(rka, rka.full_dice, Dice([1]), plus_one_counts=False).body == 6


def test_part_of_a_power_under_ser_major_transform_4d6_plus_9() -> None:
    major = Power("Major Transform", "attack", "points", "7d6", 15, standard_dice=3)
    dice = Dice([1, 2, 3, 4])
    effect = resolve(major, major.full_dice, dice)
    assert (effect.dice, effect.standard, effect.points) == ((1, 2, 3, 4), 3, 19)


def test_a_power_under_ser_never_switches_back_to_rolling() -> None:
    transform = Power("Severe Transform", "attack", "points", "7d6", 15, standard_dice=7)
    used = go(Sheet((transform,)), Use("Severe Transform", object="statue"), roll=no_dice)
    assert used.effect is not None and used.effect.points == 21
    # reduced, it is still standard: 5d6 is 15
    fewer = go(
        Sheet((transform,)), Use("Severe Transform", dice="5d6", object="statue"), roll=no_dice
    )
    assert fewer.effect is not None and fewer.effect.points == 15


def test_str_added_to_an_hka_under_ser_takes_the_same_share() -> None:
    # HKA 4d6 defined as 2d6+6; 15 STR adds 1d6 (3 Damage Classes): 5d6, 2 standard
    hka = Power("HKA", "attack", "killing", "4d6", 15, standard_dice=2, adds_str=True)
    dice = Dice([5, 5, 5, 4])
    sheet = Sheet((hka, strength(20)))
    used = go(sheet, Use("HKA", str_added=15, object="log"), roll=dice)
    assert used.effect is not None and used.effect.standard == 2 and used.effect.body == 6 + 15
    assert used.end == 6 + 1  # the HKA's 60 points, and 15 STR's own 1 END (1.5 rounds down)
    with pytest.raises(PowerRefused, match="has STR 20"):
        go(sheet, Use("HKA", str_added=25, object="log"))


def test_str_added_to_an_hka_all_standard_is_all_standard() -> None:
    hka = Power("HKA", "attack", "killing", "2d6", 15, standard_dice=2, adds_str=True)
    used = go(Sheet((hka, strength(15))), Use("HKA", str_added=15, object="log"), roll=Dice([2]))
    assert used.effect is not None and (used.effect.body, used.effect.dice) == (9, ())


def test_rolled_effects_count_stun_and_body() -> None:
    effect = resolve(BLAST, DiceCode(3, half=True), Dice([1, 6, 3, 5]))
    assert (effect.stun, effect.body) == (1 + 6 + 3 + 3, 0 + 2 + 1 + 1)
    killing = resolve(FIRE_BLAST, FIRE_BLAST.full_dice, Dice([4, 5, 6]))
    assert (killing.body, killing.multiplier, killing.stun) == (9, 3, 27)


# -- the Absolute Effect Rule ---------------------------------------------------------------------


def test_always_hits_needs_no_attack_roll() -> None:
    sure = Power(
        "Binding", "other", "points", "2d6", 10, attack_action=True, absolute=("always_hits",)
    )
    dice = Dice([3, 3])
    used = go(Sheet((sure,)), Use("Binding", target="ally"), roll=dice, ocv=0, dcv=30)
    assert used.hit is True and used.absolute == "always hits" and len(dice.asked) == 1


def test_immunity_by_absolute_effect_stops_a_tagged_power() -> None:
    sword = Power("Sword", "attack", "killing", "4d6", 15, tags=("sword",))
    ward = Power("Ward", "defence", base_points=72, absolute=("immune:sword",))
    used = go(
        Sheet((sword,)),
        Use("Sword", target="knight"),
        roll=Dice([6, 6, 6]),
        target_sheet=Sheet((ward,)),
    )
    assert used.hit is True and used.effect is None and used.absolute == "Ward: immune to sword"


def test_always_kills_is_reported() -> None:
    doom = Power("Doom", "attack", "killing", "1d6", 15, absolute=("always_kills",))
    assert (
        go(Sheet((doom,)), Use("Doom", object="idol"), roll=Dice([2, 2])).absolute == "always kills"
    )


# -- declaring Powers on a token -------------------------------------------------------------------


def token(**stats: object) -> Combatant:
    return Combatant(
        "kas", "Kasdrevan", "p1", "heroes", 0, 0, movement=12, stats=tuple(sorted(stats.items()))
    )  # type: ignore[arg-type]


def test_powers_are_declared_as_token_stats() -> None:
    kas = token(
        STR=10,
        **{
            "power:Fire Blast": json.dumps(
                {"kind": "attack", "effect": "killing", "dice": "2d6", "points_per_die": 15}
            ),
            "framework:Spells": json.dumps({"pool": 40}),
            "power:Shield": json.dumps(
                {
                    "kind": "defence",
                    "base_points": 20,
                    "framework": "Spells",
                    "duration": "constant",
                }
            ),
        },
    )
    sheet = sheet_of(kas)
    assert [p.name for p in sheet.powers] == ["Fire Blast", "Shield", "STR"]
    assert sheet.power("STR") == strength(10) and sheet.framework("Spells") == Framework(
        "Spells", 40
    )


@pytest.mark.parametrize(
    ("stats", "words"),
    [
        ({"power:X": "{"}, "power:X"),  # not JSON
        ({"power:X": 3}, "JSON text"),
        ({"power:X": json.dumps({"kind": "psionic"})}, "kind"),
        ({"power:X": json.dumps({"kind": "attack", "dice": "2d8", "effect": "normal"})}, "2d8"),
        ({"power:X": json.dumps({"kind": "attack", "effect": "normal"})}, "dice exactly"),
        ({"power:X": json.dumps({"kind": "other", "framework": "Nope"})}, "undeclared framework"),
        ({"power:X": json.dumps({"kind": "attack", "name": "Y"})}, "named 'Y'"),
        ({"power:X": json.dumps({"kind": "attack", "absolute": ["godlike"]})}, "always_hits"),
        (
            {
                "power:X": json.dumps(
                    {"kind": "attack", "advantages": [{"name": "AP", "value": 0.3}]}
                )
            },
            "quarters",
        ),
    ],
)
def test_a_bad_power_declaration_is_a_bad_scene(stats: dict[str, object], words: str) -> None:
    with pytest.raises(CommandRejected, match=words) as err:
        sheet_of(token(**stats))
    assert err.value.code == "bad_scene"


def test_the_power_declaration_is_the_params_declaration() -> None:
    with pytest.raises(ParamError) as err:
        decode_params(Power, {"name": "X", "kind": "attack", "bogus": 1})
    assert err.value.code == "unknown_field"


@pytest.mark.parametrize(
    ("text", "thirds"),
    [("10d6", 30), ("1½d6", 5), ("1.5d6", 5), ("½d6", 2), ("2d6+1", 7), ("3d6-1", 8), ("0d6", 0)],
)
def test_dice_codes(text: str, thirds: int) -> None:
    code = DiceCode.parse(text)
    assert code.thirds == thirds
    assert DiceCode.parse(str(code)) == code


# -- properties -----------------------------------------------------------------------------------


@given(st.integers(0, 300))
def test_dice_codes_round_trip_through_their_written_form(thirds: int) -> None:
    code = DiceCode.of_thirds(thirds)
    assert DiceCode.parse(str(code)).thirds == thirds


@given(st.integers(1, 40), st.integers(0, 120), st.sampled_from([5, 10, 15]))
def test_less_of_a_power_never_costs_more_end(dice: int, less: int, per_die: int) -> None:
    power = Power("P", "attack", "normal", f"{dice}d6", per_die)
    full = power.full_dice.thirds
    part = DiceCode.of_thirds(min(less, full))
    assert end_cost(active_points(power, part, 0)) <= end_cost(
        active_points(power, power.full_dice, 0)
    )


@given(st.integers(1, 30))
def test_a_power_all_under_ser_never_rolls(dice: int) -> None:
    power = Power("T", "attack", "points", f"{dice}d6", 10, standard_dice=dice)
    assert resolve(power, power.full_dice, no_dice).points == 3 * dice
