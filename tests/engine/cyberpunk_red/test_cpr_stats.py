"""A token's Cyberpunk RED statistics: what a table must give, and the clear refusal
naming the statistic when it is wrong."""

from __future__ import annotations

import pytest

from engine.errors import CommandRejected
from engine.rulesets.cyberpunk_red.state import Weapon
from engine.rulesets.cyberpunk_red.stats import fighter_from_token, is_vehicle
from tests.engine.cyberpunk_red.helpers import cpr, vehicle


def test_a_token_becomes_a_fighter() -> None:
    gear = {"weapon__pistol": 2, "weapon__machete": 2, "melee__machete": True,
            "hand__right": "pistol", "hand__left": "shield"}  # fmt: skip
    token = cpr("gina", 0, 0, ref=8, move=5, armor_penalty=2, net_actions=3, shield=True, **gear)
    f = fighter_from_token(token)
    assert (f.ref, f.move, f.armor_penalty, f.net_actions, f.jump) == (8, 5, 2, 3, 5.0)
    assert f.weapons == (Weapon("machete", 2, melee=True), Weapon("pistol", 2))
    assert (f.right, f.left, f.has_shield) == ("pistol", "shield", True)
    assert is_vehicle(vehicle("car", 1, 1)) and not is_vehicle(cpr("x", 0, 0))


@pytest.mark.parametrize(
    ("stats", "names"),
    [
        ({"ref": "fast"}, "ref must be an integer"),  # a statistic of the wrong type
        ({"move": -1}, "move must be an integer >= 0"),
        ({"weapon__rifle": 3}, "ROF: 1 or 2"),  # the text knows ROF 1 and 2 only
        ({"melee__axe": True}, "names no weapon"),
        ({"hand__right": "rifle"}, "does not carry"),
        ({"hand__left": "shield"}, "shield is not true"),
        ({"jump": "far"}, "jump must be metres"),
        ({"weapon__knife": 2, "hand__right": "knife", "hand__left": "knife"}, "both hands"),
    ],
)
def test_a_bad_statistic_is_refused_by_name(stats: dict[str, object], names: str) -> None:
    with pytest.raises(CommandRejected) as refusal:
        fighter_from_token(cpr("gina", 0, 0, **stats))  # type: ignore[arg-type]
    assert refusal.value.code == "bad_scene" and names in refusal.value.message
