"""Cyberpunk RED through the engine's seam: commands in, events out, as a table plays it."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    Encounter,
    EndPhase,
    GridSpec,
    LoadScene,
    Move,
    Scene,
    StartCombat,
    TerrainSpec,
    from_plain,
    to_plain,
)
from engine.commands import Act, AnswerPrompt, JoinCombat, SetCondition
from engine.events import DiceRolled, PromptOpened
from engine.model import EncounterState
from engine.rulesets.cyberpunk_red.events import AttackRolled
from engine.rulesets.cyberpunk_red.state import Fighter
from tests.engine.cyberpunk_red.helpers import cpr, vehicle
from tests.engine.helpers import kinds, refused

SEED = 20261137  # Gina and the boss tie at 16; the reroll puts Gina first
POOL = TerrainSpec("water", ((20.0, 6.0), (32.0, 6.0), (32.0, 14.0), (20.0, 14.0)))  # rows 3..6


def street() -> Scene:
    """A 16 x 10 grid of 2 m squares: a pool in the east (columns 10-15, rows 3-6), a car
    by Rex."""
    return Scene(
        GridSpec(16, 10, cell_size=2.0),
        (
            cpr("gina", 2, 4, ref=8, move=4, weapon__pistol=2, weapon__rifle=1,
                hand__right="pistol"),
            cpr("rex", 2, 6, ref=6, move=5, weapon__rifle=1, hand__right="rifle"),
            cpr("boss", 9, 6, ref=8, move=4, weapon__smg=1, hand__right="smg"),
            cpr("goon", 13, 2, ref=3, move=3, weapon__knife=2, melee__knife=True,
                hand__right="knife"),
            vehicle("car", 3, 7),
        ),
        (),
        (POOL,),
    )  # fmt: skip


def started(seed: int = SEED) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", street()))
    encounter.apply(StartCombat("gm", "cyberpunk-red", seed))
    return encounter


def act(encounter: Encounter, token: str, name: str, /, **params: Any) -> list[Any]:
    return encounter.apply(Act("gm", token, name, params))


def actor(encounter: Encounter) -> str:
    combat = encounter.state.combat
    assert combat is not None
    return combat.actor


def done(encounter: Encounter) -> list[Any]:
    return encounter.apply(EndPhase("gm", actor(encounter)))


def fighter(encounter: Encounter, cid: str) -> Fighter:
    combat = encounter.state.combat
    assert combat is not None
    state = combat.state_of(cid)
    assert isinstance(state, Fighter)
    return state


def test_the_queue_rerolls_the_tie_and_leaves_vehicles_out() -> None:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", street()))
    events = encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    rolls = [e.purpose for e in events if e.kind == "dice_rolled"]
    assert rolls[-2:] == [
        "initiative reroll, tie at 16: gina REF 8 + d10",
        "initiative reroll, tie at 16: boss REF 8 + d10",
    ]
    combat = encounter.state.combat
    assert combat is not None
    assert combat.order == ("gina", "boss", "rex", "goon")  # no car
    assert dict(combat.scores)["gina"] == dict(combat.scores)["boss"] == 16


def test_move_shoot_move_shoot_through_the_engine() -> None:
    encounter = started()
    encounter.apply(Move("gm", "gina", ((3, 4), (4, 4))))  # 4 m: "run halfway"
    first = act(encounter, "gina", "attack", target="boss", weapon="pistol", base=12)
    encounter.apply(Move("gm", "gina", ((5, 4),)))
    second = act(encounter, "gina", "attack", target="boss", weapon="pistol", base=12)
    assert [e.number for e in first + second if e.kind == "cpr_attack"] == [1, 2]
    encounter.apply(Move("gm", "gina", ((6, 4),)))
    refused(encounter, Move("gm", "gina", ((7, 4),)), "over_budget")  # MOVE 4: 4 squares
    refused(encounter, Act("gm", "gina", "attack", {"target": "boss", "weapon": "pistol"}),
            "illegal_action")  # fmt: skip


def test_never_two_rof_1_weapons_with_one_action() -> None:
    encounter = started()
    act(encounter, "gina", "take_weapon", weapon="rifle")
    act(encounter, "gina", "holster", hand="right")  # holstering is an Action...
    refused(encounter, Act("gm", "gina", "attack", {"target": "boss", "weapon": "rifle"}),
            "illegal_action")  # ...so the rifle cannot fire this turn  # fmt: skip


def test_run_gives_a_second_move_action() -> None:
    encounter = started()
    refused(encounter, Act("gm", "gina", "run", {}), "illegal_action")
    encounter.apply(Move("gm", "gina", ((3, 3), (4, 2), (5, 2), (6, 2))))
    act(encounter, "gina", "run")
    encounter.apply(Move("gm", "gina", ((7, 2), (8, 2), (9, 2), (10, 2))))
    assert encounter.options("gina").movement_left == 0.0


def test_swimming_costs_2_m_per_1_m() -> None:
    encounter = started()
    done(encounter)  # Gina
    done(encounter)  # the boss
    done(encounter)  # Rex
    # The goon (MOVE 3: 6 m) swims into the pool: two squares of water are 8 m.
    refused(encounter, Move("gm", "goon", ((13, 3), (13, 4))), "over_budget")
    events = encounter.apply(Move("gm", "goon", ((13, 3),)))
    assert events[-1].kind == "move_completed" and events[-1].cost == 4.0
    refused(encounter, Move("gm", "goon", ((13, 4),)), "over_budget")  # 4 m, 2 m left


def test_the_table_can_say_a_move_is_a_swim_or_a_climb_without_terrain() -> None:
    encounter = started()
    events = encounter.apply(Move("gm", "gina", ((3, 4), (4, 4)), "climb"))  # 4 m at 2 per 1
    assert events[-1].cost == 8.0 and encounter.options("gina").movement_left == 0.0


def test_a_prone_character_moves_only_after_get_up() -> None:
    encounter = started()
    encounter.apply(SetCondition("gm", "gina", "prone", True))
    message = refused(encounter, Move("gm", "gina", ((3, 4),)), "illegal_action")
    assert "Get Up" in message
    events = act(encounter, "gina", "get_up")
    assert kinds(events) == ["cpr_action", "condition_changed"]
    combat = encounter.state.combat
    assert combat is not None and not combat.has("gina", "prone")
    encounter.apply(Move("gm", "gina", ((3, 4),)))


def test_mortally_wounded_lowers_move_by_what_the_table_sets() -> None:
    encounter = started()
    encounter.apply(SetCondition("gm", "gina", "mortally_wounded", True))
    assert encounter.options("gina").movement_left == 2.0  # MOVE 4 - 6, at least 1: 2 m
    act(encounter, "gina", "move_penalties", mortally_wounded_move=2, mortally_wounded_floor=0)
    assert encounter.options("gina").movement_left == 4.0


def test_a_driver_who_starts_a_vehicle_moves_to_the_front() -> None:
    encounter = started()
    done(encounter)  # Gina
    done(encounter)  # the boss
    act(encounter, "rex", "board_vehicle", vehicle="car", driver=True)
    done(encounter)
    done(encounter)  # the goon: Round 2
    combat = encounter.state.combat
    assert combat is not None and combat.turn == 2 and actor(encounter) == "gina"
    done(encounter)
    done(encounter)
    events = act(encounter, "rex", "start_vehicle")
    assert "cpr_queue_changed" in kinds(events)
    combat = encounter.state.combat
    assert combat is not None and combat.order == ("rex", "gina", "boss", "goon")
    events = done(encounter)  # Gina and the boss have had their turns: the goon is next
    assert actor(encounter) == "goon"
    assert [e.combatant for e in events if e.kind == "combatant_skipped"] == ["gina", "boss"]
    done(encounter)
    assert actor(encounter) == "rex"  # Round 3 starts from the top: the driver


def test_a_newcomer_rolls_and_takes_its_place() -> None:
    encounter = started()
    events = encounter.apply(JoinCombat("gm", cpr("nix", 8, 8, ref=5)))
    joined = next(e for e in events if e.kind == "combatant_joined")
    roll = next(e for e in events if e.kind == "dice_rolled")
    assert roll.purpose == "initiative (joins): nix REF 5 + d10"
    assert joined.score == 5 + roll.results[0]
    combat = encounter.state.combat
    assert combat is not None
    scores = [s for _, s in combat.scores]
    assert scores == sorted(scores, reverse=True)


def test_a_vehicle_cannot_join_the_queue() -> None:
    encounter = started()
    refused(encounter, JoinCombat("gm", vehicle("van", 8, 8)), "bad_scene")


def test_a_hold_after_someones_turn_fires_when_that_turn_ends() -> None:
    encounter = started()
    act(encounter, "gina", "hold_action", action="attack", trigger="after_turn", token="boss",
        params={"target": "boss", "weapon": "pistol"})  # fmt: skip
    done(encounter)
    events = done(encounter)  # the boss's turn ends: Gina's shot, before Rex acts
    fired = kinds(events)
    assert fired.index("cpr_held_fired") < fired.index("cpr_attack") < fired.index("combatant_acts")
    attack = next(e for e in events if e.kind == "cpr_attack")
    assert attack.held and attack.attacker == "gina"


def test_a_hold_fires_when_a_token_enters_the_area_interrupting_its_move() -> None:
    encounter = started()
    done(encounter)  # Gina
    done(encounter)  # the boss
    shoot = {"target": "goon", "weapon": "rifle", "base": 11}
    act(encounter, "rex", "hold_action", action="attack", trigger="enters",
        area=[[11, 2], [11, 3]], params=shoot)  # fmt: skip
    done(encounter)
    events = encounter.apply(Move("gm", "goon", ((12, 2), (11, 2), (10, 2))))
    assert kinds(events)[-2:] == ["move_interrupted", "prompt_opened"]
    prompt = events[-1]
    events = encounter.apply(AnswerPrompt("gm", prompt.prompt, True))
    assert kinds(events)[-3:] == ["cpr_held_fired", "dice_rolled", "cpr_attack"]
    refused(encounter, Move("gm", "rex", ((3, 6),)), "illegal_action")  # only the held shot
    events = done(encounter)  # Rex's interruption is over: the goon's move goes on
    assert events[-1].kind == "move_completed" and events[-1].at == (10, 2)


def test_the_held_shot_may_take_the_tables_d10_with_the_answer() -> None:
    encounter = started()
    done(encounter)  # Gina
    done(encounter)  # the boss
    shoot = {"target": "goon", "weapon": "rifle", "base": 11}
    act(encounter, "rex", "hold_action", action="attack", trigger="enters",
        area=[[11, 2], [11, 3]], params=shoot)  # fmt: skip
    done(encounter)
    opened = encounter.apply(Move("gm", "goon", ((12, 2), (11, 2), (10, 2))))[-1]
    assert isinstance(opened, PromptOpened)
    prompt = opened.prompt
    # One d10 is rolled: two are one too many, and a declined prompt rolls none.
    refused(encounter, AnswerPrompt("gm", prompt, True, (4, 4)), "bad_rolls")
    refused(encounter, AnswerPrompt("gm", prompt, False, (4,)), "bad_rolls")
    events = encounter.apply(AnswerPrompt("gm", prompt, True, (4,)))
    die, attack = events[-2:]
    assert isinstance(die, DiceRolled) and (die.results, die.source) == ((4,), "table")
    assert isinstance(attack, AttackRolled) and attack.total == 4 + 11


def test_a_hold_not_fired_by_the_end_of_the_round_is_lost() -> None:
    encounter = started()
    act(encounter, "gina", "hold_action", action="attack", trigger="enters", area=[[0, 0]],
        params={"target": "boss", "weapon": "pistol"})  # fmt: skip
    events = []
    for _ in range(4):
        events = done(encounter)
    assert ("cpr_held_lost", "gina") in [(e.kind, getattr(e, "holder", None)) for e in events]
    combat = encounter.state.combat
    assert combat is not None and combat.triggers == () and combat.turn == 2


def test_options_say_what_a_cyberpunk_red_combatant_may_do_and_why_not() -> None:
    encounter = started()
    options = encounter.options("gina")
    assert options.can_act and options.movement_left == 8.0
    assert {"walk", "swim", "attack", "take_weapon", "end_phase"} <= set(options.available)
    refused_ = dict(options.refused)
    assert "move first" in refused_["run"]
    assert refused_["get_up"] == "not prone"
    assert "move_penalties" not in options.available  # the GM's tool
    assert "move_penalties" not in refused_
    waiting = encounter.options("rex")
    assert not waiting.can_act and waiting.reason is not None


@pytest.mark.parametrize("steps", [0, 3, 6])
def test_the_state_survives_a_snapshot(steps: int) -> None:
    encounter = started()
    act(encounter, "gina", "hold_action", action="attack", trigger="in_sight", token="goon",
        params={"target": "goon", "weapon": "pistol"})  # fmt: skip
    for _ in range(steps):
        done(encounter)
    state = encounter.state
    assert from_plain(EncounterState, to_plain(state)) == state


def test_a_declined_prompt_lets_the_moment_pass_and_the_hold_waits() -> None:
    encounter = started()
    done(encounter)  # Gina
    done(encounter)  # the boss
    shoot = {"target": "goon", "weapon": "rifle"}
    act(encounter, "rex", "hold_action", action="attack", trigger="enters",
        area=[[11, 2], [11, 3]], params=shoot)  # fmt: skip
    done(encounter)
    events = encounter.apply(Move("gm", "goon", ((12, 2), (11, 2), (10, 2))))
    events = encounter.apply(AnswerPrompt("gm", events[-1].prompt, False))
    assert events[-1].kind == "move_completed" and "cpr_attack" not in kinds(events)
    combat = encounter.state.combat
    assert combat is not None and [t.owner for t in combat.triggers] == ["rex"]


def test_a_hold_fires_when_its_target_comes_into_sight() -> None:
    from engine import WallSpec

    # A hanging tarp: it hides the goon from Gina but does not stop anyone.
    wall = WallSpec("tarp", (22.0, 0.0), (22.0, 8.0), blocks_move=False)
    scene = street()
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(scene.grid, scene.tokens, (wall,), scene.terrain)))
    encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    act(encounter, "gina", "hold_action", action="attack", trigger="in_sight", token="goon",
        params={"target": "goon", "weapon": "pistol"})  # fmt: skip
    done(encounter)
    done(encounter)
    done(encounter)
    events = encounter.apply(Move("gm", "goon", ((12, 2), (11, 2), (10, 2))))  # "leans out"
    assert kinds(events)[-2:] == ["move_interrupted", "prompt_opened"]
    assert events[-2].at == (10, 2)  # the engine pauses on the first square in view
    events = encounter.apply(AnswerPrompt("gm", events[-1].prompt, True))
    assert kinds(events)[-1] == "cpr_attack" and events[-1].held
    fired = next(e for e in events if e.kind == "cpr_held_fired")
    assert fired.at == (10, 2)  # the shot is at the square where the goon comes into view


def test_the_table_may_roll_initiative_itself_ties_included() -> None:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", street()))
    # Gina 8+3, Rex 6+9, the boss 8+7, the goon 3+1: Rex and the boss tie at 15 and
    # reroll (Rex 6+2, the boss 8+1): the boss goes first.
    events = encounter.apply(StartCombat("gm", "cyberpunk-red", SEED, rolls=(3, 9, 7, 1, 2, 1)))
    assert all(e.source == "table" for e in events if e.kind == "dice_rolled")
    combat = encounter.state.combat
    assert combat is not None and combat.order == ("boss", "rex", "gina", "goon")
    refused(Encounter(), StartCombat("gm", "cyberpunk-red", SEED, rolls=(3, 9, 7, 1)), "no_scene")
    short = Encounter()
    short.apply(LoadScene("gm", street()))
    refused(short, StartCombat("gm", "cyberpunk-red", SEED, rolls=(3, 9, 7, 1)), "bad_rolls")
