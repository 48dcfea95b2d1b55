"""A fight with flying tokens: Alice's hero 10 m up beside the GM's ogre (on the ground)
and a harpy (9.5 m up, the same 1 m layer as the hero's less one).  Moving away, the hero
leaves the reach of both on the map, but only the harpy reaches it in three dimensions
(Foundry's ruler: one square across and one up is one square), so only the harpy's
attack of opportunity is offered.  Then the harpy (Flight 10) flies on the grid, rising
to the hero's layer and past it: it leaves the square beside the hero one layer up, and
the hero's attack of opportunity is offered there; Alice declines and the harpy lands
its flight 10 m up.

``python -m tests.scenario_flying`` re-records ``tests/recordings/flying_fight.jsonl``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import protocol
from tests.demo_table import play_on_demo_table
from tests.scenario import HERO_STATS, OGRE_STATS, attack_and_let_the_hero_on
from tests.wsclient import TableClient, wire_data

HARPY_STATS = {"ocv": 4, "dcv": 5, "init": 13, "flight": 10}


def flying_body() -> dict[str, Any]:
    """A 12x12 1 m grid: the ogre at (5, 5) on the ground, the hero at (4, 5) 10 m up,
    the harpy at (4, 4) 9.5 m up."""
    return {
        "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 12, "height": 12},
        "tokens": [
            {
                "id": "ogre", "name": "Ogre", "owner": "gm", "side": "monsters",
                "x": 5, "y": 5, "size": 1, "reach": 1.0, "movement": 6.0, "stats": OGRE_STATS,
            },
            {
                "id": "hero", "name": "Hero", "owner": "alice", "side": "heroes",
                "x": 4, "y": 5, "size": 1, "reach": 1.0, "movement": 6.0, "stats": HERO_STATS,
                "elevation": 10.0,
            },
            {
                "id": "harpy", "name": "Harpy", "owner": "gm", "side": "monsters",
                "x": 4, "y": 4, "size": 1, "reach": 1.0, "movement": 6.0, "stats": HARPY_STATS,
                "elevation": 9.5,
            },
        ],
    }  # fmt: skip


async def play_flying(gm: TableClient, alice: TableClient) -> dict[str, Any]:
    """GM loads and starts; the hero flies away and only the harpy may strike; the GM
    accepts; the hero's move completes; the harpy flies past the hero, who may strike
    and declines; the harpy's flight completes at the hero's height."""
    seq = await gm.send(protocol.LoadScene, scene=protocol.SceneSpec.from_wire(flying_body()))
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    order = await alice.event("initiative_order")
    acts = await alice.event("combatant_acts")
    while wire_data(acts)["combatant"] != "hero":
        seq = await gm.send(protocol.EndPhase, token=wire_data(acts)["combatant"])
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        acts = await alice.event("combatant_acts")
    seq = await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5), (1, 5)))
    prompt = await gm.wait_for(protocol.Prompt)
    assert (prompt.attacker, prompt.at) == ("harpy", (4, 5)), prompt
    attack, completed = await attack_and_let_the_hero_on(gm, alice, prompt)
    acts = await gm.event("combatant_acts")
    while wire_data(acts)["combatant"] != "harpy":
        seq = await gm.send(protocol.EndPhase, token=wire_data(acts)["combatant"])
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        acts = await gm.event("combatant_acts")
    # From (4, 4) at 9.5 m: up to the hero's 10 m layer beside it at (2, 4), then on.
    flight = ((3, 4), (2, 4), (2, 3))
    seq = await gm.send(protocol.Move, token="harpy", path=flight, elevations=(10.0,) * 3)
    struck = await alice.wait_for(protocol.Prompt)
    assert (struck.attacker, struck.at) == ("hero", (2, 4)), struck
    seq = await alice.send(protocol.AnswerPrompt, prompt=struck.prompt, accept=False, rolls=None)
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    landed = await gm.event("move_completed")
    return {
        "order": order,
        "prompt": prompt,
        "attack": attack,
        "completed": completed,
        "struck": struck,
        "landed": landed,
    }


async def record_golden(target: Path) -> None:
    """Run the fight against a real server with recording on; copy the file to ``target``."""
    await play_on_demo_table(play_flying, ("gm", "alice"), record_to=target, drain=False)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/flying_fight.jsonl")
    asyncio.run(record_golden(out))
    print(f"recorded {out}")
