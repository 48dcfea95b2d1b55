"""Each ruleset's description: derived from its declarations, and its words cannot drift.

Every event kind a ruleset can emit (the core's and its own) has a template, and every
template names only fields of its event; every prompt's question names only a prompt's
fields; the stats a description says a token needs are the ones ``check_combatant``
refuses a token without.  The recorded sessions' events all read in words.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import pytest

import tests.toy_ruleset  # noqa: F401  (the seam's test game is described too)
from engine import CommandRejected
from engine.describe import catalogue, describe, emitted, templates
from engine.model import Combatant
from engine.rulesets.base import find_ruleset, registered
from engine.templates import FORMATS, placeholders, problems, render
from engine.words import CORE_TRIGGERS, PROMPT_FIELDS
from tests.clients.word_vectors import RECORDED, RECORDINGS, recorded_events

RULESETS = [type(r).name for r in registered()]


@pytest.mark.parametrize("name", RULESETS)
def test_every_event_kind_has_a_template_naming_only_its_fields(name: str) -> None:
    ruleset = find_ruleset(name)
    kinds, words = emitted(ruleset), templates(ruleset)
    assert sorted(kinds) == sorted(words), "a template per kind, and none for another kind"
    bad = {kind: problems(words[kind], fields) for kind, fields in kinds.items()}
    assert not {k: p for k, p in bad.items() if p}


@pytest.mark.parametrize("name", RULESETS)
def test_every_prompt_question_names_only_a_prompts_fields(name: str) -> None:
    prompts = describe(name).prompts
    kinds = [p.kind for p in prompts]
    assert len(kinds) == len(set(kinds)), "a prompt kind is worded once"
    for prompt in prompts:
        assert not problems(prompt.question, PROMPT_FIELDS), prompt.kind
        assert prompt.accept and prompt.decline and prompt.accept != prompt.decline


@pytest.mark.parametrize("name", RULESETS)
def test_the_description_is_read_from_the_declarations(name: str) -> None:
    ruleset = type(find_ruleset(name))
    described = describe(name)
    assert (described.name, described.title) == (ruleset.name, ruleset.title)
    assert [a.name for a in described.actions] == list(ruleset.actions)
    assert [a.when for a in described.actions] == [s.when for s in ruleset.actions.values()]
    assert described.move_modes == tuple(ruleset.move_modes)
    assert described.conditions == tuple(ruleset.vocabulary.conditions)
    assert described.time == ruleset.time_words  # the clock's words are the seam's own
    assert (name, ruleset.title) in catalogue()


def test_the_toy_actions_say_what_they_ask_for() -> None:
    actions = {a.name: a for a in describe("toy-duel").actions}
    zap = actions["zap"]
    assert (zap.target, zap.area, zap.dice, zap.choices) == (True, False, ("rolls",), True)
    power = {p.name: p for p in zap.params}["power"]
    assert (power.type, power.min, power.max, power.default, power.required) == (
        "integer", 1, 3, 1, False,
    )  # fmt: skip
    ambush = actions["ambush"]
    on = {p.name: p for p in ambush.params}["on"]
    assert (ambush.area, on.type, on.choices) == (True, "choice", ("action", "enter", "sight"))
    assert actions["guard"].params == () and actions["daze"].when == "gm"


def test_hero_abort_is_a_reaction_and_its_maneuver_a_map() -> None:
    actions = {a.name: a for a in describe("hero-supplement").actions}
    assert actions["abort"].when == "any"
    maneuver = {p.name: p for p in actions["abort"].params}["maneuver"]
    assert maneuver.type == "map" and maneuver.nullable and maneuver.fields


@pytest.mark.parametrize("name", RULESETS)
def test_the_stats_described_are_those_the_fight_checks(name: str) -> None:
    ruleset = find_ruleset(name)
    stats = [s for s in describe(name).stats if "<" not in s.name]
    sample: dict[str, Any] = {"integer": 3, "number": 2.5, "flag": False}
    required = {s.name: sample[s.type] for s in stats if s.required}
    ruleset.check_combatant(_token(required))  # every required stat there: accepted
    for missing in required:
        with pytest.raises(CommandRejected) as refused:
            ruleset.check_combatant(_token({k: v for k, v in required.items() if k != missing}))
        assert refused.value.code == "bad_scene", missing
    for stat in stats:
        if stat.type in ("integer", "flag") and stat.name != "vehicle":
            with pytest.raises(CommandRejected):  # a declared stat is checked
                ruleset.check_combatant(_token({**required, stat.name: "x"}))


@pytest.mark.parametrize("name", RULESETS)
def test_trigger_words_name_what_sets_them_off(name: str) -> None:
    triggers = describe(name).triggers
    assert all(t.name and t.doc for t in triggers)
    if name == "toy-duel":  # the toy's held zap names the core's kinds themselves
        assert tuple(t.name for t in triggers) == CORE_TRIGGERS


def _token(stats: dict[str, Any]) -> Combatant:
    return Combatant("t", "T", "gm", "a", 0, 0, movement=6.0, stats=tuple(sorted(stats.items())))


# -- the template language -------------------------------------------------------------------


def test_hero_attack_roll_reads_with_its_arithmetic() -> None:
    # The example: dice [2, 1, 5], OCV 5 against DCV 4.
    data = {
        "attacker": "ogre", "target": "hero", "attack": "strike", "dice": [2, 1, 5],
        "ocv": 5, "dcv": 4, "total": 13, "target_number": 14, "hit": False,
    }  # fmt: skip
    names = {"ogre": "Ogre", "hero": "Hero"}
    template = templates(find_ruleset("hero-supplement"))["attack_rolled"]
    line = render(template, data, names.__getitem__)
    assert (
        line == "Ogre attacks Hero (strike): 3d6 8 (2, 1, 5) + OCV 5 = 13 vs 10 + DCV 4 = 14: miss"
    )


def test_optional_parts_choices_and_formats() -> None:
    template = "{a:token} holds[ until {b:token}][ over {area:count} cells]: {hit?hit|miss}"
    assert render(template, {"a": "x", "b": None, "area": [], "hit": True}) == "x holds: hit"
    assert (
        render(template, {"a": "x", "b": "y", "area": [[1, 2]], "hit": False}, str.upper)
        == "X holds until Y over 1 cells: miss"
    )
    assert render("{n:signed} {m:signed} {c:cell} {p:change} {w:word}", {
        "n": 3, "m": -1, "c": [4, 5], "p": [2, 7], "w": "flat_footed",
    }) == "+3 -1 (4, 5) 2 -> 7 flat footed"  # fmt: skip
    assert render("{x} {y} {z} {f}", {"x": None, "y": True, "z": [1, 2], "f": 1.5}) == (
        "none yes 1, 2 1.5"
    )


def test_a_bad_template_is_named() -> None:
    fields = {"a": "str"}
    assert problems("{a} and {b}", fields) == ["{b} is no field of the event (a)"]
    assert problems("{a:loud}", fields) == ["{a:loud}: unknown format"]
    assert problems("{a} ]", fields) and problems("[x [{a}]]", fields)
    assert not problems("[ {a}]{a?y|n}", fields)
    assert [p.format for p in placeholders("{a:sum}{a}")] == ["sum", ""]
    assert set(FORMATS) >= {"token", "sum", "signed"}


@pytest.mark.parametrize("stem", sorted(RECORDED))
def test_every_recorded_event_reads_in_words(stem: str) -> None:
    words = templates(find_ruleset(RECORDED[stem]))
    events = list(recorded_events((RECORDINGS / f"{stem}.jsonl").read_text(encoding="utf-8")))
    assert events
    for event in events:
        line = render(words[event["kind"]], event["data"])
        assert line and not any(mark in line for mark in "{}[]"), (event, line)


@pytest.mark.parametrize("name", [n for n in RULESETS if n != "toy-duel"])
def test_every_prompt_kind_a_ruleset_opens_is_worded(name: str) -> None:
    # Read off the ruleset's own source: the kind each ``open_prompt`` call names.
    ruleset = find_ruleset(name)
    # Its folder, engine/rulesets/<game>/, whichever of its modules declares the class.
    package = importlib.import_module(".".join(type(ruleset).__module__.split(".")[:3]))
    opened = set()
    for path in Path(package.__file__ or "").parent.rglob("*.py"):
        parts = path.relative_to(Path(engine_root()).parent).with_suffix("").parts
        # A package's own module is the package (never import "...__init__" twice over).
        module = importlib.import_module(".".join(p for p in parts if p != "__init__"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open_prompt":
                kind = node.args[1]
                if isinstance(kind, ast.Constant):
                    opened.add(kind.value)
                elif isinstance(kind, ast.Name):
                    opened.add(getattr(module, kind.id))
    worded = {p.kind for p in describe(name).prompts}
    assert opened <= worded, opened - worded
    if name == "hero-supplement":  # the check sees the delay prompt Hero opens itself
        assert "delayed_action" in opened


def engine_root() -> str:
    """The ``engine`` package's folder."""
    import engine

    return str(Path(engine.__file__).parent)
