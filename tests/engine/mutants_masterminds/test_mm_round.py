"""Seed 003, *Flat-Footed*, *Surprise* and *The Combat Round*, in the text's terms, and
the turn this ruleset plays (the text leaves it to the table: a standard, a move and free
actions, the standard traded down for a second move)."""

from __future__ import annotations

from typing import Any

from engine import Encounter, GridSpec, LoadScene, Move, Scene, StartCombat
from engine.commands import Act
from engine.options import options
from engine.timewords import Clock
from tests.engine.helpers import refused
from tests.engine.mutants_masterminds.helpers import (
    act,
    actor,
    character,
    end_turn,
    fight,
    mm,
    of,
    order,
)


def duel(**stats: Any) -> Any:
    """A hero far faster than a thug (so the hero acts first at any roll)."""
    return fight(
        mm("hero", 0, 0, dex=40, parry=7, dodge=8),
        mm("thug", 1, 0, dex=0, side="villains", parry=4, dodge=3, **stats),
        seed=11,
    )[0]


# -- flat-footed ----------------------------------------------------------------------------


def test_everyone_is_flat_footed_until_their_first_regular_turn() -> None:
    encounter = duel()
    # The hero's first turn has begun; the thug has not had one yet.
    assert not character(encounter, "hero").flat_footed
    assert character(encounter, "thug").flat_footed
    events = end_turn(encounter)
    assert [e.combatant for e in of(events, "flat_footed_ended")] == ["thug"]
    names = [e.kind for e in events]
    assert names.index("flat_footed_ended") < names.index("combatant_acts")
    assert not character(encounter, "thug").flat_footed


def test_a_flat_footed_defender_cannot_use_its_parry_or_dodge() -> None:
    # "You can't use your Dodge or Parry, if any, while flat-footed."
    encounter = duel()
    (close,) = of(act(encounter, "hero", "attack", target="thug", bonus=6), "attack_check")
    assert (close.defence, close.defence_rank, close.flat_footed, close.dc) == (
        "parry",
        0,
        True,
        10,
    )
    assert close.total == close.d20 + 6
    assert close.hit == (close.d20 == 20 or (close.d20 != 1 and close.total >= 10))


def test_once_it_has_acted_its_defences_count_again() -> None:
    encounter = duel(close_attack=3)
    end_turn(encounter)  # the thug's first regular turn
    (check,) = of(act(encounter, "thug", "attack", target="hero", reach="ranged"), "attack_check")
    assert (check.defence, check.defence_rank, check.flat_footed, check.dc) == (
        "dodge",
        8,
        False,
        18,
    )
    end_turn(encounter)
    (check,) = of(act(encounter, "hero", "attack", target="thug", bonus=2), "attack_check")
    assert (check.defence_rank, check.flat_footed, check.dc) == (4, False, 14)


def test_uncanny_dodge_keeps_dodge_and_parry_while_flat_footed() -> None:
    # "The Uncanny Dodge feat allows you to retain your Dodge or Parry while flat-footed."
    encounter = duel(uncanny_dodge=True)
    (check,) = of(act(encounter, "hero", "attack", target="thug", reach="ranged"), "attack_check")
    assert (check.flat_footed, check.defence_rank, check.dc) == (True, 3, 13)


def test_the_attack_bonus_defaults_to_the_tokens_close_or_ranged_attack() -> None:
    encounter = fight(
        mm("hero", 0, 0, dex=40, close_attack=9, ranged_attack=4), mm("thug", 1, 0, dex=0)
    )[0]
    (check,) = of(act(encounter, "hero", "attack", target="thug"), "attack_check")
    assert check.bonus == 9
    end_turn(encounter)
    end_turn(encounter)
    (check,) = of(act(encounter, "hero", "attack", target="thug", reach="ranged"), "attack_check")
    assert check.bonus == 4


def test_a_close_attack_needs_the_target_within_reach_a_ranged_one_in_sight() -> None:
    from engine import WallSpec

    encounter = Encounter()
    tokens = (mm("hero", 0, 0, dex=40), mm("thug", 4, 0, dex=0, side="villains"))
    wall = WallSpec("w", (2.0, 0.0), (2.0, 2.5))
    encounter.apply(LoadScene("gm", Scene(GridSpec(8, 8), tokens, (wall,))))
    encounter.apply(StartCombat("gm", "mm3e", 1))
    refused(encounter, Act("gm", "hero", "attack", {"target": "thug"}), "out_of_reach")
    ranged = Act("gm", "hero", "attack", {"target": "thug", "reach": "ranged"})
    refused(encounter, ranged, "out_of_reach")
    encounter.apply(Move("gm", "hero", ((0, 1), (0, 2), (0, 3), (0, 4))))
    encounter.apply(ranged)


# -- surprise -------------------------------------------------------------------------------


def ambush() -> Any:
    return fight(
        mm("sniper", 0, 0, dex=1, side="villains"),
        mm("lookout", 3, 0, dex=3, side="villains"),
        mm("hero", 9, 9, dex=30),
        aware=("sniper", "lookout"),
        seed=4,
    )


def test_a_surprise_round_happens_if_some_but_not_all_are_aware() -> None:
    _encounter, events = ambush()
    (started,) = of(events, "combat_started")
    assert started.surprise
    assert of(events, "pass_started")[0].surprise
    for aware in (None, ()):
        _, events = fight(mm("a", 0, 0), mm("b", 2, 0, side="v"), aware=aware)
        assert not of(events, "combat_started")[0].surprise


def test_in_the_surprise_round_the_aware_act_in_initiative_order_and_the_unaware_do_not() -> None:
    encounter, events = ambush()
    acts = of(events, "combatant_acts")
    for _ in range(2):
        acts += of(end_turn(encounter), "combatant_acts")
    in_surprise = [e.combatant for e in acts if e.clock.label == "Surprise Round"]
    assert tuple(in_surprise) == tuple(c for c in order(encounter) if c != "hero")
    assert all(e.limited for e in acts if e.clock.at == {"round": 0})
    # Round 1 runs the whole order from the top, the hero included.
    assert (acts[2].clock, acts[2].combatant) == (
        Clock({"round": 1}, "Round 1"),
        order(encounter)[0],
    )


def test_the_unaware_stay_flat_footed_through_the_surprise_round() -> None:
    encounter, _ = ambush()
    first = actor(encounter)
    (check,) = of(act(encounter, first, "attack", target="hero", reach="ranged"), "attack_check")
    assert check.flat_footed and check.defence_rank == 0
    events = end_turn(encounter)
    assert character(encounter, "hero").flat_footed
    assert "flat_footed_ended" not in [e.kind for e in events if e.combatant == "hero"]


def test_the_aware_take_a_standard_or_a_move_action_not_both() -> None:
    encounter, _ = ambush()
    first = actor(encounter)
    act(encounter, first, "attack", target="hero", reach="ranged")
    assert options(encounter.state, first).refused[0][0] == "ground"
    refused(
        encounter, Move("gm", first, ((0, 1),) if first == "sniper" else ((3, 1),)), "over_budget"
    )
    end_turn(encounter)
    second = actor(encounter)
    start = {"sniper": (0, 0), "lookout": (3, 0)}[second]
    encounter.apply(Move("gm", second, ((start[0], start[1] + 1),)))
    verdicts = dict(options(encounter.state, second).refused)
    assert "not both" in verdicts["attack"]
    assert "nothing to trade" in verdicts["trade_down"]


# -- the round and the turn -----------------------------------------------------------------


def test_a_turn_holds_a_standard_a_move_and_free_actions() -> None:
    encounter = duel()
    act(encounter, "hero", "free_action", what="Surrender!")
    encounter.apply(Move("gm", "hero", ((0, 1), (0, 2))))
    act(encounter, "hero", "attack", target="thug", reach="ranged")
    act(encounter, "hero", "free_action", what="Told you.")
    verdicts = dict(options(encounter.state, "hero").refused)
    assert verdicts["attack"] == "the standard action is taken this turn"
    assert verdicts["use_power"] == "the standard action is taken this turn"
    assert "free_action" in options(encounter.state, "hero").available


def test_the_standard_action_traded_down_gives_a_second_move() -> None:
    encounter = duel()
    # One move action carries the token its movement (6 m), no further.
    refused(encounter, Move("gm", "hero", tuple((0, y) for y in range(1, 8))), "over_budget")
    events = act(encounter, "hero", "trade_down")
    assert [e.kind for e in events] == ["traded_down"]
    encounter.apply(Move("gm", "hero", tuple((0, y) for y in range(1, 13))))
    assert character(encounter, "hero").moved == 12
    verdicts = dict(options(encounter.state, "hero").refused)
    assert "traded down" in verdicts["attack"]
    assert "already traded" in verdicts["trade_down"]


def test_taking_the_standard_action_ends_a_move_action_begun_before_it() -> None:
    encounter = duel()
    encounter.apply(Move("gm", "hero", ((0, 1),)))
    act(encounter, "hero", "attack", target="thug")
    refused(encounter, Move("gm", "hero", ((0, 2),)), "over_budget")
    # Move-by Action lets the move go on after the standard action.
    encounter = fight(
        mm("hero", 0, 0, dex=40, move_by_action=True), mm("thug", 1, 0, dex=0), seed=11
    )[0]
    encounter.apply(Move("gm", "hero", ((0, 1),)))
    act(encounter, "hero", "attack", target="thug")
    encounter.apply(Move("gm", "hero", ((0, 2),)))


def test_each_round_uses_the_same_order_and_a_fresh_turn_at_each_count() -> None:
    encounter = duel()
    act(encounter, "hero", "attack", target="thug")
    end_turn(encounter)
    end_turn(encounter)
    assert actor(encounter) == "hero"
    assert character(encounter, "hero").standard is False
    assert "attack" in options(encounter.state, "hero").available


# -- effects lasting N rounds ---------------------------------------------------------------


def trio() -> Any:
    """Three combatants whose order is certain: caster, ally, foe."""
    return fight(
        mm("caster", 0, 0, dex=60),
        mm("ally", 2, 0, dex=30),
        mm("foe", 4, 0, dex=0, side="villains"),
        seed=2,
    )[0]


def test_an_effect_lasting_one_round_ends_just_before_the_count_where_it_began() -> None:
    encounter = trio()
    end_turn(encounter)  # the caster
    events = act(encounter, "ally", "use_power", power="blinding flash", target="foe", rounds=1)
    (started,) = of(events, "effect_started")
    for _ in range(2):  # the ally is done (the foe acts), the foe is done (round 2: caster)
        assert not of(end_turn(encounter), "effect_ended")
    events = end_turn(encounter)  # the caster is done: the ally's count comes next
    names = [e.kind for e in events]
    assert names.index("effect_ended") < names.index("combatant_acts")
    assert of(events, "effect_ended")[0].effect == started.effect
    assert of(events, "combatant_acts")[0].combatant == "ally"


def test_an_effect_ends_at_its_count_though_its_starter_is_skipped() -> None:
    encounter = trio()
    end_turn(encounter)
    act(encounter, "ally", "use_power", power="force field", target="ally", rounds=2)
    act(encounter, "ally", "incapacitate", target="ally")  # the GM rules it out
    for _ in range(4):
        end_turn(encounter)
    # Round 3: the caster is done, the ally's count is skipped, the effect ends first.
    events = end_turn(encounter)
    names = [e.kind for e in events]
    assert names.index("effect_ended") < names.index("combatant_skipped")
    assert of(events, "combatant_skipped")[0].reason == "incapacitated"


def test_an_effect_ends_at_its_count_though_its_starter_has_left_or_the_order_changed() -> None:
    from engine.commands import JoinCombat, LeaveCombat

    encounter = trio()
    end_turn(encounter)
    act(encounter, "ally", "use_power", power="smoke", target=None, rounds=1)
    encounter.apply(LeaveCombat("gm", "ally", False))  # the starter leaves mid-turn
    encounter.apply(JoinCombat("gm", mm("newcomer", 9, 9, dex=-40)))
    ended: list[Any] = []
    while not ended:
        events = end_turn(encounter)
        ended = of(events, "effect_ended")
    names = [e.kind for e in events]
    # It ends just before the first combatant at or below the ally's count: the foe.
    assert names.index("effect_ended") < names.index("combatant_acts")
    assert of(events, "combatant_acts")[0].combatant == "foe"


def test_at_a_shared_count_the_effect_ends_before_the_first_of_those_sharing_it() -> None:
    # The text does not say; the ruleset decides: before the first combatant at the count.
    encounter, _ = fight(
        mm("hero", 0, 0, dex=60),
        mm("minion1", 5, 5, side="v"),
        mm("minion2", 6, 5, side="v"),
        groups=(("minion1", "minion2"),),
        seed=3,
    )
    end_turn(encounter)  # the hero
    end_turn(encounter)  # minion1
    assert actor(encounter) == "minion2"
    act(encounter, "minion2", "use_power", power="snare", target="hero", rounds=1)
    end_turn(encounter)  # minion2: round 2, the hero acts
    events = end_turn(encounter)  # the hero is done: the group's count comes up
    names = [e.kind for e in events]
    assert names.index("effect_ended") < names.index("combatant_acts")
    assert of(events, "combatant_acts")[0].combatant == "minion1"


# -- what may I do --------------------------------------------------------------------------


def test_ask_options_lists_the_turn_and_why_not() -> None:
    encounter = duel()
    mine = options(encounter.state, "hero")
    assert mine.can_act and mine.movement_left == 6.0
    assert mine.available == (
        "ground", "attack", "use_power", "trade_down", "free_action", "end_phase",
    )  # fmt: skip
    theirs = options(encounter.state, "thug")
    assert not theirs.can_act and "hero" in (theirs.reason or "")


def test_an_effect_begun_in_the_surprise_round_ends_before_its_count_in_round_one() -> None:
    encounter, _ = ambush()
    first = actor(encounter)
    (started,) = of(act(encounter, first, "use_power", power="snare", rounds=1), "effect_started")
    events = end_turn(encounter)  # the other aware one acts; the hero waits
    assert not of(events, "effect_ended")
    events = end_turn(encounter)  # round 1 opens
    combat = encounter.state.combat
    assert combat is not None
    ahead = [cid for cid, s in combat.scores if s > started.count]
    names = [e.kind for e in events]
    acted = [e.combatant for e in of(events, "combatant_acts")]
    if ahead:  # whoever counts higher acts first in round 1; the snare is still there
        assert acted == [ahead[0]] and "effect_ended" not in names
        events = end_turn(encounter)
        names = [e.kind for e in events]
    assert names.index("effect_ended") < names.index("combatant_acts")


def test_the_gm_sets_an_effect_that_ends_the_same_way() -> None:
    from engine.commands import SetEffect

    encounter = trio()
    end_turn(encounter)  # the ally's count is up
    (started,) = of(encounter.apply(SetEffect("gm", "darkness", None, 1)), "effect_started")
    assert started.source == "gm"
    for _ in range(2):
        assert not of(end_turn(encounter), "effect_ended")
    events = end_turn(encounter)
    assert of(events, "effect_ended")[0].name == "darkness"
    assert of(events, "combatant_acts")[0].combatant == "ally"


def test_an_incapacitated_combatant_is_skipped_and_stays_flat_footed() -> None:
    encounter = duel()
    act(encounter, "hero", "incapacitate", target="thug")
    events = end_turn(encounter)
    assert of(events, "combatant_skipped")[0].reason == "incapacitated"
    assert character(encounter, "thug").flat_footed
    act(encounter, "hero", "incapacitate", target="thug", on=False)
    events = end_turn(encounter)
    assert of(events, "flat_footed_ended")[0].combatant == "thug"


def test_a_token_without_the_statistics_cannot_start_a_fight() -> None:
    from engine.model import Combatant

    encounter = Encounter()
    bare = Combatant("x", "X", "gm", "a", 0, 0, movement=6.0, stats=(("dexterity", 2),))
    encounter.apply(LoadScene("gm", Scene(GridSpec(4, 4), (bare,))))
    message = refused(encounter, StartCombat("gm", "mm3e", 1), "bad_scene")
    assert "dodge" in message
