"""A game night per ruleset over the protocol on a running server (the harness is
:mod:`tests.bridge.gamenight`): a table made while the server runs, the GM and players
joining, a first fight played and ended, a new scene, a second fight with an attack of
opportunity where the game has one, a reinforcement and a token removed, and the
recording replaying identically.  Each night makes its table another way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import protocol
from tests import scenario_cpr, scenario_hero, scenario_mm
from tests.bridge.gamenight import Night, play_night


def scene(*tokens: dict[str, Any], cell: float = 1.0) -> protocol.SceneSpec:
    """A 16 x 16 square grid of ``cell`` m holding ``tokens``."""
    grid = {"kind": "square", "cell_size": cell, "unit": "m", "width": 16, "height": 16}
    return protocol.SceneSpec.from_wire({"grid": grid, "tokens": list(tokens)})


HERO = Night(
    ruleset="hero-supplement",
    first_fight=scenario_hero.play_full_fight,
    # The hero (INIT 14) acts first and steps away from the wolf: Combat Reflexes.
    second_scene=scene(
        scenario_hero._token("hero", "alice", "heroes", 4, 4, init=14, ocv=6),
        scenario_hero._token("elf", "bob", "heroes", 4, 7, init=12),
        scenario_hero._token("wolf", "gm", "monsters", 5, 5, init=11, combat_reflexes=True),
        scenario_hero._token("giant", "gm", "monsters", 12, 12, init=10, reach=2.0),
    ),
    mover="hero",
    step_away=((3, 3),),
    provokes=True,
    reinforcement=protocol.TokenSpec.from_wire(
        scenario_hero._token("orc", "gm", "monsters", 14, 14, init=9)
    ),
)

CYBERPUNK_RED = Night(
    ruleset="cyberpunk-red",
    first_fight=scenario_cpr.play_fight,
    # Gina's REF 12 + d10 beats every REF 2 + d10; she steps back from the goon's knife.
    second_scene=scene(
        scenario_cpr.cpr_token(
            "gina",
            "alice",
            "edgerunners",
            2,
            4,
            ref=12,
            move=4,
            **{"weapon.pistol": 2, "hand.right": "pistol"},
        ),
        scenario_cpr.cpr_token("rex", "bob", "edgerunners", 2, 8, ref=2, move=5),
        scenario_cpr.cpr_token(
            "goon",
            "gm",
            "gang",
            3,
            4,
            ref=2,
            move=3,
            **{"weapon.knife": 2, "melee.knife": True, "hand.right": "knife"},
        ),
        scenario_cpr.cpr_token("boss", "gm", "gang", 12, 12, ref=2, move=4),
        cell=2.0,
    ),
    mover="gina",
    step_away=((1, 4), (0, 4)),
    provokes=False,  # "There are no attacks of opportunity in this text" (its README)
    reinforcement=protocol.TokenSpec.from_wire(
        scenario_cpr.cpr_token("nix", "gm", "gang", 14, 14, ref=2, move=4)
    ),
)

MUTANTS_MASTERMINDS = Night(
    ruleset="mm3e",
    first_fight=scenario_mm.play_fight,
    # The hero's Dexterity 20 puts it first; it steps back from the minion.
    second_scene=scene(
        scenario_mm.token("hero", "alice", "heroes", 2, 2, dexterity=20, close_attack=8),
        scenario_mm.token("ally", "bob", "heroes", 2, 6, dexterity=0),
        scenario_mm.token("minion", "gm", "villains", 3, 2, dexterity=0, close_attack=4),
        scenario_mm.token("villain", "gm", "villains", 12, 12, dexterity=0),
    ),
    mover="hero",
    step_away=((1, 2), (0, 2)),
    provokes=False,  # "the text has no attacks of opportunity, and moving never provokes"
    reinforcement=protocol.TokenSpec.from_wire(
        scenario_mm.token("rookie", "alice", "heroes", 0, 8, dexterity=1)
    ),
)


async def test_a_hero_game_night_on_a_table_made_by_create_table(tmp_path: Path) -> None:
    result = await play_night(tmp_path, HERO, "cli-database")
    kinds = [e.kind for e in result.events]
    assert kinds.count("combat_started") == 2 and kinds.count("combat_ended") == 1
    assert kinds.count("attack_rolled") >= 4  # two fights' attacks of opportunity


async def test_a_cyberpunk_red_game_night_on_a_table_made_over_http(tmp_path: Path) -> None:
    result = await play_night(tmp_path, CYBERPUNK_RED, "operator")
    kinds = [e.kind for e in result.events]
    assert kinds.count("combat_started") == 2 and kinds.count("combat_ended") == 1
    assert kinds.count("combatant_joined") == 2


async def test_a_mutants_masterminds_game_night_on_a_table_made_with_server(
    tmp_path: Path,
) -> None:
    result = await play_night(tmp_path, MUTANTS_MASTERMINDS, "cli-server")
    kinds = [e.kind for e in result.events]
    assert kinds.count("combat_started") == 2 and kinds.count("combat_ended") == 1
    assert kinds.count("combatant_left") == 1
