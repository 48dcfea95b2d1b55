"""A table with Powers from rules version 3 (before the text's Adder reading) replays as
it played: its logged ``power_options`` keeps the ``adder_end`` it had, its snapshot
reads with the fields added since at what those tables played."""

from __future__ import annotations

import json
from typing import Any

from engine import EncounterState, from_plain, to_plain
from engine.commands import Act
from engine.encounter import Encounter
from engine.rulesets.hero.state import hero
from engine.versions import upgrade_command, upgrade_state
from protocol.versions import upgrade_events
from tests.engine.helpers import fight, token
from vtt_bridge import event_upgrades as _event_upgrades  # registers the event steps
from vtt_bridge.translate import command_from_plain, command_to_plain

FLIGHT = {"kind": "movement", "base_points": 40, "adders": [{"name": "x8 Noncombat", "points": 10}]}


def flyer() -> Encounter:
    stats: dict[str, Any] = {"end": 30, "stun": 20, "power:Flight": json.dumps(FLIGHT)}
    return fight(token("kas", 0, 0, owner="bob", init=15, extra=stats), token("ogre", 5, 5))


def fly(encounter: Encounter) -> int:
    events = encounter.apply(
        Act("bob", "kas", "use_power", {"power": "Flight", "adders": [], "object": "sky"})
    )
    return int(events[-1].end)


def test_a_version_3_power_options_keeps_the_adder_end_it_played_under() -> None:
    logged = command_to_plain(Act("gm", "kas", "power_options", {"casual_use": True}))
    old, today = flyer(), flyer()
    old.apply(command_from_plain(upgrade_command(logged, 3)))
    today.apply(command_from_plain(upgrade_command(logged, 4)))
    assert (fly(old), fly(today)) == (4, 5)  # END on the Adders used, as then; the text's
    named = command_to_plain(Act("gm", "kas", "power_options", {"adder_end": "all"}))
    assert upgrade_command(named, 3) == named  # a table that chose keeps its choice


def test_a_version_3_snapshot_reads_with_what_it_stored() -> None:
    encounter = flyer()
    plain = json.loads(json.dumps(to_plain(encounter.state)))
    options = plain["combat"]["rules"]["power_options"]
    del options["toggle_freely"]  # as version 3 stored it: no such field, Adders "used"
    options["adder_end"] = "used"
    state = from_plain(EncounterState, upgrade_state(plain, 3))
    assert state.combat is not None
    read = hero(state.combat).power_options
    assert (read.adder_end, read.toggle_freely) == ("used", False)
    assert fly(Encounter(state)) == 4


def test_events_logged_before_wire_version_5_gain_the_new_fields() -> None:
    assert _event_upgrades is not None
    used = {"kind": "power_used", "data": {"power": "Blast", "end": 5}}
    options = {"kind": "power_options_set", "data": {"casual_use": True, "adder_end": "used"}}
    up = upgrade_events([used, options], {}, 4)
    assert up[0]["data"] == {"power": "Blast", "end": 5, "advantages": [], "limitations": []}
    assert up[1]["data"]["toggle_freely"] is False
