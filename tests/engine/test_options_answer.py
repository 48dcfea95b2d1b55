"""What ``ask_options`` says of what a token cannot do: the rule, in the game's words.

Seed 003, *Unaware Combatants*: "Combatants unaware at the start of battle do not get to
act in the surprise round."  Seed 000, *Surprise*: "Characters who were unaware do not
get to act in the Surprise Phase."  An attack is offered only with a token to attack:
within reach (melee, close), or in line of sight (ranged).
"""

from __future__ import annotations

from engine import Combatant, Encounter, GridSpec, LoadScene, Scene, StartCombat
from engine.commands import Act
from engine.model import WallSpec
from engine.rulesets import find_ruleset
from tests.engine.helpers import refused, token
from tests.engine.mutants_masterminds.helpers import mm

#: A wall down x = 5, floor to ceiling of a 10 x 10 grid: nobody sees across it.
WALL = (WallSpec("w", (5.0, 0.0), (5.0, 10.0)),)


def _start(
    name: str,
    tokens: tuple[Combatant, ...],
    aware: tuple[str, ...] | None = None,
    walls: tuple[WallSpec, ...] = (),
) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(10, 10), tokens, walls)))
    encounter.apply(StartCombat("gm", name, 1, aware))
    return encounter


def test_an_unaware_mm_combatant_in_the_surprise_round_is_told_the_rule() -> None:
    encounter = _start(
        "mm3e", (mm("hero", 0, 0, dex=5), mm("thug", 3, 3, side="villains")), aware=("hero",)
    )
    options = encounter.options("thug")
    assert not options.can_act and options.available == ()
    assert options.reason is not None
    assert options.reason.startswith("unaware in the surprise round: no action")
    assert "do not get to act in the surprise round" in options.reason
    turn_actions = [a for a, s in find_ruleset("mm3e").actions.items() if s.when == "turn"]
    listed = {u.action: u for u in options.unavailable}
    for action in (*turn_actions, "ground", "end_phase"):
        assert (listed[action].code, listed[action].reason) == ("not_your_turn", options.reason)
    refused(encounter, Act("gm", "thug", "free_action", {"what": "a shout"}), "not_your_turn")


def test_an_unaware_hero_character_in_the_surprise_phase_is_told_the_rule() -> None:
    encounter = _start(
        "hero-supplement", (token("a", 0, 0, init=15), token("b", 3, 3, init=5)), aware=("a",)
    )
    reason = encounter.options("b").reason
    assert reason is not None and reason.startswith("unaware in the Surprise Phase: no action")


def test_an_attack_is_offered_only_with_a_token_to_attack() -> None:
    # Each game: the attacker alone on its side of a wall, then a foe beside it.
    def hero(tid: str, x: int, y: int) -> Combatant:
        return token(tid, x, y, side=tid, init=20 - x)

    def mutant(tid: str, x: int, y: int) -> Combatant:
        return mm(tid, x, y, dex=20 - x, side=tid)

    for name, make in (("hero-supplement", hero), ("mm3e", mutant)):
        walled = _start(name, (make("a", 0, 0), make("b", 8, 8)), walls=WALL)
        options = walled.options("a")
        assert "attack" not in options.available
        (attack,) = [u for u in options.unavailable if u.action == "attack"]
        assert attack.code == "out_of_reach" and attack.reason.startswith("nothing to attack")
        refused(walled, Act("gm", "a", "attack", {"target": "b"}), "out_of_reach")
        # In the open, a token in line of sight is a ranged target; beside it, a close one.
        assert "attack" in _start(name, (make("a", 0, 0), make("b", 8, 8))).options("a").available
        assert (
            "attack"
            in _start(name, (make("a", 0, 0), make("b", 1, 0)), walls=WALL).options("a").available
        )
