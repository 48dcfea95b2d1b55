"""A game night per ruleset over the protocol on a running server (the harness is
:mod:`tests.bridge.gamenight`): a table made while the server runs, the GM and players
joining, a first fight played and ended, then under the ``players`` dice policy a new
scene and a second fight: Alice's own initiative die used (Bob refused it), the game's
interruption of a move, a reinforcement tied with someone and placed by the game's tie
rule, a stat changed, a token removed; and the recording replaying identically.  Each
night makes its table another way.  Every figure below is worked out from the game's
text in its comment, never read back from the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import protocol
from tests import scenario_cpr, scenario_hero, scenario_mm
from tests.bridge.gamenight import (
    Night,
    NightTable,
    Reinforcement,
    Start,
    StatChange,
    caused,
    last,
    play_night,
    refused,
    step_away,
)
from tests.demo_table import act
from tests.wsclient import wire_data


def scene(*tokens: dict[str, Any], cell: float = 1.0) -> protocol.SceneSpec:
    """A 16 x 16 square grid of ``cell`` m holding ``tokens``."""
    grid = {"kind": "square", "cell_size": cell, "unit": "m", "width": 16, "height": 16}
    return protocol.SceneSpec.from_wire({"grid": grid, "tokens": list(tokens)})


def newcomer(spec: dict[str, Any]) -> protocol.TokenSpec:
    """A reinforcement's token."""
    return protocol.TokenSpec.from_wire(spec)


async def hero_attack_of_opportunity(table: NightTable, night: Night) -> None:
    """The hero steps away from the wolf (Combat Reflexes): the GM is asked for the
    wolf's attack of opportunity and takes it; then the hero's Phase ends."""
    await step_away(table, "hero", ((3, 3),), attacker="wolf")
    await act(table.alice, protocol.EndPhase, token="hero")


HERO = Night(
    ruleset="hero-supplement",
    first_fight=scenario_hero.play_full_fight,
    second_scene=scene(
        scenario_hero._token("hero", "alice", "heroes", 4, 4, init=14, ocv=6),
        scenario_hero._token("elf", "bob", "heroes", 4, 7, init=12),
        scenario_hero._token("wolf", "gm", "monsters", 5, 5, init=14, combat_reflexes=True),
        scenario_hero._token("giant", "gm", "monsters", 12, 12, init=10, reach=2.0),
    ),
    mover="hero",
    # INIT is fixed: the only initiative dice are the ties' 1d6s.  The hero and the wolf
    # tie at INIT 14: Alice rolls the hero's 1d6 (5), the GM the wolf's (2); 5 beats 2,
    # so the hero goes first.  Order: hero 14, wolf 14, elf 12, giant 10.
    start=Start(
        own=(5,),
        refused_for="elf",
        gm_rolls=(2,),
        order=("hero", "wolf", "elf", "giant"),
        scores=(("hero", 14), ("wolf", 14), ("elf", 12), ("giant", 10)),
    ),
    interrupt=hero_attack_of_opportunity,
    # The orc's INIT 10 ties the giant's: 1d6 each, the newcomer's first: 3 and 3 tie
    # again, then 6 against 1: the orc goes in front of the giant.
    reinforcement=Reinforcement(
        token=newcomer(scenario_hero._token("orc", "gm", "monsters", 14, 14, init=10)),
        rolls=(3, 3, 6, 1),
        score=10,
        order=("hero", "wolf", "elf", "orc", "giant"),
    ),
    # An INIT change leaves the order as it is (a GM's change is no Special Initiative
    # Action); the supplement has no SPD.
    stat_change=StatChange(token="elf", stats={"init": 15}, unplayed="spd", named="init"),
    removed="giant",
)


async def cpr_held_shot(table: NightTable, night: Night) -> None:
    """Gina steps back from the goon's knife (no attack of opportunity: the text has
    none) and holds a pistol shot for the goon stepping into the square she left; the
    goon does, its move pauses there, Alice is asked (``readied_action``), fires with her
    own d10, ends Gina's hold and the goon's move goes on."""
    gm, alice = table.gm, table.alice
    await step_away(table, "gina", ((1, 4), (0, 4)), attacker=None)
    shot = {"target": "goon", "weapon": "pistol", "base": 14}
    hold = {"action": "attack", "trigger": "enters", "token": "goon", "area": [[2, 4]],
            "params": shot}  # fmt: skip
    await act(alice, protocol.Act, token="gina", action="hold_action", params=hold)
    await act(alice, protocol.EndPhase, token="gina")
    mark = len(gm.inbox)
    await act(gm, protocol.Move, token="goon", path=((2, 4),))
    prompt = await alice.wait_for(protocol.Prompt)
    asked = (prompt.kind, prompt.attacker, prompt.target, prompt.at)
    assert asked == ("readied_action", "gina", "goon", (2, 4)), prompt
    ack = await act(alice, protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=(7,))
    fired = await caused(gm, ack)
    assert last(fired, "cpr_held_fired")["at"] == [2, 4]
    (die,) = [d for k, d in fired if k == "dice_rolled"]
    assert (die["results"], die["source"], die["by"]) == ([7], "table", "alice")
    # d10 7 + the table's base 14 = 21 (hit and damage are the table's).
    attack = last(fired, "cpr_attack")
    assert (attack["attacker"], attack["target"], attack["total"]) == ("gina", "goon", 21)
    assert not [e for e in gm.inbox[mark:] if getattr(e, "kind", "") == "move_completed"]
    await act(alice, protocol.EndPhase, token="gina")
    assert wire_data(await gm.event("move_completed"))["token"] == "goon"
    await act(gm, protocol.EndPhase, token="goon")


CYBERPUNK_RED = Night(
    ruleset="cyberpunk-red",
    first_fight=scenario_cpr.play_fight,
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
    # Initiative = REF + d10: Alice rolls Gina's d10 (5): 12 + 5 = 17; the GM the rest,
    # in scene order: Rex 2 + 3 = 5, the goon 2 + 8 = 10, the boss 2 + 1 = 3.
    start=Start(
        own=(5,),
        refused_for="rex",
        gm_rolls=(3, 8, 1),
        order=("gina", "goon", "rex", "boss"),
        scores=(("gina", 17), ("goon", 10), ("rex", 5), ("boss", 3)),
    ),
    interrupt=cpr_held_shot,
    # Nix rolls REF 2 + 8 = 10, tied with the goon: "ties reroll until someone comes out
    # on top", only the tied: 2 + 5 = 7 against 2 + 5 = 7, again; 2 + 6 = 8 against
    # 2 + 4 = 6: Nix goes in front of the goon, its queue score staying 10.
    reinforcement=Reinforcement(
        token=newcomer(scenario_cpr.cpr_token("nix", "gm", "gang", 14, 14, ref=2, move=4)),
        rolls=(8, 5, 5, 6, 4),
        score=10,
        order=("gina", "nix", "goon", "rex", "boss"),
    ),
    # Initiative is rolled "once"; "after that the order doesn't change": a new REF
    # counts from the next fight.
    stat_change=StatChange(token="rex", stats={"ref": 9}, unplayed="dexterity", named="ref"),
    removed="boss",
)


async def mm_no_interrupt(table: NightTable, night: Night) -> None:
    """M&M's text has no attacks of opportunity and no readied, held or delayed actions:
    the hero steps back from the minion and nobody is asked; a ``ready`` is refused,
    naming the actions the game plays."""
    await step_away(table, "hero", ((1, 2), (0, 2)), attacker=None)
    no = await refused(table, table.alice, protocol.Act, token="hero", action="ready",
                       params={})  # fmt: skip
    assert no.code == "unknown_action" and "attack" in no.message, no
    await act(table.alice, protocol.EndPhase, token="hero")


MUTANTS_MASTERMINDS = Night(
    ruleset="mm3e",
    first_fight=scenario_mm.play_fight,
    second_scene=scene(
        scenario_mm.token("hero", "alice", "heroes", 2, 2, dexterity=20, close_attack=8),
        scenario_mm.token("ally", "bob", "heroes", 2, 6, dexterity=0),
        scenario_mm.token("minion", "gm", "villains", 3, 2, dexterity=0, close_attack=4),
        scenario_mm.token("villain", "gm", "villains", 12, 12, dexterity=0),
    ),
    mover="hero",
    # d20 + Dexterity: "the players each roll for their heroes while the Narrator rolls
    # for everyone else": Alice's d20 (6): 6 + 20 = 26; the GM's, in scene order: the
    # ally 12 + 0 = 12, the minion 9 + 0 = 9, the villain 4 + 0 = 4.
    start=Start(
        own=(6,),
        refused_for="ally",
        gm_rolls=(12, 9, 4),
        order=("hero", "ally", "minion", "villain"),
        scores=(("hero", 26), ("ally", 12), ("minion", 9), ("villain", 4)),
    ),
    interrupt=mm_no_interrupt,
    # The rookie's check 9 + 0 = 9 ties the minion's; equal Initiative modifiers (0), so
    # "roll a die": 11 against 11, again; 3 against 14: the minion stays ahead and the
    # rookie goes after it (nobody else is at 9).
    reinforcement=Reinforcement(
        token=newcomer(scenario_mm.token("rookie", "alice", "heroes", 0, 8, dexterity=0)),
        rolls=(9, 11, 11, 3, 14),
        score=9,
        order=("hero", "ally", "minion", "rookie", "villain"),
    ),
    # The check is made once, "with the check applying to all rounds of the combat".
    stat_change=StatChange(
        token="ally", stats={"dexterity": 10}, unplayed="ref", named="dexterity"
    ),
    removed="villain",
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
    assert kinds.count("combatant_joined") == 2 and kinds.count("cpr_held_fired") == 2


async def test_a_mutants_masterminds_game_night_on_a_table_made_with_server(
    tmp_path: Path,
) -> None:
    result = await play_night(tmp_path, MUTANTS_MASTERMINDS, "cli-server")
    kinds = [e.kind for e in result.events]
    assert kinds.count("combat_started") == 2 and kinds.count("combat_ended") == 1
    assert kinds.count("combatant_left") == 1
