"""The foundation scenario (issue 2): a move that provokes an attack of opportunity.

Used by the end-to-end test and by ``python -m tests.scenario`` which re-records the
golden file in ``tests/recordings/``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import protocol
from tests.demo_table import play_on_demo_table
from tests.wsclient import TableClient, wire_data

HERO_STATS = {"ocv": 6, "dcv": 4, "init": 14}
OGRE_STATS = {"ocv": 5, "dcv": 3, "init": 12}


def scene_body() -> dict[str, Any]:
    """A 12x12 1 m grid: Alice's hero beside the GM's ogre."""
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
            },
        ],
    }  # fmt: skip


def scene_spec() -> protocol.SceneSpec:
    """The scene as a protocol value."""
    return protocol.SceneSpec.from_wire(scene_body())


async def attack_and_let_the_hero_on(
    gm: TableClient, alice: TableClient, prompt: protocol.Prompt
) -> tuple[Any, Any]:
    """The GM takes the attack of opportunity ``prompt`` offers, lets the hero finish
    the move if it hits, and Alice ends the hero's Phase: ``(attack_rolled,
    move_completed)``."""
    seq = await gm.send(protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    attack = await alice.event("attack_rolled")
    if wire_data(attack)["hit"]:
        ask = await gm.wait_for(protocol.Prompt, lambda p: p.kind == "continue_after_hit")
        seq = await gm.send(protocol.AnswerPrompt, prompt=ask.prompt, accept=True, rolls=None)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
    completed = await alice.event("move_completed")
    seq = await alice.send(protocol.EndPhase, token="hero")
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    return attack, completed


async def play_steps_1_to_4(gm: TableClient, alice: TableClient) -> dict[str, Any]:
    """GM loads and starts; Alice moves and provokes; GM accepts; Alice ends her Phase."""
    seq = await gm.send(protocol.LoadScene, scene=scene_spec())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    order = await alice.event("initiative_order")
    seq = await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5), (1, 5)))
    prompt = await gm.wait_for(protocol.Prompt)
    attack, completed = await attack_and_let_the_hero_on(gm, alice, prompt)
    next_up = await gm.event("combatant_acts")
    while wire_data(next_up)["combatant"] != "ogre":
        next_up = await gm.event("combatant_acts")
    return {"order": order, "prompt": prompt, "attack": attack, "completed": completed}


async def record_golden(target: Path) -> None:
    """Run steps 1-4 against a real server with recording on; copy the file to ``target``."""
    await play_on_demo_table(play_steps_1_to_4, ("gm", "alice"), record_to=target, drain=False)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/hero_aoo_foundation.jsonl")
    asyncio.run(record_golden(out))
    print(f"recorded {out}")
