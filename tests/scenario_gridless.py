"""Gridless fights over the protocol, one per game: tokens are discs at points and moves
are waypoints, so every stop is at an exact point.

* Hero supplement: the hero walks away from the ogre and leaves its reach (1.5 m from
  the ogre's centre) at ``[7.0, 5.5]``, where the move pauses for the ogre's attack of
  opportunity; the GM takes it and the move goes on to the last waypoint.
* Cyberpunk RED (no attacks of opportunity): Rex holds a rifle shot for the goon
  entering the alley (the 2 m squares ``[5, 2]`` and ``[5, 3]``); the goon's move pauses
  where its disc comes onto them, at ``[12.0, 5.0]``, the shot fires, the move goes on.
* Mutants & Masterminds (no attacks of opportunity either): the hero moves beside a
  minion, by waypoints, and makes a close attack, within reach as the ball counts it.

``python -m tests.scenario_gridless`` re-records the Hero fight to
``tests/recordings/gridless_fight.jsonl`` and the Hero flight to
``tests/recordings/gridless_flight.jsonl``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import protocol
from protocol.threat import AskExits, Exits
from tests.demo_table import act, play_on_demo_table
from tests.scenario import HERO_STATS, OGRE_STATS, attack_and_let_the_hero_on
from tests.wsclient import TableClient, wire_data


def disc(tid: str, owner: str, side: str, x: float, y: float, **fields: Any) -> dict[str, Any]:
    """A one-cell token centred on ``(x, y)``."""
    body = {"id": tid, "name": tid.title(), "owner": owner, "side": side, "x": x, "y": y,
            "size": 1, "reach": 1.0, "movement": 6.0, "stats": {}}  # fmt: skip
    return {**body, **fields}


def gridless(width: int, height: int, cell_size: float, *tokens: dict[str, Any]) -> Any:
    """A gridless scene of ``width`` x ``height`` cells of ``cell_size`` m."""
    grid = {"kind": "gridless", "cell_size": cell_size, "unit": "m", "width": width,
            "height": height}  # fmt: skip
    return protocol.SceneSpec.from_wire({"grid": grid, "tokens": list(tokens)})


async def until_acts(gm: TableClient, watcher: TableClient, who: str) -> None:
    """The GM ends Phases until ``who`` acts."""
    acts = await watcher.event("combatant_acts")
    while wire_data(acts)["combatant"] != who:
        await act(gm, protocol.EndPhase, token=wire_data(acts)["combatant"])
        acts = await watcher.event("combatant_acts")


async def play_hero(gm: TableClient, alice: TableClient) -> dict[str, Any]:
    """The Hero supplement's gridless fight (module docstring)."""
    scene = gridless(
        12, 12, 1.0,
        disc("ogre", "gm", "monsters", 5.5, 5.5, stats=OGRE_STATS),
        disc("hero", "alice", "heroes", 6.75, 5.5, stats=HERO_STATS),
    )  # fmt: skip
    await act(gm, protocol.LoadScene, scene=scene)
    await act(gm, protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
    await until_acts(gm, alice, "hero")
    seq = await alice.send(AskExits, token="hero", path=((9.0, 5.5), (9.0, 8.25)))
    exits: Exits = await alice.wait_for(Exits, lambda m: m.ref == seq)
    await alice.send(protocol.Move, token="hero", path=((9.0, 5.5), (9.0, 8.25)))
    prompt = await gm.wait_for(protocol.Prompt)
    attack, completed = await attack_and_let_the_hero_on(gm, alice, prompt)
    return {"exits": exits, "prompt": prompt, "attack": attack, "completed": completed}


async def play_hero_flight(gm: TableClient, alice: TableClient) -> dict[str, Any]:
    """The hero, with 10 m of Flight, rises 2 m as it flies off: the ogre's reach is a
    ball, so the move pauses where the rising hero leaves it, in three dimensions."""
    scene = gridless(
        12, 12, 1.0,
        disc("ogre", "gm", "monsters", 5.5, 5.5, stats=OGRE_STATS),
        disc("hero", "alice", "heroes", 6.5, 5.5, stats={**HERO_STATS, "flight": 10.0}),
    )  # fmt: skip
    await act(gm, protocol.LoadScene, scene=scene)
    await act(gm, protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
    await until_acts(gm, alice, "hero")
    await alice.send(protocol.Move, token="hero", path=((8.5, 5.5),), elevations=(2.0,))
    prompt = await gm.wait_for(protocol.Prompt)
    attack, completed = await attack_and_let_the_hero_on(gm, alice, prompt)
    return {"prompt": prompt, "attack": attack, "completed": completed}


async def play_hero_plan(gm: TableClient, alice: TableClient) -> dict[str, Any]:
    """``ask_path`` on a gridless scene: round the end of a wall, then the move it gives."""
    scene = protocol.SceneSpec.from_wire(
        {
            "grid": {"kind": "gridless", "cell_size": 1.0, "unit": "m", "width": 20,
                     "height": 20},
            "tokens": [
                disc("ogre", "gm", "monsters", 17.5, 2.5, stats=OGRE_STATS),
                disc("hero", "alice", "heroes", 8.5, 10.5, movement=10.0, stats=HERO_STATS),
            ],
            "walls": [{"id": "w1", "a": [10.0, 0.0], "b": [10.0, 12.0], "blocks_move": True,
                       "blocks_sight": True, "door": "none"}],
        }
    )  # fmt: skip
    await act(gm, protocol.LoadScene, scene=scene)
    await act(gm, protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
    await until_acts(gm, alice, "hero")
    seq = await alice.send(protocol.AskPath, token="hero", to=(11.5, 10.5))
    plan: protocol.PathPlan = await alice.wait_for(protocol.PathPlan, lambda m: m.ref == seq)
    await act(alice, protocol.Move, token="hero", path=plan.path)
    completed = await alice.event("move_completed")
    return {"plan": plan, "completed": completed}


async def play_cpr(gm: TableClient, bob: TableClient) -> dict[str, Any]:
    """Cyberpunk RED's gridless fight (module docstring)."""
    rifle = {"ref": 8, "move": 4, "weapon.rifle": 1, "hand.right": "rifle"}
    knife = {"ref": 3, "move": 3, "weapon.knife": 2, "melee.knife": True, "hand.right": "knife"}
    scene = gridless(
        16, 10, 2.0,
        disc("rex", "bob", "edgerunners", 5.0, 13.0, reach=2.0, movement=0.0, stats=rifle),
        disc("goon", "gm", "gang", 17.0, 5.0, reach=2.0, movement=0.0, stats=knife),
    )  # fmt: skip
    await act(gm, protocol.LoadScene, scene=scene)
    await act(gm, protocol.StartCombat, ruleset="cyberpunk-red", aware=None, seed=7)
    await until_acts(gm, bob, "rex")
    await act(bob, protocol.Act, token="rex", action="hold_action", params={
        "action": "attack", "trigger": "enters", "token": "goon", "area": [[5, 2], [5, 3]],
        "params": {"target": "goon", "weapon": "rifle", "base": 13},
    })  # fmt: skip
    await act(bob, protocol.EndPhase, token="rex")
    await until_acts(gm, bob, "goon")
    await act(gm, protocol.Move, token="goon", path=((11.0, 5.0),))  # MOVE 3: 6 m
    prompt: protocol.Prompt = await bob.wait_for(protocol.Prompt)
    await act(bob, protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None)
    fired = await bob.event("cpr_held_fired")
    await act(bob, protocol.EndPhase, token="rex")
    completed = await bob.event("move_completed")
    return {"prompt": prompt, "fired": fired, "completed": completed}


async def play_mm(gm: TableClient, alice: TableClient) -> dict[str, Any]:
    """Mutants & Masterminds' gridless fight (module docstring)."""
    hero = {"dexterity": 4, "dodge": 6, "parry": 9, "close_attack": 8}
    minion = {"dexterity": 1, "dodge": 6, "parry": 6, "close_attack": 4}
    scene = gridless(
        16, 16, 1.0,
        disc("hero", "alice", "heroes", 2.5, 2.5, stats=hero),
        disc("minion", "gm", "villains", 8.5, 4.5, stats=minion),
    )  # fmt: skip
    await act(gm, protocol.LoadScene, scene=scene)
    await act(gm, protocol.StartCombat, ruleset="mm3e", aware=None, seed=11)
    await until_acts(gm, alice, "hero")
    await act(alice, protocol.Move, token="hero", path=((5.0, 4.5), (7.25, 4.5)))
    completed = await alice.event("move_completed")
    await act(alice, protocol.Act, token="hero", action="attack", params={"target": "minion"})
    return {"completed": completed}


async def record_golden(target: Path, flight: Path) -> None:
    """Run the Hero fight, and the Hero flight, against a real server with recording
    on; copy them to ``target`` and ``flight``."""
    await play_on_demo_table(play_hero, ("gm", "alice"), record_to=target, drain=False)
    await play_on_demo_table(play_hero_flight, ("gm", "alice"), record_to=flight, drain=False)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/gridless_fight.jsonl")
    up = Path(sys.argv[2] if len(sys.argv) > 2 else "tests/recordings/gridless_flight.jsonl")
    asyncio.run(record_golden(out, up))
    print(f"recorded {out} and {up}")
