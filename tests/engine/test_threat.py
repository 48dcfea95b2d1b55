"""``engine.threat`` on the ruleset seam, with the toy duel (``tests/toy_ruleset.py``):
the cells a token threatens are the ruleset's say through its ``threatens`` and
``opportunity_available`` hooks, and a path's exits are where the move itself stops."""

from __future__ import annotations

from engine import Combatant, Encounter, GridSpec, LoadScene, Move, Scene
from engine.commands import AnswerPrompt
from engine.threat import MAX_LISTED_CELLS
from tests.engine.test_ruleset_seam import act, duel, fighter, finish


def around(col: int, row: int) -> tuple[tuple[int, int], ...]:
    """The eight cells around ``(col, row)``, sorted: 1 m of reach on a 1 m grid."""
    return tuple(
        sorted((col + dc, row + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0))
    )


def test_an_enemy_threatens_its_reach_until_it_guards() -> None:
    encounter = duel(fighter("a", 3, 3, 9), fighter("b", 4, 3, 0, side="b"))
    threat = encounter.threat("a")
    assert threat.cells == around(3, 3)
    assert (threat.foes, threat.attacks, threat.reason) == (("b",), ("b",), None)
    act(encounter, "a", "guard")  # "it makes none" while guarding
    guarded = encounter.threat("a")
    assert guarded.cells == () and guarded.foes == ()
    assert guarded.reason is not None and "Toy" in guarded.reason
    assert guarded.outline == threat.outline  # the reach itself is geometry


def test_an_attack_spent_still_threatens_but_attacks_nobody() -> None:
    encounter = duel(fighter("a", 3, 3, 9), fighter("b", 4, 3, 0, side="b"))
    finish(encounter)  # a is done; b strides away from a and is attacked
    encounter.apply(Move("gm", "b", ((5, 3), (6, 3)), "stride"))
    encounter.apply(AnswerPrompt("gm", "p1", True))
    threat = encounter.threat("a")
    assert threat.foes == ("b",) and threat.attacks == ()  # one a Round


def test_exits_are_where_the_move_stops() -> None:
    encounter = duel(fighter("a", 3, 3, 9), fighter("b", 4, 3, 0, side="b"))
    finish(encounter)
    path = ((5, 3), (6, 3))
    exits, reason = encounter.path_exits("b", path, "stride")
    assert reason is None and [(e.kind, e.by, e.at) for e in exits] == [
        ("attack_of_opportunity", "a", (4, 3))
    ]
    sneaking, _ = encounter.path_exits("b", path, "sneak")
    assert sneaking == ()  # sneaking provokes nothing
    events = encounter.apply(Move("gm", "b", path, "stride"))
    paused = events[-2]
    assert (paused.by, paused.at, paused.exit_point) == ("a", exits[0].at, exits[0].point)


def test_a_readied_area_is_an_exit_too() -> None:
    encounter = duel(fighter("a", 0, 0, 9), fighter("b", 8, 8, 0, side="b"))
    act(encounter, "a", "ambush", on="enter", area=[[5, 8], [5, 9]])
    finish(encounter)
    exits, _ = encounter.path_exits("b", ((7, 8), (6, 8), (5, 8), (4, 8)), "stride")
    assert [(e.kind, e.by, e.at) for e in exits] == [("readied_action", "a", (6, 8))]


def test_a_reach_too_large_to_list_is_answered_without_cells() -> None:
    """Reach 20 m on a 100 x 100 grid: 1,680 cells, more than one answer lists (a reach
    of 40 m, 6,560 cells, is now refused at load: engine.scene_checks.MAX_THREAT_MS)."""
    giant = Combatant("g", "G", "gm", "a", 50, 50, reach=20.0, movement=4.0)
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(100, 100), (giant,))))
    threat = encounter.threat("g")
    assert threat.cells == () and threat.outline == ()
    assert threat.reason is not None and f"{MAX_LISTED_CELLS:,}" in threat.reason
