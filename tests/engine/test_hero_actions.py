"""Seed 000 (Hero System Rules Supplement): the Phase budget, action types, and Post-Turn.

Section names in the test names are the text's: *Combat Actions*, *Move Actions*,
*Full-Phase Actions*, *Free Actions*, *Combat Time*.
"""

from __future__ import annotations

import pytest

from engine import AnswerPrompt, EndPhase, Move, SetCondition
from engine.encounter import Encounter
from engine.events import MoveCompleted, event_data
from engine.rulesets.hero import combine
from engine.rulesets.hero.commands import Attack, TakeAction
from engine.rulesets.hero.events import AttackRolled, Recovered
from engine.rulesets.hero.state import Maneuver, hero
from tests.engine.helpers import fight, kinds, refused, token


def hero_vs_far_ogre(**hero: object):  # type: ignore[no-untyped-def]
    return fight(token("hero", 2, 2, owner="alice", init=9, **hero), token("ogre", 18, 18, init=1))  # type: ignore[arg-type]


def adjacent_pair(**hero: object):  # type: ignore[no-untyped-def]
    return fight(token("hero", 4, 5, owner="alice", init=9, **hero), token("ogre", 5, 5, init=1))  # type: ignore[arg-type]


# -- Combat Actions: the Phase budget -------------------------------------------------------


def test_an_attack_action_and_a_move_action() -> None:
    encounter = adjacent_pair()
    encounter.apply(Attack("alice", "hero", "ogre", rolls=(3, 3, 3)))
    done = encounter.apply(Move("alice", "hero", ((3, 5), (2, 5))))
    assert isinstance(done[-1], MoveCompleted) and done[-1].movement_left == 4.0  # one move action
    refused(encounter, Attack("alice", "hero", "ogre", ranged=True, range=9.0), "over_budget")


def test_two_move_actions_replace_the_attack() -> None:
    encounter = hero_vs_far_ogre()
    encounter.apply(Move("alice", "hero", tuple((2 + i, 2) for i in range(1, 8))))  # 7 m: two moves
    message = refused(
        encounter, Attack("alice", "hero", "ogre", ranged=True, range=99.0), "over_budget"
    )
    assert "no actions left" in message


def test_a_full_phase_action_takes_the_whole_phase() -> None:
    encounter = hero_vs_far_ogre()
    encounter.apply(TakeAction("alice", "hero", "full_phase", "brace"))
    refused(encounter, Move("alice", "hero", ((3, 2),)), "over_budget")
    refused(encounter, TakeAction("alice", "hero", "draw_focus"), "over_budget")
    encounter = hero_vs_far_ogre()
    encounter.apply(Move("alice", "hero", ((3, 2),)))
    assert "whole Phase" in refused(
        encounter, TakeAction("alice", "hero", "full_phase"), "over_budget"
    )


def test_a_limited_phase_allows_one_attack_or_one_move_and_no_full_phase() -> None:
    encounter = fight(
        token("hero", 2, 2, owner="alice", init=9), token("ogre", 18, 18, init=1), aware=("hero",)
    )
    assert encounter.state.combat is not None and encounter.state.combat.surprise
    refused(encounter, TakeAction("alice", "hero", "full_phase"), "over_budget")
    encounter.apply(TakeAction("alice", "hero", "draw_focus", "sword"))
    refused(encounter, Move("alice", "hero", ((3, 2),)), "over_budget")


def test_a_move_action_starts_a_full_phase_action_and_another_completes_it() -> None:
    encounter = fight(
        token("hero", 2, 2, owner="alice", init=9), token("ogre", 18, 18, init=1), aware=("hero",)
    )
    refused(
        encounter, TakeAction("alice", "hero", "start_full_phase", "withdraw"), "illegal_action"
    )
    events = encounter.apply(TakeAction("alice", "hero", "start_full_phase", "bandage"))
    assert kinds(events) == ["action_taken"]
    refused(encounter, TakeAction("alice", "hero", "complete_full_phase"), "over_budget")
    encounter.apply(EndPhase("alice", "hero"))
    events = encounter.apply(TakeAction("alice", "hero", "complete_full_phase"))
    assert events[0].detail == "bandage" and events[0].slot == "move"  # type: ignore[attr-defined]
    refused(encounter, TakeAction("alice", "hero", "complete_full_phase"), "illegal_action")


# -- Move Actions ---------------------------------------------------------------------------


def test_drawing_a_focus_is_a_move_action_unless_fast_draw() -> None:
    encounter = hero_vs_far_ogre()
    assert encounter.apply(TakeAction("alice", "hero", "draw_focus", "sword"))[0].slot == "move"  # type: ignore[attr-defined]
    encounter = hero_vs_far_ogre(extra={"fast_draw": True})
    assert encounter.apply(TakeAction("alice", "hero", "draw_focus", "sword"))[0].slot is None  # type: ignore[attr-defined]


def test_standing_up_is_a_move_action_and_prone_characters_crawl() -> None:
    encounter = hero_vs_far_ogre()
    assert encounter.apply(TakeAction("alice", "hero", "drop_prone"))[0].slot is None  # type: ignore[attr-defined]
    assert "prone" in refused(encounter, Move("alice", "hero", ((3, 2),)), "over_budget")
    events = encounter.apply(Move("alice", "hero", ((3, 2),), mode="crawl"))
    assert isinstance(events[-1], MoveCompleted)
    refused(encounter, Move("alice", "hero", ((4, 2), (5, 2)), mode="crawl"), "over_budget")
    assert encounter.apply(TakeAction("alice", "hero", "stand_up"))[0].slot == "move"  # type: ignore[attr-defined]
    refused(encounter, TakeAction("alice", "hero", "stand_up"), "over_budget")


def test_combat_movement_rules_out_the_free_step() -> None:
    encounter = hero_vs_far_ogre()
    encounter.apply(Move("alice", "hero", ((3, 2), (4, 2))))
    refused(encounter, Move("alice", "hero", ((5, 2),), mode="step"), "over_budget")


def test_moving_no_distance_leaves_a_1m_move() -> None:
    encounter = hero_vs_far_ogre()
    encounter.apply(TakeAction("alice", "hero", "draw_focus"))
    encounter.apply(TakeAction("alice", "hero", "stow_focus"))  # both move actions used
    events = encounter.apply(Move("alice", "hero", ((3, 2),), mode="step"))
    assert isinstance(events[-1], MoveCompleted) and events[-1].cost == 1.0


# -- Full-Phase Actions -----------------------------------------------------------------------


def test_withdraw_covers_twice_combat_movement_as_a_full_phase_action() -> None:
    encounter = hero_vs_far_ogre()
    refused(
        encounter,
        Move("alice", "hero", tuple((2 + i, 2) for i in range(1, 14)), mode="withdraw"),
        "over_budget",
    )
    events = encounter.apply(
        Move("alice", "hero", tuple((2 + i, 2) for i in range(1, 13)), mode="withdraw")
    )
    assert isinstance(events[-1], MoveCompleted) and events[-1].cost == 12.0
    refused(encounter, TakeAction("alice", "hero", "draw_focus"), "over_budget")


def test_restricted_withdraw_is_a_move_action_in_a_limited_phase() -> None:
    encounter = fight(
        token("hero", 2, 2, owner="alice", init=9), token("ogre", 18, 18, init=1), aware=("hero",)
    )
    refused(
        encounter,
        Move("alice", "hero", tuple((2 + i, 2) for i in range(1, 8)), mode="withdraw"),
        "over_budget",
    )
    events = encounter.apply(
        Move("alice", "hero", tuple((2 + i, 2) for i in range(1, 7)), mode="withdraw")
    )
    assert isinstance(events[-1], MoveCompleted)


def test_noncombat_movement_is_a_full_phase_action() -> None:
    encounter = hero_vs_far_ogre()
    events = encounter.apply(
        Move("alice", "hero", tuple((2 + i, 2) for i in range(1, 13)), mode="noncombat")
    )
    assert isinstance(events[-1], MoveCompleted)
    refused(encounter, Move("alice", "hero", ((15, 2),)), "over_budget")


def test_the_hampered_1m_move_is_only_for_those_who_cannot_move_1m() -> None:
    encounter = hero_vs_far_ogre()
    refused(encounter, Move("alice", "hero", ((3, 2),), mode="hampered"), "over_budget")
    slow = fight(
        token("hero", 2, 2, owner="alice", init=9, movement=0.4), token("ogre", 18, 18, init=1)
    )
    refused(slow, Move("alice", "hero", ((3, 2),)), "over_budget")
    events = slow.apply(Move("alice", "hero", ((3, 2),), mode="hampered"))
    assert isinstance(events[-1], MoveCompleted)
    refused(slow, TakeAction("alice", "hero", "draw_focus"), "over_budget")


# -- Free Actions ---------------------------------------------------------------------------


def test_dropping_an_item_and_dropping_prone_are_free() -> None:
    encounter = hero_vs_far_ogre()
    for _ in range(3):
        assert encounter.apply(TakeAction("alice", "hero", "drop_item", "torch"))[0].slot is None  # type: ignore[attr-defined]
    encounter.apply(Move("alice", "hero", ((3, 2), (4, 2))))
    encounter.apply(Attack("alice", "hero", "ogre", ranged=True, range=99.0))
    assert encounter.apply(TakeAction("alice", "hero", "drop_prone"))[0].slot is None  # type: ignore[attr-defined]


def test_the_1m_step_once_a_phase_with_no_other_movement() -> None:
    encounter = hero_vs_far_ogre()
    encounter.apply(Move("alice", "hero", ((3, 2),), mode="step"))
    refused(encounter, Move("alice", "hero", ((4, 2),), mode="step"), "over_budget")
    refused(encounter, Move("alice", "hero", ((4, 2),)), "over_budget")
    refused(hero_vs_far_ogre(), Move("alice", "hero", ((3, 2), (4, 2)), mode="step"), "over_budget")


def test_no_1m_step_in_difficult_terrain_or_darkness_or_when_slow() -> None:
    from engine import Encounter, GridSpec, LoadScene, Scene, StartCombat, TerrainSpec

    mud = TerrainSpec("difficult", ((3.0, 0.0), (6.0, 0.0), (6.0, 6.0), (3.0, 6.0)))
    encounter = Encounter()
    hero, ogre = token("hero", 2, 2, owner="alice", init=9), token("ogre", 18, 18, init=1)
    encounter.apply(LoadScene("gm", Scene(GridSpec(20, 20), (hero, ogre), terrain=(mud,))))
    encounter.apply(StartCombat("gm", "hero-supplement", 1))
    refused(encounter, Move("alice", "hero", ((3, 2),), mode="step"), "over_budget")
    dark = hero_vs_far_ogre()
    dark.apply(SetCondition("gm", "hero", "darkness", True))
    assert "darkness" in refused(dark, Move("alice", "hero", ((3, 2),), mode="step"), "over_budget")
    slow = fight(
        token("hero", 2, 2, owner="alice", init=9, movement=1.0), token("ogre", 18, 18, init=1)
    )
    refused(slow, Move("alice", "hero", ((3, 2),), mode="step"), "over_budget")


def test_the_engine_says_what_a_character_may_do() -> None:
    encounter = adjacent_pair()
    options = encounter.options("hero", "alice")
    assert options.can_act and options.movement_left == 12.0
    assert not encounter.options("ogre", "gm").can_act
    assert "hero" in (encounter.options("ogre", "gm").reason or "")


# -- The Attack Roll with modifiers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "dcv", "tn"),
    [
        (None, 6, 16),  # DCV 6: TN 16
        ("stunned", 3, 13),  # Stunned halves DCV (Hero 6E's figure; the text names it only)
        ("underwater", 4, 14),  # underwater -2 DCV (Hero 6E's figure)
    ],
)
def test_attack_roll_modifiers(condition: str | None, dcv: int, tn: int) -> None:
    encounter = fight(
        token("hero", 4, 5, owner="alice", init=9, ocv=5), token("ogre", 5, 5, init=1, dcv=6)
    )
    if condition:
        encounter.apply(SetCondition("gm", "ogre", condition, True))
    events = encounter.apply(Attack("alice", "hero", "ogre", ocv_bonus=2, rolls=(2, 3, 4)))
    roll = events[-1]
    assert isinstance(roll, AttackRolled)
    assert (roll.ocv, roll.dcv, roll.total, roll.target_number) == (7, dcv, 16, tn)
    assert roll.hit is (tn <= 16)


def test_melee_needs_reach_and_ranged_needs_range() -> None:
    encounter = hero_vs_far_ogre()
    refused(encounter, Attack("alice", "hero", "ogre"), "out_of_reach")
    refused(encounter, Attack("alice", "hero", "ogre", ranged=True, range=5.0), "out_of_reach")
    assert isinstance(
        encounter.apply(Attack("alice", "hero", "ogre", ranged=True, range=30.0))[-1], AttackRolled
    )


@pytest.mark.parametrize(
    ("maneuvers", "ocv", "dcv"),
    [
        ((), (0), (0)),  # no manoeuvre: no modifier
        ((Maneuver("strike"), Maneuver("martial strike", 2, 1)), 0, 0),  # worst bonus is none
        ((Maneuver("a", 2, 2), Maneuver("b", 1, 3)), 1, 2),  # the worse of two bonuses
        ((Maneuver("haymaker", 0, -5), Maneuver("set", 1, -1)), 0, -6),  # penalties stack
        ((Maneuver("a", 3, -2), Maneuver("b", 2, -1)), 2, -3),  # worst bonus and penalties
    ],
)
def test_several_manoeuvres_in_a_phase_use_the_worst_bonus_and_every_penalty(
    maneuvers: tuple[Maneuver, ...], ocv: int, dcv: int
) -> None:
    assert combine(maneuvers) == (ocv, dcv)


def test_an_attack_of_opportunity_combines_the_phases_manoeuvres() -> None:
    ogre = token("ogre", 5, 5, init=10, ocv=5)
    hero = token("hero", 2, 5, owner="alice", init=9)
    encounter = fight(ogre, hero, token("imp", 0, 0, init=1))
    # The ogre's own action this Phase: a ranged attack with a +2 OCV / -1 DCV manoeuvre.
    encounter.apply(
        Attack("gm", "ogre", "hero", ranged=True, range=9.0, maneuver=Maneuver("aimed", 2, -1))
    )
    encounter.apply(EndPhase("gm", "ogre"))
    encounter.apply(Move("alice", "hero", ((3, 5), (4, 5))))
    events = encounter.apply(Move("alice", "hero", ((4, 6), (3, 7))))
    assert "prompt_opened" in kinds(events)
    prompt = events[-1].prompt  # type: ignore[attr-defined]
    events = encounter.apply(
        AnswerPrompt("gm", prompt, True, (1, 1, 1), Maneuver("haymaker", 0, -5))
    )
    roll = next(e for e in events if isinstance(e, AttackRolled))
    # aimed (+2 OCV, -1 DCV) with haymaker (+0 OCV, -5 DCV): worst OCV bonus 0.
    assert roll.ocv == 5


# -- Combat Time: Post-Turn Recovery ------------------------------------------------------


def test_post_turn_recovery_after_phase_4_only_for_the_eligible() -> None:
    hero = token("hero", 2, 2, owner="alice", init=9, extra={"end": 30, "stun": 25, "rec": 6})
    ogre = token("ogre", 18, 18, init=1, extra={"end": 20, "stun": 20, "rec": 4})
    encounter = fight(hero, ogre)
    combat = encounter.state.combat
    assert combat is not None
    # Spend some END and STUN by hand (damage is the GM's, not in seed 000).
    from dataclasses import replace

    from engine import Encounter
    from engine.rulesets.hero.state import Vitals, hero, put

    hurt = put(
        combat, replace(hero(combat), vitals=(Vitals("hero", 20, 12), Vitals("ogre", 19, 5)))
    )
    encounter = Encounter(replace(encounter.state, combat=hurt))
    encounter.apply(SetCondition("gm", "ogre", "no_recovery", True))
    recovered: list[Recovered] = []
    for _ in range(8):
        combat = encounter.state.combat
        assert combat is not None
        recovered += [
            e for e in encounter.apply(EndPhase("gm", combat.actor)) if isinstance(e, Recovered)
        ]
    assert recovered == [Recovered("hero", 1, (20, 26), (12, 18))]  # after Phase 4 only
    assert encounter.state.combat is not None and encounter.state.combat.turn == 2


def test_options_list_every_action_with_the_rule_that_forbids_it() -> None:
    encounter = adjacent_pair()
    options = encounter.options("hero", "alice")
    assert {"attack", "combat", "step", "withdraw", "delay", "ready", "end_phase"} <= set(
        options.available
    )
    assert dict(options.refused)["hampered"].endswith("for those who cannot")
    encounter.apply(Attack("alice", "hero", "ogre", rolls=(1, 1, 1)))
    options = encounter.options("hero", "alice")
    assert "attack" not in options.available
    assert dict(options.refused)["attack"] == "one attack action a Phase"
    assert "delay" not in options.available and "ready" not in options.available
    waiting = encounter.options("ogre", "gm")
    assert not waiting.can_act and waiting.available == ("abort",)
    assert encounter.options("ogre", "alice").reason == "'alice' does not control token 'ogre'"


# -- Full-Phase Actions: the hampered metre ---------------------------------------------------


def hampered(**extra: bool) -> Encounter:
    return fight(
        token("hero", 2, 2, owner="alice", init=9, movement=0.0, extra=dict(extra)),
        token("ogre", 18, 18, init=1),
    )


def test_so_hampered_it_cannot_move_even_1m_it_spends_a_full_phase_action_to_move_1m() -> None:
    """ "In some situations, your movement may be so hampered that you can't move even 1m.
    In such a case, you may spend a full-phase action to move 1m in any direction." Such
    a character cannot crawl instead: crawling is a move action, twice a Phase, 2 m."""
    encounter = hampered()
    assert "hampered" in refused(
        encounter, Move("alice", "hero", ((3, 2),), mode="crawl"), "over_budget"
    )
    refused(encounter, Move("alice", "hero", ((3, 2),)), "over_budget")
    events = encounter.apply(Move("alice", "hero", ((3, 2),), mode="hampered"))
    assert isinstance(events[-1], MoveCompleted) and events[-1].cost == 1.0
    for mode in ("hampered", "crawl", "step"):  # the whole Phase is spent: 1 m, no more
        refused(encounter, Move("alice", "hero", ((4, 2),), mode=mode), "over_budget")


def test_a_prone_character_that_cannot_move_even_1m_still_has_the_hampered_metre() -> None:
    encounter = hampered()
    encounter.apply(TakeAction("alice", "hero", "drop_prone"))
    refused(encounter, Move("alice", "hero", ((3, 2),), mode="crawl"), "over_budget")
    events = encounter.apply(Move("alice", "hero", ((3, 2),), mode="hampered"))
    assert isinstance(events[-1], MoveCompleted)


def test_a_prone_character_that_can_crawl_has_no_hampered_move() -> None:
    encounter = hero_vs_far_ogre()
    encounter.apply(TakeAction("alice", "hero", "drop_prone"))
    refused(encounter, Move("alice", "hero", ((3, 2),), mode="hampered"), "over_budget")


# -- Attacks of Opportunity: the worst bonus of the Phase ------------------------------------

MARTIAL_STRIKE = Maneuver("martial strike", 2, 1)


def adjacent_ogre_and_hero() -> Encounter:
    return fight(
        token("ogre", 5, 5, init=10, ocv=5, dcv=4),
        token("hero", 4, 5, owner="alice", init=9, ocv=5, dcv=5),
    )


def test_an_attack_of_opportunity_naming_no_manoeuvre_is_a_strike_for_the_worst_bonus() -> None:
    """ "You make your attack of opportunity with any manoeuvre that requires an attack
    roll ... you use the worst OCV and DCV bonus": answered without a manoeuvre it is a
    Strike (no bonus), so a better manoeuvre later in the Phase gets no bonus."""
    encounter = adjacent_ogre_and_hero()
    events = encounter.apply(Move("gm", "ogre", ((6, 5),)))
    prompt = events[-1].prompt  # type: ignore[attr-defined]
    encounter.apply(AnswerPrompt("alice", prompt, True, (1, 1, 1)))  # a miss
    encounter.apply(EndPhase("gm", "ogre"))
    events = encounter.apply(
        Attack("alice", "hero", "ogre", ranged=True, range=9.0, maneuver=MARTIAL_STRIKE)
    )
    roll = events[-1]
    assert isinstance(roll, AttackRolled)
    assert roll.ocv == 5  # not 7: the Strike's bonus (none) is the worst
    combat = encounter.state.combat
    assert combat is not None
    assert [m.name for m in hero(combat).maneuvers_of("hero")] == ["strike", "martial strike"]


def test_a_plain_attack_counts_as_a_strike_for_a_later_attack_of_opportunity() -> None:
    encounter = adjacent_ogre_and_hero()
    encounter.apply(Attack("gm", "ogre", "hero", rolls=(3, 3, 3)))
    encounter.apply(EndPhase("gm", "ogre"))
    events = encounter.apply(Move("alice", "hero", ((3, 5),)))
    prompt = events[-1].prompt  # type: ignore[attr-defined]
    events = encounter.apply(AnswerPrompt("gm", prompt, True, (3, 3, 3), MARTIAL_STRIKE))
    roll = next(e for e in events if isinstance(e, AttackRolled))
    assert roll.ocv == 5  # the plain attack was a Strike: worst OCV bonus 0


def test_the_worst_dcv_bonus_holds_against_attacks_for_the_rest_of_the_phase() -> None:
    encounter = fight(
        token("ogre", 5, 5, init=10, ocv=5, dcv=4),
        token("hero", 4, 5, owner="alice", init=9, ocv=5, dcv=5),
        token("imp", 0, 0, init=1),
    )
    events = encounter.apply(Move("gm", "ogre", ((6, 5),)))
    prompt = events[-1].prompt  # type: ignore[attr-defined]
    encounter.apply(AnswerPrompt("alice", prompt, True, (1, 1, 1)))  # a miss
    encounter.apply(EndPhase("gm", "ogre"))
    encounter.apply(
        Attack("alice", "hero", "ogre", ranged=True, range=9.0, maneuver=MARTIAL_STRIKE)
    )
    encounter.apply(EndPhase("alice", "hero"))
    events = encounter.apply(Attack("gm", "imp", "hero", ranged=True, range=9.0))
    roll = events[-1]
    assert isinstance(roll, AttackRolled) and roll.dcv == 5  # not 6: the Strike's +0 DCV


# -- Move events say how the token moved -----------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "path"),
    [
        ("combat", ((3, 2), (4, 2))),
        ("step", ((3, 2),)),
        ("withdraw", ((3, 2), (4, 2))),
        ("noncombat", ((3, 2), (4, 2))),
    ],
)
def test_move_started_carries_the_movement_mode(mode: str, path: tuple[tuple[int, int]]) -> None:
    encounter = hero_vs_far_ogre()
    started = encounter.apply(Move("alice", "hero", path, mode=mode))[0]
    assert started.kind == "move_started"
    assert event_data(started)["mode"] == mode  # type: ignore[arg-type]


# -- options() offers only what the character can use ----------------------------------------


def test_options_offer_no_movement_mode_a_character_without_movement_can_never_use() -> None:
    options = hampered().options("hero", "alice")
    refused_modes = dict(options.refused)
    for mode in ("combat", "step", "withdraw", "noncombat", "crawl"):
        assert mode in refused_modes, mode
    assert "hampered" in options.available  # its one way to move: 1 m, a full phase


def test_options_offer_every_mode_to_a_character_that_can_move() -> None:
    options = hero_vs_far_ogre().options("hero", "alice")
    assert {"combat", "step", "withdraw", "noncombat"} <= set(options.available)
    assert "hampered" not in options.available


# -- Chance is an input: the table's own dice for the attack at the end of a move -------------


def test_a_move_with_an_attack_takes_the_tables_own_dice() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 2, 5, owner="alice", init=9))
    events = encounter.apply(Move("gm", "hero", ((3, 5), (4, 5)), attack="ogre", rolls=(6, 5, 4)))
    rolled = [e for e in events if e.kind == "dice_rolled"]  # type: ignore[attr-defined]
    assert [(r.results, r.source) for r in rolled] == [((6, 5, 4), "table")]  # type: ignore[attr-defined]
    assert isinstance(events[-1], AttackRolled) and events[-1].dice == (6, 5, 4)
    assert encounter.state.draws == 0


def test_the_dice_of_a_move_are_checked_before_it_starts() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 2, 5, owner="alice", init=9))
    refused(
        encounter, Move("gm", "hero", ((3, 5), (4, 5)), attack="ogre", rolls=(6, 5)), "bad_rolls"
    )
    refused(encounter, Move("gm", "hero", ((3, 5), (4, 5)), rolls=(6, 5, 4)), "bad_rolls")
