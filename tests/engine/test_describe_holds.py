"""Each ruleset's held actions in its description: named by its own declarations, every
path checked against the classes it reads, so a client follows any game's holds (and the
toy's, which no client names) from the description alone.  That the paths read the
right values is the JavaScript client's recordings test: its fold of every recorded
session, holds and all, matches the bridge's state at every step."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import tests.toy_ruleset  # noqa: F401  (registers the toy duel)
from engine.describe import describe, describe_holds, emitted
from engine.rulesets.base import find_ruleset, registered
from engine.words import HoldFields
from tests.toy_ruleset import ToyDuel

HOLDING = [type(r).name for r in registered() if type(r).wording.holds is not None]


def test_the_games_with_held_actions_describe_them() -> None:
    assert {"hero-supplement", "cyberpunk-red", "toy-duel"} <= set(HOLDING)
    assert describe("mm3e").holds is None  # M&M 3e has no held actions


@pytest.mark.parametrize("name", HOLDING)
def test_the_hold_events_are_the_rulesets_own_and_name_the_holder(name: str) -> None:
    holds = describe(name).holds
    assert holds is not None
    fields = emitted(find_ruleset(name))
    for kind in (holds.declared, *([holds.fired] if holds.fired else []), *holds.dropped):
        assert holds.event.holder in fields[kind], (kind, holds.event.holder)


def test_hero_delays_and_readied_actions() -> None:
    holds = describe("hero-supplement").holds
    assert holds is not None
    assert (holds.declared, holds.fired, holds.dropped) == (
        "hold_declared",
        "readied_action_taken",
        ("hold_lapsed", "delay_taken"),
    )
    # The event names the kind ``hold``, the state's entry ``kind``.
    assert (holds.event.kind, holds.entry.kind, holds.listed) == ("hold", "kind", "rules.holds")


def test_cyberpunk_red_reads_its_trigger_inside_the_states_entry() -> None:
    holds = describe("cyberpunk-red").holds
    assert holds is not None
    assert (holds.event.trigger, holds.event.trigger_by, holds.event.area) == (
        "trigger",
        "token",
        "area",
    )
    assert (holds.entry.trigger, holds.entry.trigger_by, holds.entry.area) == (
        "trigger.kind",
        "trigger.token",
        "trigger.area",
    )
    assert holds.kind == "hold"


def test_the_toys_holds_are_the_cores_triggers() -> None:
    holds = describe("toy-duel").holds
    assert holds is not None
    assert (holds.listed, holds.entry.holder, holds.kind) == ("triggers", "owner", "ambush")


@pytest.mark.parametrize(
    ("change", "named"),
    [
        # A field the declaring event does not have.
        ({"event": HoldFields("combatant", trigger="when")}, "'when'"),
        # A nested path that does not go on (``on`` is a word, not a record).
        ({"entry": HoldFields("owner", trigger="on.kind")}, "'on.kind'"),
        # A list the state does not have.
        ({"listed": "rules.ambushes"}, "'ambushes'"),
    ],
)
def test_a_path_no_class_has_is_named(change: dict[str, Any], named: str) -> None:
    holds = ToyDuel.wording.holds
    assert holds is not None
    wording = dataclasses.replace(ToyDuel.wording, holds=dataclasses.replace(holds, **change))
    broken = type("BrokenToy", (ToyDuel,), {"wording": wording})  # not registered
    with pytest.raises(ValueError, match=named):
        describe_holds(broken)
