"""Powers as Hero actions through the engine (seed 002): END from the fight's vitals,
the Phase's budget, a Segment as a Phase, ask_options listing the Powers."""

from __future__ import annotations

import json
from typing import Any

from engine import EndPhase
from engine.commands import Act, SetCondition
from engine.encounter import Encounter
from engine.rulesets.hero.state import hero
from tests.engine.helpers import fight, kinds, refused, token

FIRE_BLAST = {"kind": "attack", "effect": "killing", "dice": "2d6", "points_per_die": 15}
SLOW_ARMOUR = {
    "kind": "defence", "base_points": 20, "duration": "constant",
    "limitations": [{"name": "Extra Time", "value": -0.5}],
}  # fmt: skip


def wizard(end: int = 30, **powers: dict[str, Any]) -> Any:
    stats: dict[str, Any] = {"end": end, "stun": 20, "rec": 5, "STR": 10}
    stats.update({f"power:{name}": json.dumps(spec) for name, spec in powers.items()})
    return token("kas", 0, 0, owner="bob", init=15, extra=stats)


def duel(**kw: Any) -> Encounter:
    encounter = fight(wizard(**kw), token("ogre", 5, 5, init=5, extra={"end": 20, "stun": 20}))
    encounter.apply(Act("gm", "kas", "power_options", {"casual_use": True}))
    return encounter


def use(encounter: Encounter, **params: Any) -> list[Any]:
    return encounter.apply(Act("bob", "kas", "use_power", params))


def end_of(encounter: Encounter, cid: str = "kas") -> int:
    combat = encounter.state.combat
    assert combat is not None
    vitals = hero(combat).vitals_of(cid)
    assert vitals is not None
    return vitals.end


def test_casual_use_takes_no_time_and_a_full_attack_ends_the_phase() -> None:
    encounter = duel(**{"Fire Blast": FIRE_BLAST})
    encounter.apply(SetCondition("gm", "kas", "entangled", True))  # what a Casual escape needs
    events = use(encounter, power="Fire Blast", casual=True, object="entangle", escape=True)
    assert kinds(events)[-1] == "power_used" and end_of(encounter) == 29
    assert encounter.state.combat is not None and encounter.state.combat.actor == "kas"
    events = use(encounter, power="Fire Blast", target="ogre")
    assert "combatant_done" in kinds(events) and end_of(encounter) == 26
    assert encounter.state.combat.actor == "ogre"


def test_a_segment_is_a_phase_at_this_table() -> None:
    encounter = duel(**{"Fire Blast": FIRE_BLAST})
    use(encounter, power="Fire Blast", casual=True, object="door")
    message = refused(
        encounter,
        Act("bob", "kas", "use_power", {"power": "STR", "casual": True, "object": "crate"}),
        "illegal_action",
    )
    assert "this Segment (a Phase at this table)" in message
    encounter.apply(EndPhase("bob", "kas"))
    encounter.apply(EndPhase("gm", "ogre"))  # Phase 2: a new Segment
    assert kinds(use(encounter, power="STR", casual=True, object="crate"))[-1] == "power_used"


def test_without_end_the_power_is_refused_and_nothing_changes() -> None:
    encounter = duel(end=2, **{"Fire Blast": FIRE_BLAST})
    message = refused(
        encounter, Act("bob", "kas", "use_power", {"power": "Fire Blast"}), "over_budget"
    )
    assert message == "Fire Blast at 2d6 costs 3 END; has 2"


def test_only_the_gm_lifts_a_rule() -> None:
    encounter = duel(**{"Fire Blast": FIRE_BLAST})
    params = {"power": "Fire Blast", "target": "kas", "gm_allows": True}
    refused(encounter, Act("bob", "kas", "use_power", params), "gm_only")
    assert kinds(encounter.apply(Act("gm", "kas", "use_power", params)))[-1] == "combatant_acts"


def test_extra_time_activation_takes_the_full_phase() -> None:
    encounter = duel(**{"Fire Blast": FIRE_BLAST, "Slow Armour": SLOW_ARMOUR})
    events = encounter.apply(Act("bob", "kas", "power_on", {"power": "Slow Armour"}))
    assert events[-1].time == "full_phase" and events[-1].end == 2
    refused(encounter, Act("bob", "kas", "use_power", {"power": "Fire Blast"}), "over_budget")


def test_ask_options_lists_the_powers_and_why_not() -> None:
    encounter = duel(end=3, **{"Fire Blast": FIRE_BLAST, "Slow Armour": SLOW_ARMOUR})
    opts = encounter.options("kas")
    assert {"use_power", "use_power:Fire Blast", "use_power:STR"} <= set(opts.available)
    assert "power_on:Slow Armour" in opts.available
    use(encounter, power="Fire Blast")  # 3 END: none left, and the Phase is over
    encounter.apply(EndPhase("gm", "ogre"))
    refusals = dict(encounter.options("kas").refused)
    assert refusals["use_power:Fire Blast"] == "Fire Blast at 2d6 costs 3 END; has 0"
    assert refusals["power_on:Slow Armour"] == "Slow Armour costs 2 END; has 0"


def test_a_bad_power_on_a_token_is_a_bad_scene() -> None:
    from engine import GridSpec, LoadScene, Scene, StartCombat

    encounter = Encounter()
    bad = token("kas", 0, 0, extra={"power:Zap": json.dumps({"kind": "zap"})})
    encounter.apply(LoadScene("gm", Scene(GridSpec(5, 5), (bad,))))
    message = refused(encounter, StartCombat("gm", "hero-supplement", 1, None), "bad_scene")
    assert "power:Zap" in message


def test_casual_use_may_come_during_anothers_action_and_counts_in_that_segment() -> None:
    encounter = duel(**{"Fire Blast": FIRE_BLAST})
    encounter.apply(EndPhase("bob", "kas"))  # the ogre's action now
    refused(encounter, Act("bob", "kas", "use_power", {"power": "STR"}), "not_your_turn")
    assert "use_power:STR" in encounter.options("kas").available  # Casually
    encounter.apply(SetCondition("gm", "kas", "grabbed", True))
    use(encounter, power="STR", casual=True, object="crate", escape=True)
    assert end_of(encounter) == 30 - 1
    encounter.apply(EndPhase("gm", "ogre"))  # Phase 2 opens: kas acts, a new Segment
    assert kinds(use(encounter, power="Fire Blast", casual=True, object="door"))[-1] == "power_used"


def test_a_snapshot_with_powers_decodes_to_the_same_state() -> None:
    from engine.model import EncounterState
    from engine.serial import from_plain, to_plain

    encounter = duel(**{"Fire Blast": FIRE_BLAST, "Slow Armour": SLOW_ARMOUR})
    use(encounter, power="STR", casual=True, object="door")
    encounter.apply(Act("bob", "kas", "power_on", {"power": "Slow Armour"}))
    plain = json.loads(json.dumps(to_plain(encounter.state)))
    assert from_plain(EncounterState, plain) == encounter.state
