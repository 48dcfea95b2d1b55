"""Properties of any M&M initiative (hypothesis over seeds, modifiers and groups), and a
running fight's snapshot coming back equal (the ruleset's state decodes as its own)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EncounterState, Move, from_plain, to_plain
from engine.commands import JoinCombat
from tests.engine.mutants_masterminds.helpers import act, end_turn, fight, mm, of


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(1, 10**6),
    dexes=st.lists(st.integers(-2, 6), min_size=2, max_size=7),
    grouped=st.integers(0, 3),
)
def test_any_order_follows_totals_then_modifiers_and_keeps_groups_together(
    seed: int, dexes: list[int], grouped: int
) -> None:
    tokens = tuple(mm(f"c{i}", i, 0, dex=d) for i, d in enumerate(dexes))
    group = tuple(f"c{i}" for i in range(min(grouped, len(dexes))))
    groups = (group,) if len(group) > 1 else ()
    _, events = fight(*tokens, seed=seed, groups=groups)
    checks = of(events, "initiative_check")
    dice = [d.results[0] for d in of(events, "dice_rolled") if "roll-off" not in d.purpose]
    assert [c.d20 for c in checks] == dice
    assert all(c.total == c.d20 + c.modifier for c in checks)
    by_member = {cid: c for c in checks for cid in c.combatants}
    (listed,) = of(events, "initiative_order")
    keys = [(by_member[cid].total, by_member[cid].modifier) for cid in listed.order]
    assert keys == sorted(keys, reverse=True)
    assert dict(listed.scores) == {cid: by_member[cid].total for cid in listed.order}
    if groups:
        at = listed.order.index(group[0])
        assert listed.order[at : at + len(group)] == group
    # Every tie of total and modifier was settled by a roll-off, and only those.
    units = [c.combatants for c in checks]
    tied = {
        (c.total, c.modifier)
        for c in checks
        if sum((o.total, o.modifier) == (c.total, c.modifier) for o in checks) > 1
    }
    offs = {
        d.purpose.split(" at ")[1].split(":")[0]
        for d in of(events, "dice_rolled")
        if "roll-off" in d.purpose
    }
    assert offs == {str(total) for total, _ in tied}
    assert len(units) == len(set(units))


def test_a_running_fight_comes_back_equal_from_its_snapshot() -> None:
    encounter, _ = fight(
        mm("hero", 0, 0, dex=40), mm("thug", 1, 0, dex=0, side="v"), mm("imp", 2, 0, side="v")
    )
    act(encounter, "hero", "use_power", power="aura", rounds=2, target="hero")
    encounter.apply(Move("gm", "hero", ((0, 1),)))
    encounter.apply(JoinCombat("gm", mm("late", 5, 5)))
    state: Any = encounter.state
    rebuilt = from_plain(EncounterState, to_plain(state))
    assert rebuilt == state
    end_turn(encounter)
    assert from_plain(EncounterState, to_plain(encounter.state)) == encounter.state
