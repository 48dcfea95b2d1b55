"""Cyberpunk RED's reach between tokens at different elevations: counted in three
dimensions on the 2 m grid (one square per diagonal, the vertical too: Foundry's ruler),
through the ruleset's own world."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.rulesets.cyberpunk_red.ruleset import elevations, token_ids
from engine.rulesets.cyberpunk_red.world import SceneWorld
from engine.spatial import build_index
from tests.engine.cyberpunk_red.helpers import cpr, scene


@pytest.mark.parametrize(
    ("height", "reached"),
    [
        (0.0, True),  # side by side
        (2.0, True),  # one square up: max(1, 0, 1) = 1 square, 2 m of reach
        (3.9, True),  # still the first 2 m layer
        (4.0, False),  # two squares up: out of a 2 m reach
    ],
)
def test_melee_reach_counts_the_height(height: float, reached: bool) -> None:
    s = scene(cpr("gina", 2, 2), replace(cpr("rex", 3, 2), elevation=height), cpr("vik", 9, 9))
    world = SceneWorld(build_index(s), token_ids(s), elevations(s))
    assert world.in_reach("gina", "rex") is reached
    assert world.in_reach("rex", "gina") is reached
    assert ("rex" in world.within_reach("gina")) is reached
    assert elevations(s) == ({"rex": height} if height else {})
