"""The GM's hands on a running fight: a newcomer at a count already taken is placed by its
game's tie rule with the table's own dice (``join_combat``'s ``rolls``), figure by figure,
and ``set_stats`` changes a sheet while the order stands.

- Cyberpunk RED (seed 001): "Ties reroll until someone comes out on top": the newcomer
  and the one tied with it reroll REF + d10; only the tied roll.
- Mutants & Masterminds (seed 003): "they act in order of highest Initiative modifier
  first.  If there is still a tie, roll a die, with the highest roll going first."
- Hero supplement (seed 000): "the characters who are tied randomly determine which one
  of them goes before the other": 1d6 each, as its start of combat does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import Combatant, Encounter, GridSpec, LoadScene, Scene, StartCombat
from engine.commands import JoinCombat, RollInitiative, SetStats
from engine.params import TokenRef
from tests.engine.cyberpunk_red.helpers import cpr
from tests.engine.cyberpunk_red.helpers import scene as cpr_scene
from tests.engine.helpers import refused, token
from tests.engine.mutants_masterminds.helpers import fight as mm_fight
from tests.engine.mutants_masterminds.helpers import mm


def started(scene: Scene, ruleset: str, rolls: tuple[int, ...] | None) -> Encounter:
    """A fight under ``ruleset`` on ``scene``, its dice the table's ``rolls``."""
    encounter = Encounter()
    encounter.apply(LoadScene("gm", scene))
    encounter.apply(StartCombat("gm", ruleset, 1, rolls=rolls))
    return encounter


def join(encounter: Encounter, newcomer: Combatant, *rolls: int) -> list[Any]:
    """The GM brings ``newcomer`` in with the table's ``rolls``."""
    return encounter.apply(JoinCombat("gm", newcomer, rolls=rolls))


def order(encounter: Encounter) -> tuple[str, ...]:
    combat = encounter.state.combat
    assert combat is not None
    return combat.order


def dice(events: list[Any]) -> list[tuple[str, tuple[int, ...], str, str]]:
    return [(e.purpose, e.results, e.source, e.by) for e in events if e.kind == "dice_rolled"]


# -- Cyberpunk RED -------------------------------------------------------------------------


def cpr_street() -> Encounter:
    """Ana 8 + 5 = 13, Bo 6 + 6 = 12, Cy 5 + 1 = 6: no tie at the start."""
    tokens = (cpr("ana", 1, 1, ref=8), cpr("bo", 3, 1, ref=6), cpr("cy", 5, 1, ref=5))
    encounter = started(cpr_scene(*tokens), "cyberpunk-red", (5, 6, 1))
    assert order(encounter) == ("ana", "bo", "cy")
    return encounter


def test_cpr_a_tied_newcomer_rerolls_against_the_tied_one_until_someone_is_on_top() -> None:
    encounter = cpr_street()
    # Nix: REF 7 + 5 = 12, tied with Bo.  Reroll: 7 + 3 = 10 against 6 + 4 = 10, tied
    # again; reroll: 7 + 9 = 16 against 6 + 2 = 8: Nix comes out on top.
    events = join(encounter, cpr("nix", 7, 7, ref=7), 5, 3, 4, 9, 2)
    why = "initiative reroll, nix joins tied with bo at 12"
    assert dice(events) == [
        ("initiative (joins): nix REF 7 + d10", (5,), "table", "gm"),
        (f"{why}: nix REF 7 + d10", (3,), "table", "gm"),
        (f"{why}: bo REF 6 + d10", (4,), "table", "gm"),
        (f"{why}: nix REF 7 + d10", (9,), "table", "gm"),
        (f"{why}: bo REF 6 + d10", (2,), "table", "gm"),
    ]
    assert order(encounter) == ("ana", "nix", "bo", "cy")
    combat = encounter.state.combat
    assert combat is not None
    assert dict(combat.scores)["nix"] == 12  # the reroll orders; the queue score stays


def test_cpr_only_the_tied_reroll_and_a_newcomer_beaten_goes_after() -> None:
    tokens = (cpr("ana", 1, 1, ref=8), cpr("bo", 3, 1, ref=6), cpr("cy", 5, 1, ref=6))
    # Ana 13; Bo 6 + 6 = 12 and Cy 6 + 6 = 12 tie, rerolled 6 + 5 = 11 against 6 + 1 = 7.
    encounter = started(cpr_scene(*tokens), "cyberpunk-red", (5, 6, 6, 5, 1))
    assert order(encounter) == ("ana", "bo", "cy")
    # Nix 7 + 5 = 12: against Bo 7 + 1 = 8 < 6 + 9 = 15, beaten; against Cy 7 + 8 = 15
    # > 6 + 1 = 7, on top.  Ana, at 13, rolls nothing.
    events = join(encounter, cpr("nix", 7, 7, ref=7), 5, 1, 9, 8, 1)
    assert [d[0].split(": ")[-1] for d in dice(events)] == [
        "nix REF 7 + d10", "nix REF 7 + d10", "bo REF 6 + d10", "nix REF 7 + d10",
        "cy REF 6 + d10",
    ]  # fmt: skip
    assert order(encounter) == ("ana", "bo", "nix", "cy")


def test_cpr_an_untied_newcomer_rolls_one_die() -> None:
    encounter = cpr_street()
    events = join(encounter, cpr("nix", 7, 7, ref=7), 10)
    assert [d[1] for d in dice(events)] == [(10,)]
    assert order(encounter) == ("nix", "ana", "bo", "cy")


@pytest.mark.parametrize("rolls", [(5,), (5, 3), (10, 1)])
def test_cpr_the_table_gives_every_die_the_join_makes_no_fewer_no_more(
    rolls: tuple[int, ...],
) -> None:
    encounter = cpr_street()
    refused(encounter, JoinCombat("gm", cpr("nix", 7, 7, ref=7), rolls=rolls), "bad_rolls")


# -- Mutants & Masterminds ----------------------------------------------------------------


def mm_street() -> Encounter:
    """Ada d20 10 + Dex 4 = 14, Ben 9 + 2 = 11."""
    encounter, _ = mm_fight(mm("ada", 0, 0, dex=4), mm("ben", 2, 0, dex=2), rolls=(10, 9))
    assert order(encounter) == ("ada", "ben")
    return encounter


def test_mm_a_tied_newcomer_with_the_higher_modifier_goes_first_without_a_die() -> None:
    encounter = mm_street()
    events = join(encounter, mm("kit", 5, 5, dex=4), 7)  # 7 + 4 = 11, modifier 4 > 2
    assert [d[1] for d in dice(events)] == [(7,)]
    assert order(encounter) == ("ada", "kit", "ben")


def test_mm_a_tied_newcomer_with_the_lower_modifier_goes_after_without_a_die() -> None:
    encounter = mm_street()
    events = join(encounter, mm("kit", 5, 5, dex=0), 11)  # 11 + 0 = 11, modifier 0 < 2
    assert [d[1] for d in dice(events)] == [(11,)]
    assert order(encounter) == ("ada", "ben", "kit")


def test_mm_at_equal_modifiers_a_die_each_until_one_is_higher() -> None:
    encounter = mm_street()
    # Kit 9 + 2 = 11 like Ben, modifier 2 like his: d20s 7 against 7, then 15 against 3.
    events = join(encounter, mm("kit", 5, 5, dex=2), 9, 7, 7, 15, 3)
    assert dice(events)[1:] == [
        ("initiative roll-off (joins): kit", (7,), "table", "gm"),
        ("initiative roll-off (joins): ben", (7,), "table", "gm"),
        ("initiative roll-off (joins): kit", (15,), "table", "gm"),
        ("initiative roll-off (joins): ben", (3,), "table", "gm"),
    ]
    assert order(encounter) == ("ada", "kit", "ben")


def test_mm_a_group_at_the_count_is_one_rival_and_is_not_split() -> None:
    # Ada 10 + 4 = 14; the minions' one check 6 + 1 = 7.  Kit 6 + 1 = 7, modifier 1 like
    # theirs: one d20 for Kit, one for the group, 12 against 3: Kit goes ahead of both.
    tokens = (mm("ada", 0, 0, dex=4), mm("m1", 2, 0, dex=1), mm("m2", 4, 0, dex=1))
    encounter, _ = mm_fight(*tokens, groups=(("m1", "m2"),), rolls=(10, 6))
    assert order(encounter) == ("ada", "m1", "m2")
    events = join(encounter, mm("kit", 6, 6, dex=1), 6, 12, 3)
    assert [d[0] for d in dice(events)][1:] == [
        "initiative roll-off (joins): kit",
        "initiative roll-off (joins): m1, m2",
    ]
    assert order(encounter) == ("ada", "kit", "m1", "m2")
    beaten, _ = mm_fight(*tokens, groups=(("m1", "m2"),), rolls=(10, 6))
    join(beaten, mm("kit", 6, 6, dex=1), 6, 3, 12)
    assert order(beaten) == ("ada", "m1", "m2", "kit")  # after the group, never inside it


# -- Hero supplement ----------------------------------------------------------------------


def hero_street() -> Encounter:
    """Al INIT 12; Bea and Cal tie at 10, their 1d6s 5 and 2 put Bea first."""
    tokens = (token("al", 0, 0, init=12), token("bea", 2, 0, init=10), token("cal", 4, 0, init=10))
    encounter = started(Scene(GridSpec(20, 20), tokens), "hero-supplement", (5, 2))
    assert order(encounter) == ("al", "bea", "cal")
    return encounter


def test_hero_a_tied_newcomer_rolls_1d6_against_each_tied_one_down_the_order() -> None:
    encounter = hero_street()
    # Dee at INIT 10: 3 against Bea's 4, behind her; 6 against Cal's 1, ahead of him.
    events = join(encounter, token("dee", 9, 9, init=10), 3, 4, 6, 1)
    purpose = "initiative tie at INIT 10: dee joins"
    assert dice(events) == [(purpose, (3, 4), "table", "gm"), (purpose, (6, 1), "table", "gm")]
    assert order(encounter) == ("al", "bea", "dee", "cal")


def test_hero_equal_dice_roll_again() -> None:
    encounter = hero_street()
    events = join(encounter, token("dee", 9, 9, init=10), 4, 4, 5, 1)
    assert [d[1] for d in dice(events)] == [(4, 4), (5, 1)]
    assert order(encounter) == ("al", "dee", "bea", "cal")


def test_hero_an_untied_newcomer_rolls_nothing_and_takes_no_dice() -> None:
    encounter = hero_street()
    refused(encounter, JoinCombat("gm", token("dee", 9, 9, init=11), rolls=(3,)), "bad_rolls")
    assert dice(encounter.apply(JoinCombat("gm", token("dee", 9, 9, init=11)))) == []
    assert order(encounter) == ("al", "dee", "bea", "cal")


# -- the GM changes a sheet mid-fight: the order stands in each game ----------------------


def test_cpr_a_ref_change_keeps_the_queue_and_the_fighter_takes_it() -> None:
    encounter = cpr_street()
    before = encounter.state.combat
    assert before is not None
    events = encounter.apply(SetStats("gm", TokenRef("cy"), {"ref": 9, "move": 6}))
    assert [(e.kind, getattr(e, "stats", None)) for e in events] == [
        ("stats_changed", (("move", 6), ("ref", 9)))
    ]
    combat = encounter.state.combat
    assert combat is not None
    assert (combat.order, combat.scores) == (before.order, before.scores)
    assert (combat.state_of("cy").ref, combat.state_of("cy").move) == (9, 6)


def test_cpr_gear_and_unknown_stats_are_refused_naming_what_it_plays() -> None:
    encounter = cpr_street()
    gear = SetStats("gm", TokenRef("cy"), {"weapon.rifle": 1})
    message = refused(encounter, gear, "unknown_stat")
    assert "it plays ref, move, armor_penalty, jump, net_actions" in message
    refused(encounter, SetStats("gm", TokenRef("cy"), {"ref": -1}), "bad_scene")
    refused(encounter, SetStats("player", TokenRef("cy"), {"ref": 9}), "gm_only")
    refused(encounter, SetStats("gm", TokenRef("zed"), {"ref": 9}), "not_in_combat")


def test_mm_a_dexterity_change_keeps_the_check_for_the_fight() -> None:
    encounter = mm_street()
    encounter.apply(SetStats("gm", TokenRef("ben"), {"dexterity": 9}))
    combat = encounter.state.combat
    assert combat is not None
    assert combat.order == ("ada", "ben") and dict(combat.scores) == {"ada": 14, "ben": 11}
    scene = encounter.state.scene
    assert scene is not None and scene.token("ben") is not None
    assert scene.token("ben").stat("dexterity") == 9  # type: ignore[union-attr]


def test_hero_an_init_change_keeps_the_order_and_spd_is_not_played() -> None:
    encounter = hero_street()
    encounter.apply(SetStats("gm", TokenRef("cal"), {"init": 20, "ocv": 7}))
    assert order(encounter) == ("al", "bea", "cal")
    message = refused(encounter, SetStats("gm", TokenRef("cal"), {"spd": 4}), "unknown_stat")
    assert "does not play 'spd'" in message and "init" in message


# -- a player rolls its own token's initiative (roll_initiative) --------------------------


def own(encounter: Encounter, actor: str, tid: str, *rolls: int) -> list[Any]:
    """``actor`` rolls ``tid``'s initiative dice before the fight."""
    return encounter.apply(RollInitiative(actor, TokenRef(tid), rolls or None))


def loaded(scene: Scene) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", scene))
    return encounter


def test_cpr_a_player_rolls_its_own_initiative_and_the_gm_the_rest() -> None:
    bo = replace(cpr("bo", 3, 1, ref=6), owner="bob")
    encounter = loaded(cpr_scene(cpr("ana", 1, 1, ref=8), bo, cpr("cy", 5, 1, ref=5)))
    refused(encounter, RollInitiative("alice", TokenRef("bo"), (9,)), "not_your_token")
    assert [e.kind for e in own(encounter, "bob", "bo", 9)] == ["initiative_rolled"]
    # Ana 8 + 5 = 13 and Cy 5 + 1 = 6 from the GM's dice, Bo 6 + 9 = 15 from Bob's.
    events = encounter.apply(StartCombat("gm", "cyberpunk-red", 1, rolls=(5, 1)))
    assert [(d[1], d[2], d[3]) for d in dice(events)] == [
        ((5,), "table", "gm"), ((9,), "table", "bob"), ((1,), "table", "gm"),
    ]  # fmt: skip
    assert order(encounter) == ("bo", "ana", "cy")
    assert encounter.state.initiative_dice == ()
    refused(encounter, RollInitiative("bob", TokenRef("bo"), (9,)), "combat_active")


def test_mm_the_players_each_roll_for_their_heroes() -> None:
    # "the players each roll for their heroes while the Narrator rolls for everyone else"
    flash = mm("flash", 0, 0, dex=4, owner="alice")
    encounter = loaded(Scene(GridSpec(20, 20), (flash, mm("brute", 2, 0, dex=1))))
    own(encounter, "alice", "flash", 3)
    events = encounter.apply(StartCombat("gm", "mm3e", 1, rolls=(17,)))
    assert [(d[1], d[3]) for d in dice(events)] == [((3,), "alice"), ((17,), "gm")]
    assert order(encounter) == ("brute", "flash")  # 17 + 1 = 18 against 3 + 4 = 7


def test_hero_a_players_die_breaks_its_tie_and_unneeded_dice_hold_the_start() -> None:
    tokens = (token("al", 0, 0, init=12), token("bea", 2, 0, init=10, owner="bob"),
              token("cal", 4, 0, init=10))  # fmt: skip
    encounter = loaded(Scene(GridSpec(20, 20), tokens))
    own(encounter, "bob", "bea", 2)
    events = encounter.apply(StartCombat("gm", "hero-supplement", 1, rolls=(5,)))
    assert [(d[1], d[3]) for d in dice(events)] == [((2,), "bob"), ((5,), "gm")]
    assert order(encounter) == ("al", "cal", "bea")
    # INIT is fixed: a die for a token that ties with nobody is not needed, and the
    # start is refused (nothing accepted and ignored) until it is taken back.
    untied = loaded(Scene(GridSpec(20, 20), tokens[:2]))
    own(untied, "bob", "bea", 4)
    message = refused(untied, StartCombat("gm", "hero-supplement", 1), "bad_rolls")
    assert "'bea': [4]" in message
    assert own(untied, "gm", "bea")[0].rolls == ()  # the GM takes them back
    untied.apply(StartCombat("gm", "hero-supplement", 1))
    assert order(untied) == ("al", "bea")


def test_a_new_scene_keeps_the_dice_of_the_tokens_it_still_holds() -> None:
    bea, cal = token("bea", 2, 0, owner="bob"), token("cal", 4, 0, owner="carl")
    encounter = loaded(Scene(GridSpec(20, 20), (bea, cal)))
    own(encounter, "bob", "bea", 2)
    own(encounter, "carl", "cal", 5)
    encounter.apply(LoadScene("gm", Scene(GridSpec(20, 20), (bea,))))
    assert encounter.state.initiative_dice == (("bea", "bob", (2,)),)
