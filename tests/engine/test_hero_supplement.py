"""The Hero System Rules Supplement (seed 000_7b793dffabbd5bba.txt), rule by rule."""

from __future__ import annotations

import pytest

from engine import (
    AnswerPrompt,
    CommandRejected,
    Encounter,
    EndPhase,
    ExpirePrompt,
    GridSpec,
    LoadScene,
    Move,
    Scene,
    StartCombat,
    dice,
)
from engine.events import DiceRolled, InitiativeOrder, MoveCompleted, PromptOpened
from engine.rulesets.hero.events import AttackRolled
from tests.engine.helpers import fight, kinds, refused, token


def end(encounter, tid: str, actor: str = "gm"):  # type: ignore[no-untyped-def]
    return encounter.apply(EndPhase(actor, tid))


# -- Initiative ------------------------------------------------------------------------


def test_init_order_highest_first() -> None:
    encounter = fight(
        token("a", 0, 0, init=8), token("b", 5, 5, init=18), token("c", 9, 9, init=13)
    )
    assert encounter.state.combat is not None
    assert encounter.state.combat.order == ("b", "c", "a")


def test_ties_are_broken_randomly_among_the_tied_only_and_the_roll_is_an_event() -> None:
    tokens = [token("a", 0, 0, init=10), token("b", 5, 5, init=10), token("c", 9, 9, init=20)]
    encounter = fight(*tokens, seed=99)
    events = []
    # Re-run to see the events: the same seed gives the same rolls.
    from engine import Encounter, GridSpec, LoadScene, Scene, StartCombat

    replayed = Encounter()
    replayed.apply(LoadScene("gm", Scene(GridSpec(20, 20), tuple(tokens))))
    events = replayed.apply(StartCombat("gm", "hero-supplement", 99))
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert rolls[0].purpose == "initiative tie at INIT 10"
    assert all(len(r.results) == 2 for r in rolls)  # only the two tied characters roll
    first = rolls[-1].results
    expected = ("a", "b") if first[0] > first[1] else ("b", "a")
    assert encounter.state.combat is not None
    assert encounter.state.combat.order == ("c", *expected)
    # The rolls are the seeded generator's: draw 0 and 1 (and more only on a re-tie).
    assert rolls[0].results == dice.roll(99, 0, 2, 6)


def test_the_order_holds_in_every_phase() -> None:
    encounter = fight(token("a", 0, 0, init=8), token("b", 5, 5, init=18))
    seen = []
    for _ in range(8):
        combat = encounter.state.combat
        assert combat is not None
        seen.append(combat.actor)
        end(encounter, combat.actor)
    assert seen == ["b", "a"] * 4


# -- Combat time -------------------------------------------------------------------------


def test_four_phases_make_a_turn() -> None:
    encounter = fight(token("a", 0, 0), token("b", 5, 5, init=1))
    phases = []
    for _ in range(9):
        combat = encounter.state.combat
        assert combat is not None
        phases.append((combat.turn, combat.phase))
        end(encounter, combat.actor)
        combat = encounter.state.combat
        assert combat is not None
        end(encounter, combat.actor)
    assert phases == [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (2, 4), (3, 1)]


# -- Surprise --------------------------------------------------------------------------


def test_surprise_phase_only_when_some_but_not_all_are_aware() -> None:
    a, b = token("a", 0, 0, init=5), token("b", 5, 5, init=15)
    assert fight(a, b, aware=("a",)).state.combat.phase == 0  # type: ignore[union-attr]
    assert fight(a, b, aware=("a", "b")).state.combat.phase == 1  # type: ignore[union-attr]
    assert fight(a, b, aware=()).state.combat.phase == 1  # type: ignore[union-attr]


def test_only_the_aware_act_in_the_surprise_phase_with_one_action() -> None:
    encounter = fight(token("a", 0, 0, init=5), token("b", 5, 5, init=15), aware=("a",))
    combat = encounter.state.combat
    assert combat is not None and combat.actor == "a"  # b has higher INIT but is unaware
    # Limited: one move action, 6 m, not two.
    assert encounter.options("a").movement_left == 6.0
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(Move("gm", "a", tuple((0, y) for y in range(1, 8))))
    assert refusal.value.code == "over_budget"
    events = end(encounter, "a")
    assert "pass_started" in kinds(events)
    combat = encounter.state.combat
    assert combat is not None and (combat.turn, combat.phase, combat.actor) == (1, 1, "b")


def test_unaware_have_minus_3_dcv_in_the_surprise_phase() -> None:
    # a (aware, player) walks away from b (unaware monster with combat reflexes irrelevant);
    # instead b is the mover: make the aware monster threaten the unaware hero.
    ogre = token("ogre", 5, 5, init=5, ocv=5)
    hero = token("hero", 6, 5, owner="alice", init=20, dcv=6)
    encounter = fight(ogre, hero, aware=("ogre", "hero"))
    assert encounter.state.combat is not None
    # In a normal phase: DCV 6, TN 16.
    encounter.apply(Move("alice", "hero", ((7, 5), (8, 5))))
    events = encounter.apply(AnswerPrompt("gm", "p1", True, (3, 3, 3)))
    attack = next(e for e in events if isinstance(e, AttackRolled))
    assert (attack.dcv, attack.target_number) == (6, 16)

    surprised = fight(
        token("ogre", 5, 5, init=5, ocv=5),
        token("hero", 6, 5, owner="alice", init=20, dcv=6),
        token("imp", 0, 0, init=30),
        aware=("imp",),
    )
    # Only the imp acts in the Surprise Phase; let the GM move the unaware hero is not
    # allowed, so check the rule through the ruleset directly with the real state.
    from engine.rulesets import find_ruleset
    from engine.tray import DiceTray

    state = surprised.state
    assert state.combat is not None and state.combat.surprise and state.scene is not None
    ogre_c, hero_c = state.scene.token("ogre"), state.scene.token("hero")
    assert ogre_c is not None and hero_c is not None
    roll = find_ruleset("hero-supplement").attack_roll(  # type: ignore[attr-defined]
        state.combat, ogre_c, hero_c, DiceTray(1, 0, "gm"), (3, 3, 3), attack="aoo"
    )
    assert (roll.dcv, roll.target_number, roll.total, roll.hit) == (3, 13, 14, True)


# -- The Attack Roll ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice_rolled", "ocv", "dcv", "total", "tn", "hit"),
    [
        ((1, 1, 1), 5, 5, 8, 15, False),  # the lowest roll
        ((4, 3, 3), 5, 5, 15, 15, True),  # exactly the TN hits
        ((4, 3, 2), 5, 5, 14, 15, False),  # one short misses
        ((6, 6, 6), 0, 12, 18, 22, False),  # a high DCV beats even 18
    ],
)
def test_attack_roll_3d6_plus_ocv_against_10_plus_dcv(
    dice_rolled: tuple[int, int, int], ocv: int, dcv: int, total: int, tn: int, hit: bool
) -> None:
    encounter = fight(
        token("ogre", 5, 5, ocv=ocv, init=1), token("hero", 6, 5, owner="alice", dcv=dcv, init=9)
    )
    encounter.apply(Move("alice", "hero", ((7, 5),)))
    events = encounter.apply(AnswerPrompt("gm", "p1", True, dice_rolled))
    attack = next(e for e in events if isinstance(e, AttackRolled))
    assert (attack.dice, attack.total, attack.target_number, attack.hit) == (
        dice_rolled,
        total,
        tn,
        hit,
    )


def test_supplied_dice_are_checked() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 6, 5, owner="alice", init=9))
    encounter.apply(Move("alice", "hero", ((7, 5),)))
    before = encounter.state
    for bad in [(1, 2), (1, 2, 7), (0, 1, 1), (1, 1, 1, 1)]:
        with pytest.raises(CommandRejected) as refusal:
            encounter.apply(AnswerPrompt("gm", "p1", True, bad))
        assert refusal.value.code == "bad_rolls"
    assert encounter.state == before


# -- Attacks of opportunity --------------------------------------------------------------


def test_leaving_a_threatened_square_provokes_and_pauses_there() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 6, 6, owner="alice", init=9))
    events = encounter.apply(Move("alice", "hero", ((7, 7), (8, 8))))
    assert kinds(events) == ["move_started", "move_interrupted", "prompt_opened"]
    opened = events[-1]
    assert isinstance(opened, PromptOpened)
    assert (opened.controller, opened.attacker, opened.target, opened.at) == (
        "gm",
        "ogre",
        "hero",
        (6, 6),
    )
    assert opened.exit_point == (7.0, 7.0)  # a diagonal step leaves through the corner
    assert encounter.state.scene is not None
    hero = encounter.state.scene.token("hero")
    assert hero is not None and hero.cell == (6, 6)


def test_entering_reach_does_not_provoke() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 8, 5, owner="alice", init=9))
    events = encounter.apply(Move("alice", "hero", ((7, 5), (6, 5))))
    assert kinds(events) == ["move_started", "move_completed"]


def test_moving_within_then_out_gives_one_opportunity_per_threatener() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 4, owner="alice", init=9))
    # (4,4) -> (4,5) -> (4,6) are all threatened, then out to (3,7).
    events = encounter.apply(Move("alice", "hero", ((4, 5), (4, 6), (3, 7))))
    assert kinds(events).count("prompt_opened") == 1
    events = encounter.apply(AnswerPrompt("gm", "p1", False))
    assert kinds(events) == ["prompt_closed", "move_completed"]
    done = events[-1]
    assert isinstance(done, MoveCompleted) and done.cost == 3.0 and done.movement_left == 9.0


def test_allies_do_not_threaten() -> None:
    encounter = fight(
        token("friend", 5, 5, owner="bob", init=1), token("hero", 6, 5, owner="alice", init=9)
    )
    events = encounter.apply(Move("alice", "hero", ((7, 5),)))
    assert kinds(events) == ["move_started", "move_completed"]


def test_one_attack_of_opportunity_a_phase() -> None:
    ogre = token("ogre", 5, 5, init=1)
    encounter = fight(
        ogre, token("hero", 6, 5, owner="alice", init=9), token("elf", 4, 5, owner="bob", init=8)
    )
    encounter.apply(Move("alice", "hero", ((7, 5),)))
    encounter.apply(AnswerPrompt("gm", "p1", True))
    end(encounter, "hero", "alice")
    events = encounter.apply(Move("bob", "elf", ((3, 5),)))
    assert "prompt_opened" not in kinds(events)  # the ogre spent its one AoO this Phase


def test_a_declined_opportunity_is_not_spent() -> None:
    encounter = fight(
        token("ogre", 5, 5, init=1),
        token("hero", 6, 5, owner="alice", init=9),
        token("elf", 4, 5, owner="bob", init=8),
    )
    encounter.apply(Move("alice", "hero", ((7, 5),)))
    encounter.apply(AnswerPrompt("gm", "p1", False))
    end(encounter, "hero", "alice")
    events = encounter.apply(Move("bob", "elf", ((3, 5),)))
    assert "prompt_opened" in kinds(events)


def test_combat_reflexes_allow_one_per_opponent_never_two_on_the_same() -> None:
    encounter = fight(
        token("ogre", 5, 5, init=1, reflexes=True),
        token("hero", 6, 5, owner="alice", init=9),
        token("elf", 4, 5, owner="bob", init=8),
    )
    encounter.apply(Move("alice", "hero", ((7, 5),)))
    encounter.apply(AnswerPrompt("gm", "p1", True))
    # The hero comes back into reach and leaves again: no second AoO on the same opponent.
    events = encounter.apply(Move("alice", "hero", ((6, 5), (7, 5))))
    assert "prompt_opened" not in kinds(events)
    end(encounter, "hero", "alice")
    events = encounter.apply(Move("bob", "elf", ((3, 5),)))
    assert "prompt_opened" in kinds(events)  # a second opponent is fair game


def test_the_opportunity_resets_each_phase() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 6, 5, owner="alice", init=9))
    encounter.apply(Move("alice", "hero", ((7, 5),)))
    encounter.apply(AnswerPrompt("gm", "p1", True))
    encounter.apply(Move("alice", "hero", ((6, 5),)))
    end(encounter, "hero", "alice")
    end(encounter, "ogre")
    events = encounter.apply(Move("alice", "hero", ((7, 5),)))
    assert "prompt_opened" in kinds(events)


def test_two_threateners_are_prompted_one_after_the_other_in_path_order() -> None:
    encounter = fight(
        token("ogre", 5, 5, init=1),
        token("troll", 7, 5, init=2),
        token("hero", 6, 5, owner="alice", init=9),
    )
    events = encounter.apply(Move("alice", "hero", ((6, 6), (6, 7), (6, 8))))
    first = next(e for e in events if isinstance(e, PromptOpened))
    events = encounter.apply(AnswerPrompt("gm", first.prompt, False))
    second = next(e for e in events if isinstance(e, PromptOpened))
    assert {first.attacker, second.attacker} == {"ogre", "troll"}
    events = encounter.apply(ExpirePrompt("system", second.prompt))
    assert kinds(events) == ["prompt_closed", "move_completed"]


def test_a_reach_2_threatener_prompts_two_squares_out() -> None:
    encounter = fight(
        token("giant", 5, 5, init=1, reach=2.0), token("hero", 7, 5, owner="alice", init=9)
    )
    events = encounter.apply(Move("alice", "hero", ((8, 5),)))
    assert "prompt_opened" in kinds(events)


# -- The Phase budget ---------------------------------------------------------------------


def test_two_move_actions_of_combat_movement_and_no_more() -> None:
    encounter = fight(
        token("hero", 0, 0, owner="alice", init=9, movement=3.0), token("ogre", 19, 19, init=1)
    )
    encounter.apply(Move("alice", "hero", ((1, 0), (2, 0), (3, 0), (4, 0))))
    assert encounter.options("hero", "alice").movement_left == 2.0
    before = encounter.state
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(Move("alice", "hero", ((5, 0), (6, 0), (7, 0))))
    assert refusal.value.code == "over_budget"
    assert encounter.state == before


# -- Refusals change nothing ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (Move("alice", "ogre", ((6, 5),)), "not_your_token"),  # a player moving the GM's creature
        (Move("alice", "hero", ((9, 9),)), "illegal_move"),  # not adjacent
        (Move("alice", "hero", ((5, 5),)), "illegal_move"),  # onto the ogre
        (Move("alice", "hero", ((-1, 5), (-2, 5))), "illegal_move"),  # off the grid
        (Move("alice", "ghost", ((1, 1),)), "unknown_token"),
        (EndPhase("alice", "ogre"), "not_your_token"),
        (EndPhase("gm", "ogre"), "not_your_turn"),
        (AnswerPrompt("gm", "p9", True), "unknown_prompt"),
        (ExpirePrompt("alice", "p1"), "gm_only"),
    ],
)
def test_refused_commands_change_nothing(command: object, code: str) -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    before, digest = encounter.state, encounter.state_hash()
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(command)  # type: ignore[arg-type]
    assert refusal.value.code == code
    assert encounter.state == before and encounter.state_hash() == digest


def test_a_paused_move_blocks_everything_but_the_answer() -> None:
    encounter = fight(token("ogre", 5, 5, init=1), token("hero", 4, 5, owner="alice", init=9))
    encounter.apply(Move("alice", "hero", ((3, 5), (2, 5))))
    options = encounter.options("hero", "alice")
    assert not options.can_act and options.reason is not None and "p1" in options.reason
    assert encounter.options("ogre", "gm").open_prompts == ("p1",)
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(AnswerPrompt("alice", "p1", True))
    assert refusal.value.code == "not_your_prompt"
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(Move("alice", "hero", ((3, 4),)))
    assert refusal.value.code == "prompt_pending"


def test_initiative_order_event_lists_scores() -> None:
    from engine import Encounter, GridSpec, LoadScene, Scene, StartCombat

    encounter = Encounter()
    encounter.apply(
        LoadScene("gm", Scene(GridSpec(9, 9), (token("a", 0, 0, init=3), token("b", 2, 2, init=7))))
    )
    events = encounter.apply(StartCombat("gm", "hero-supplement", 1))
    order = next(e for e in events if isinstance(e, InitiativeOrder))
    assert order.order == ("b", "a") and order.scores == (("b", 7), ("a", 3))


def test_the_unaware_make_no_attacks_of_opportunity_in_the_surprise_phase() -> None:
    encounter = fight(
        token("wolf", 10, 8, init=12), token("hero", 9, 9, owner="alice", init=14), aware=("wolf",)
    )
    events = encounter.apply(Move("gm", "wolf", ((11, 8),)))
    assert kinds(events) == ["move_started", "move_completed"]
    end(encounter, "wolf")
    # In Turn 1 the hero is no longer surprised: stepping away from it now provokes.
    end(encounter, "hero", "alice")
    events = encounter.apply(Move("gm", "wolf", ((10, 8),)))
    events = encounter.apply(Move("gm", "wolf", ((11, 8),)))
    assert "prompt_opened" in kinds(events)


# -- Initiative: the table's own dice for the tie-breaks --------------------------------------


def four_tied() -> Encounter:
    """a and b tied at INIT 10, c and d at INIT 20; the scene lists them a, b, c, d."""
    encounter = Encounter()
    tokens = (
        token("a", 0, 0, init=10),
        token("b", 5, 5, init=10),
        token("c", 9, 9, init=20),
        token("d", 3, 3, init=20),
    )
    encounter.apply(LoadScene("gm", Scene(GridSpec(20, 20), tokens)))
    return encounter


def tied(*rolls: int) -> tuple[Encounter, list[object]]:
    encounter = four_tied()
    return encounter, encounter.apply(StartCombat("gm", "hero-supplement", 5, None, rolls))


def test_the_tied_roll_the_tables_own_dice_highest_init_first() -> None:
    """ "the characters who are tied randomly determine which one of them goes before the
    other": a table that rolls its own dice supplies them, in the order they are rolled."""
    encounter, events = tied(1, 6, 4, 3)  # INIT 20: c 1, d 6; INIT 10: a 4, b 3
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert [(r.purpose, r.results, r.source) for r in rolls] == [
        ("initiative tie at INIT 20", (1, 6), "table"),
        ("initiative tie at INIT 10", (4, 3), "table"),
    ]
    assert encounter.state.combat is not None
    assert encounter.state.combat.order == ("d", "c", "a", "b")
    assert encounter.state.draws == 0  # nothing came from the seed


def test_a_tie_that_ties_again_rerolls_from_the_tables_dice_too() -> None:
    encounter, _ = tied(5, 5, 2, 6, 1, 2)  # c and d tie again: 2 and 6
    assert encounter.state.combat is not None
    assert encounter.state.combat.order == ("d", "c", "b", "a")


@pytest.mark.parametrize(
    ("rolls", "words"),
    [((1, 6, 4), "only 1 of the table's dice"), ((1, 6, 4, 3, 2), "1 of the table's dice were"),
     ((1, 7, 4, 3), "each 1..6")],
)  # fmt: skip
def test_the_tables_initiative_dice_must_be_exactly_the_rolls_made(
    rolls: tuple[int, ...], words: str
) -> None:
    encounter = four_tied()
    message = refused(encounter, StartCombat("gm", "hero-supplement", 5, None, rolls), "bad_rolls")
    assert words in message
