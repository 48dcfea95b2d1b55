"""Seed 003, *Initiative*, *Opponent Initiative* and *Joining a Fight*, in the text's terms.

Every figure is read back from the fight's own events (the d20 from ``dice_rolled``);
where a case needs particular dice (a tie), the test looks for a seed that rolls it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.commands import JoinCombat
from tests.engine.mutants_masterminds.helpers import (
    act,
    actor,
    end_turn,
    fight,
    find_seed,
    mm,
    of,
    order,
)


def scores(events: list[Any]) -> dict[str, int]:
    (listed,) = of(events, "initiative_order")
    return dict(listed.scores)


def test_initiative_check_is_d20_plus_dexterity_plus_miscellaneous_modifiers() -> None:
    # "Initiative Check = d20 + Dexterity + Miscellaneous Modifiers": Improved
    # Initiative is +4 a rank, the table's other modifiers add on.
    tokens = (
        mm("quick", 0, 0, dex=3, improved_initiative=2, initiative_bonus=1),
        mm("plain", 2, 0, dex=1),
    )
    _, events = fight(*tokens)
    dice = {d.purpose.split(": ")[1].split(" ")[0]: d.results[0] for d in of(events, "dice_rolled")}
    checks = {c.combatants[0]: c for c in of(events, "initiative_check")}
    assert checks["quick"].modifier == 3 + 4 * 2 + 1
    assert checks["plain"].modifier == 1
    for cid, check in checks.items():
        assert check.d20 == dice[cid]
        assert check.total == dice[cid] + check.modifier == scores(events)[cid]


@pytest.mark.parametrize("seed", range(1, 30))
def test_the_order_counts_down_from_highest_total_to_lowest(seed: int) -> None:
    tokens = tuple(mm(f"t{i}", i, 0, dex=i % 4) for i in range(6))
    _, events = fight(*tokens, seed=seed)
    (listed,) = of(events, "initiative_order")
    totals = [s for _, s in listed.scores]
    assert totals == sorted(totals, reverse=True)
    assert [cid for cid, _ in listed.scores] == list(listed.order)


def test_the_check_applies_to_all_rounds_of_the_combat() -> None:
    encounter, _events = fight(mm("a", 0, 0), mm("b", 2, 0, dex=4), seed=7)
    first = order(encounter)
    later: list[Any] = []
    for _ in range(6):  # three rounds of two turns
        later += end_turn(encounter)
    assert order(encounter) == first
    assert not [d for d in of(later, "dice_rolled") if "initiative" in d.purpose]
    assert [e.combatant for e in of(later, "combatant_acts")] == [
        *first[1:],
        *first,
        *first,
        first[0],
    ]
    assert [e.clock.label for e in of(later, "pass_started")] == ["Round 2", "Round 3", "Round 4"]


def test_the_same_result_goes_to_the_higher_initiative_modifier_first() -> None:
    # "If two combatants have the same initiative check result, they act in order of
    # highest Initiative modifier first."
    tokens = (mm("slow", 0, 0, dex=1), mm("fast", 2, 0, dex=4))

    def tied(events: list[Any]) -> bool:
        return len(set(scores(events).values())) == 1

    encounter, events = fight(*tokens, seed=find_seed(tokens, tied))
    assert order(encounter) == ("fast", "slow")
    (tie,) = of(events, "initiative_tie")
    assert (tie.count, tie.by, tie.order) == (
        scores(events)["fast"],
        "modifier",
        (("fast",), ("slow",)),
    )
    # The modifier settles it: nobody rolls a die for it.
    assert not [d for d in of(events, "dice_rolled") if "roll-off" in d.purpose]


def test_still_tied_a_die_is_rolled_and_the_highest_roll_goes_first() -> None:
    # "If there is still a tie, roll a die, with the highest roll going first."
    tokens = (mm("left", 0, 0, dex=2), mm("right", 2, 0, dex=2), mm("mid", 4, 0, dex=2))

    def tied(events: list[Any]) -> bool:
        return bool(of(events, "initiative_tie"))

    encounter, events = fight(*tokens, seed=find_seed(tokens, tied))
    # The innermost roll-off (the last event): every one in it rolled its last die there.
    tie = [t for t in of(events, "initiative_tie") if t.by == "roll_off"][-1]
    rolls = {
        d.purpose.rsplit(": ", 1)[1]: d.results[0]
        for d in of(events, "dice_rolled")
        if "roll-off" in d.purpose
    }
    tied_ids = [u[0] for u in tie.order]
    # The roll-off order is by the last die each rolled, highest first.
    last = [rolls[cid] for cid in tied_ids]
    assert last == sorted(last, reverse=True) and len(set(last)) == len(last)
    positions = [order(encounter).index(cid) for cid in tied_ids]
    assert positions == sorted(positions)


def test_a_roll_off_that_ties_again_rolls_again_among_those_still_tied() -> None:
    tokens = tuple(mm(f"m{i}", i, 0, dex=0) for i in range(8))

    def rerolled(events: list[Any]) -> bool:
        offs = [d.purpose for d in of(events, "dice_rolled") if "roll-off" in d.purpose]
        return len(offs) != len(set(offs))

    _, events = fight(*tokens, seed=find_seed(tokens, rerolled))
    offs = [d for d in of(events, "dice_rolled") if "roll-off" in d.purpose]
    again = [d.purpose for d in offs]
    twice = {p for p in again if again.count(p) > 1}
    assert twice
    # A tie's event comes first, then those of the roll-offs inside it (subsets of it).
    by_count: dict[int, list[Any]] = {}
    for tie in of(events, "initiative_tie"):
        by_count.setdefault(tie.count, []).append(set(tie.order))
    for found in by_count.values():
        assert all(inner < found[0] for inner in found[1:])
    # Each that rolled twice had tied on its first roll-off die with another one.
    for purpose in twice:
        count = purpose.split(" at ")[1].split(":")[0]
        first = next(d.results[0] for d in offs if d.purpose == purpose)
        rivals = [d for d in offs if f" at {count}:" in d.purpose and d.purpose != purpose]
        assert any(d.results[0] == first for d in rivals)


def test_the_narrator_makes_a_single_initiative_check_for_all_opponents() -> None:
    tokens = (
        mm("hero", 0, 0, dex=3),
        mm("thug1", 5, 5, side="villains", dex=0),
        mm("thug2", 6, 5, side="villains", dex=1),
        mm("boss", 7, 5, side="villains", dex=4),
    )
    encounter, events = fight(*tokens, groups=(("boss", "thug1", "thug2"),))
    checks = of(events, "initiative_check")
    assert [c.combatants for c in checks] == [("hero",), ("boss", "thug1", "thug2")]
    # The group's check takes its best initiative modifier; the group acts at one count,
    # its members one after the other.
    assert checks[1].modifier == 4
    s = scores(events)
    assert s["boss"] == s["thug1"] == s["thug2"] == checks[1].total
    at = order(encounter).index("boss")
    assert order(encounter)[at : at + 3] == ("boss", "thug1", "thug2")


def test_one_check_for_a_villain_and_another_for_all_of_his_minions() -> None:
    tokens = (
        mm("hero", 0, 0),
        mm("villain", 5, 5, side="villains", dex=5),
        mm("minion1", 6, 5, side="villains"),
        mm("minion2", 7, 5, side="villains"),
    )
    _, events = fight(*tokens, groups=(("minion1", "minion2"),))
    assert [c.combatants for c in of(events, "initiative_check")] == [
        ("hero",), ("villain",), ("minion1", "minion2"),
    ]  # fmt: skip
    s = scores(events)
    assert s["minion1"] == s["minion2"]


def test_or_one_check_per_foe() -> None:
    tokens = (mm("hero", 0, 0), mm("foe1", 5, 5, side="v"), mm("foe2", 6, 5, side="v"))
    _, events = fight(*tokens)
    assert len(of(events, "initiative_check")) == 3


def test_a_group_tied_with_a_hero_is_one_entry_in_the_tie() -> None:
    tokens = (
        mm("hero", 0, 0, dex=2),
        mm("minion1", 5, 5, side="v", dex=2),
        mm("minion2", 6, 5, side="v", dex=2),
    )
    groups = (("minion1", "minion2"),)

    def tied(events: list[Any]) -> bool:
        return len(set(scores(events).values())) == 1

    encounter, events = fight(*tokens, groups=groups, seed=find_seed(tokens, tied, groups=groups))
    offs = [d for d in of(events, "dice_rolled") if "roll-off" in d.purpose]
    assert {d.purpose.rsplit(": ", 1)[1] for d in offs} == {"hero", "minion1, minion2"}
    at = order(encounter).index("minion1")
    assert order(encounter)[at + 1] == "minion2"


def test_a_newcomer_rolls_initiative_and_acts_when_its_turn_comes_up() -> None:
    # "If characters enter a fight after it's begun, they roll initiative and act
    # whenever their turn comes up in the existing order."
    encounter, _ = fight(mm("a", 0, 0, dex=6), mm("b", 2, 0, dex=-2), seed=3)
    before = order(encounter)
    joined = encounter.apply(JoinCombat("gm", mm("late", 9, 9, dex=1)))
    (rolled,) = [d for d in of(joined, "dice_rolled") if "joins" in d.purpose]
    (came,) = of(joined, "combatant_joined")
    assert came.score == rolled.results[0] + 1
    (check,) = of(joined, "initiative_check")
    assert (check.combatants, check.d20, check.modifier) == (("late",), rolled.results[0], 1)
    after = order(encounter)
    assert tuple(c for c in after if c != "late") == before  # the existing order stands
    combat = encounter.state.combat
    assert combat is not None
    above = [cid for cid, s in combat.scores if s >= came.score and cid != "late"]
    assert after.index("late") == len(above)
    # It acts at its count: this round if the count has not passed yet, else next round.
    acted: list[str] = []
    for _ in range(len(after) * 2):
        acted += [e.combatant for e in of(end_turn(encounter), "combatant_acts")]
    assert "late" in acted


def test_a_newcomer_above_the_current_count_waits_for_the_next_round() -> None:
    encounter, _ = fight(mm("a", 0, 0, dex=0), mm("b", 2, 0, dex=0), seed=2)
    end_turn(encounter)  # the second one acts now
    now = actor(encounter)
    joined = encounter.apply(JoinCombat("gm", mm("late", 9, 9, dex=60)))
    assert of(joined, "combatant_joined")[0].score > 60
    assert actor(encounter) == now
    events = end_turn(encounter)
    assert [e.combatant for e in of(events, "combatant_acts")] == ["late"]
    assert of(events, "pass_started")[0].clock.at == {"round": 2}
    act(encounter, "late", "free_action", what="I'm here!")


def test_the_table_may_roll_the_initiative_dice_itself() -> None:
    # The table's own d20s, in the order the checks and roll-offs are made: here a tie
    # on 12 between equal modifiers, settled by the table's roll-off dice 3 and 17.
    tokens = (mm("a", 0, 0, dex=2), mm("b", 2, 0, dex=2), mm("c", 4, 0, dex=5))
    encounter, events = fight(*tokens, rolls=(10, 10, 2, 3, 17))
    assert {d.source for d in of(events, "dice_rolled")} == {"table"}
    assert scores(events) == {"a": 12, "b": 12, "c": 7}
    assert order(encounter) == ("b", "a", "c")
    (tie,) = of(events, "initiative_tie")
    assert (tie.count, tie.by, tie.order) == (12, "roll_off", (("b",), ("a",)))
