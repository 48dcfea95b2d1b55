"""Tokens at an elevation: reach counts in three dimensions (Foundry's ruler on squares,
geometry.elevation), through the toy duel's attacks of opportunity; a ground scene's
plain form (logs, hashes) is what it was before tokens had an elevation."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Move, to_plain
from engine.model import Combatant
from engine.serial import from_plain
from tests.engine.test_ruleset_seam import duel, fighter, finish


def _flying(token: Combatant, elevation: float) -> Combatant:
    return replace(token, elevation=elevation)


@pytest.mark.parametrize(
    ("elevation", "provokes"),
    [
        (0.0, True),  # on the ground: the ogre's neighbour
        (1.0, True),  # one layer up: max(1, 1) = 1 square, within 1 m of its edge
        (1.5, True),  # still the first layer (Foundry floors elevation / cell size)
        (2.0, False),  # two layers: 2 squares, out of a 1 m reach
        (10.0, False),  # the hero 10 m above the ogre
    ],
)
def test_a_flier_provokes_only_within_reach_in_3d(elevation: float, provokes: bool) -> None:
    encounter = duel(fighter("a", 3, 3, 9), _flying(fighter("b", 4, 3, 0, side="b"), elevation))
    finish(encounter)  # a is done; b moves away from a
    path = ((5, 3), (6, 3))
    exits, reason = encounter.path_exits("b", path, "stride")
    assert reason is None
    assert [(e.by, e.at) for e in exits] == ([("a", (4, 3))] if provokes else [])
    events = encounter.apply(Move("gm", "b", path, "stride"))
    assert (events[-1].kind == "prompt_opened") == provokes


def test_under_one_square_per_diagonal_height_is_all_or_nothing() -> None:
    # The "one" rule prices (dx, dy, dk) as their largest: a flier dk layers up is as far
    # as on the ground until dk is the largest.  An ogre with 2 m reach at (3, 3), a
    # flier two squares off: 2 m up it is max(2, 0, 2) = 2 away (2 - 0.5 < 2, threatened)
    # and moving off provokes where it starts; 3 m up it is 3 away from every square the
    # ogre reaches on the ground: never threatened.
    ogre = replace(fighter("a", 3, 3, 9), reach=2.0)
    path = ((6, 3), (7, 3), (8, 3))
    for elevation, expected in ((2.0, [("a", (5, 3))]), (3.0, [])):
        encounter = duel(ogre, _flying(fighter("b", 5, 3, 0, side="b"), elevation))
        finish(encounter)
        exits, _ = encounter.path_exits("b", path, "stride")
        assert [(e.by, e.at) for e in exits] == expected


def test_ground_tokens_keep_their_plain_form() -> None:
    ground = fighter("a", 3, 3, 9)
    assert "elevation" not in to_plain(ground)
    flier = _flying(ground, 4.5)
    plain = to_plain(flier)
    assert plain["elevation"] == 4.5
    assert from_plain(Combatant, plain) == flier
    assert from_plain(Combatant, to_plain(ground)) == ground
    encounter = duel(ground, replace(flier, id="b", side="b").moved_to((5, 5)))
    assert encounter.state.scene is not None
    assert encounter.state.scene.tokens[1].elevation == 4.5


@pytest.mark.parametrize(("height", "reached"), [(0.0, True), (1.0, True), (2.0, False)])
def test_melee_reach_for_every_game_counts_the_height(height: float, reached: bool) -> None:
    # engine.movement.in_reach is what Hero's and M&M's close attacks ask.
    from engine.model import GridSpec, Scene
    from engine.movement import in_reach
    from engine.spatial import SpatialCache

    ogre, bird = fighter("a", 3, 3, 9), _flying(fighter("b", 4, 4, 0, side="b"), height)
    scene = Scene(GridSpec(12, 12), (ogre, bird))
    spatial = SpatialCache()
    assert in_reach(spatial, scene, ogre, bird) is reached
    assert in_reach(spatial, scene, bird, ogre) is reached


def test_a_move_with_an_attack_measures_its_reach_in_3d() -> None:
    # Hero: a flier 10 m up may not declare an attack on the ogre where its move ends.
    from engine.errors import CommandRejected
    from tests.engine.helpers import fight, kinds, token

    ogre = token("ogre", 5, 5, init=1)
    high = replace(token("hero", 4, 5, owner="alice", init=9), elevation=10.0)
    encounter = fight(ogre, high)
    with pytest.raises(CommandRejected) as refused:
        encounter.apply(Move("alice", "hero", ((4, 6), (5, 6)), attack="ogre"))
    assert refused.value.code == "out_of_reach"
    low = replace(high, elevation=1.0)  # one layer up: beside it
    encounter = fight(ogre, low)
    events = encounter.apply(Move("alice", "hero", ((4, 6), (5, 6)), attack="ogre"))
    assert kinds(events)[-2:] == ["dice_rolled", "attack_rolled"]
