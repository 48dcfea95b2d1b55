"""Each game's own clock: the units a ruleset declares, and the words its events,
refusals and options say a moment in (Cyberpunk RED: 3 s Rounds of turns; M&M: 6 s
rounds of turns; the Hero supplement: 12 s Turns of four 3 s Phases)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    Encounter,
    EndPhase,
    GridSpec,
    LoadScene,
    Scene,
    SetEffect,
    StartCombat,
    options_for,
)
from engine.events import EffectStarted
from engine.rulesets import find_ruleset, registered
from engine.timewords import ROUNDS, Clock, TimeUnit, TimeWords
from tests.engine.cyberpunk_red.helpers import cpr
from tests.engine.helpers import refused, token
from tests.engine.mutants_masterminds.helpers import mm

HERO = find_ruleset("hero-supplement").time_words


def test_each_ruleset_declares_its_units_as_its_text_names_them() -> None:
    cyberpunk = find_ruleset("cyberpunk-red").time_words
    assert cyberpunk.units == (TimeUnit("round", "Round", 3),)  # "3-second Rounds"
    assert cyberpunk.action == "Turn"  # "Turn - one character's 3 seconds"
    mutants = find_ruleset("mm3e").time_words
    assert mutants.units == (TimeUnit("round", "Round", 6),)  # "about 6 seconds"
    assert (mutants.action, mutants.surprise) == ("Turn", "Surprise Round")
    hero = HERO
    # "Each Phase is 3 seconds long. 4 Phases make up 1 Turn of 12 seconds"; the
    # Powers' Segment is a Phase at this table.
    assert hero.units == (
        TimeUnit("turn", "Turn", 12),
        TimeUnit("phase", "Phase", 3, also=("Segment",)),
    )
    assert (hero.passes, hero.action, hero.surprise) == (4, "Phase", "Surprise Phase")


@pytest.mark.parametrize("ruleset", registered(), ids=lambda r: r.name)
def test_a_rulesets_passes_per_turn_are_what_its_units_say(ruleset: Any) -> None:
    words = ruleset.time_words
    assert ruleset.phases_per_turn == words.passes
    assert words.units[0].seconds == words.passes * words.units[-1].seconds


@pytest.mark.parametrize(
    ("words", "turn", "phase", "at", "label"),
    [
        (ROUNDS, 2, 1, {"round": 2}, "Round 2"),
        (ROUNDS, 1, 0, {"round": 0}, "Surprise Round"),  # the surprise pass
        (HERO, 1, 3, {"turn": 1, "phase": 3}, "Turn 1, Phase 3"),
        (HERO, 1, 0, {"turn": 1, "phase": 0}, "Surprise Phase"),  # before Turn 1, Phase 1
    ],
)
def test_a_moment_reads_in_the_games_units(
    words: TimeWords, turn: int, phase: int, at: dict[str, int], label: str
) -> None:
    assert words.reading(turn, phase) == Clock(at, label)


@pytest.mark.parametrize(
    "units",
    [
        (),  # no unit at all
        (TimeUnit("turn", "Turn", 10), TimeUnit("phase", "Phase", 3)),  # 10 s is not 3 s passes
        (TimeUnit("a", "A", 8), TimeUnit("b", "B", 4), TimeUnit("c", "C", 2)),  # three levels
    ],
)
def test_a_clock_that_cannot_be_walked_is_refused_when_declared(
    units: tuple[TimeUnit, ...],
) -> None:
    with pytest.raises(ValueError):
        TimeWords(units, surprise="Surprise", action="Turn")


def test_a_unit_named_like_the_label_is_refused() -> None:
    with pytest.raises(ValueError):
        TimeUnit("label", "Label", 3)


def _start(
    ruleset: str, *tokens: Any, aware: tuple[str, ...] | None = None
) -> tuple[Encounter, list[Any]]:
    cell = 2.0 if ruleset == "cyberpunk-red" else 1.0  # Cyberpunk RED's 2 m squares
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(20, 20, cell_size=cell), tuple(tokens))))
    return encounter, encounter.apply(StartCombat("gm", ruleset, 3, aware))


def _round_two(encounter: Encounter) -> list[Any]:
    """End every turn of Round 1: the events up to the first action of Round 2."""
    events: list[Any] = []
    while not any(e.kind == "pass_started" for e in events):
        combat = encounter.state.combat
        assert combat is not None
        events += encounter.apply(EndPhase("gm", combat.actor))
    return events


@pytest.mark.parametrize(
    ("ruleset", "tokens"),
    [
        ("cyberpunk-red", (cpr("gina", 1, 1), cpr("rex", 4, 4))),
        ("mm3e", (mm("gina", 1, 1), mm("rex", 4, 4))),
    ],
)
def test_a_round_game_says_rounds_on_its_events_refusals_and_options(
    ruleset: str, tokens: tuple[Any, ...]
) -> None:
    encounter, events = _start(ruleset, *tokens)
    started = next(e for e in events if e.kind == "pass_started")
    assert started.clock == Clock({"round": 1}, "Round 1") and not started.surprise
    acts = next(e for e in events if e.kind == "combatant_acts")
    assert acts.clock == Clock({"round": 1}, "Round 1")
    combat = encounter.state.combat
    assert combat is not None
    other = next(c for c in combat.order if c != combat.actor)
    message = refused(encounter, EndPhase("gm", other), "not_your_turn")
    assert message == f"it is {combat.actor!r}'s Turn (Round 1), not {other!r}'s"
    asked = options_for(encounter.state, other, "gm")
    assert asked.reason == message  # the refusal its command would get, in Rounds
    assert asked.clock == Clock({"round": 1}, "Round 1")
    later = _round_two(encounter)
    done = [e for e in later if e.kind == "combatant_done"]
    assert [e.clock.label for e in done] == ["Round 1", "Round 1"]
    (second,) = [e for e in later if e.kind == "pass_started"]
    assert second.clock == Clock({"round": 2}, "Round 2")


def test_mm_says_surprise_round_for_its_surprise_pass() -> None:
    _, events = _start("mm3e", mm("gina", 1, 1), mm("rex", 4, 4), aware=("gina",))
    started = next(e for e in events if e.kind == "pass_started")
    assert started.surprise and started.clock == Clock({"round": 0}, "Surprise Round")


def test_hero_says_turns_and_phases_on_its_events_refusals_and_options() -> None:
    encounter, events = _start(
        "hero-supplement", token("hero", 1, 1, init=14), token("ogre", 4, 4, init=12)
    )
    started = next(e for e in events if e.kind == "pass_started")
    assert started.clock == Clock({"turn": 1, "phase": 1}, "Turn 1, Phase 1")
    message = refused(encounter, EndPhase("gm", "ogre"), "not_your_turn")
    assert message == "it is 'hero''s Phase (Turn 1, Phase 1), not 'ogre''s"
    assert options_for(encounter.state, "ogre", "gm").reason == message
    later = _round_two(encounter)
    (second,) = [e for e in later if e.kind == "pass_started"]
    assert second.clock == Clock({"turn": 1, "phase": 2}, "Turn 1, Phase 2")


def test_an_effects_end_is_said_in_the_games_units() -> None:
    # M&M: an effect lasting 2 rounds, set in Round 1, ends in Round 3.
    encounter, _ = _start("mm3e", mm("gina", 1, 1), mm("rex", 4, 4))
    (started,) = encounter.apply(SetEffect("gm", "dazzled", "rex", 2))
    assert isinstance(started, EffectStarted)
    assert started.ends == Clock({"round": 3}, "Round 3")
