"""A whole Hero supplement fight through the bridge (issue 4's golden session).

Surprise Phase with a Delay, Combat Reflexes, a withdraw from a creature with 2 m reach,
an Abort, a Ready triggered by movement, END and STUN set by the GM, and a Post-Turn
Recovery into Turn 2.  Played
by a GM and two players over real WebSockets; ``python -m tests.scenario_hero`` records
it to ``tests/recordings/hero_full_fight.jsonl``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import protocol
from tests.demo_table import act, play_on_demo_table
from tests.wsclient import TableClient, wire_data

SEED = 20261130
DODGE = {"name": "dodge", "ocv": 0, "dcv": 3}


def _token(tid: str, owner: str, side: str, x: int, y: int, **stats: Any) -> dict[str, Any]:
    reach = stats.pop("reach", 1.0)
    movement = stats.pop("movement", 6.0)
    base = {"ocv": 5, "dcv": 5, "end": 30, "stun": 30, "rec": 5}
    return {
        "id": tid, "name": tid.title(), "owner": owner, "side": side, "x": x, "y": y,
        "size": 1, "reach": reach, "movement": movement, "stats": {**base, **stats},
    }  # fmt: skip


def fight_scene() -> protocol.SceneSpec:
    """A 16x16 1 m grid: the wolf between the heroes, the giant far off."""
    return protocol.SceneSpec.from_wire(
        {
            "grid": {"kind": "square", "cell_size": 1, "unit": "m", "width": 16, "height": 16},
            "tokens": [
                _token("hero", "alice", "heroes", 4, 4, init=14, ocv=6),
                _token("elf", "bob", "heroes", 4, 6, init=12, movement=8.0),
                _token("wolf", "gm", "monsters", 5, 5, init=11, combat_reflexes=True),
                _token("giant", "gm", "monsters", 12, 12, init=10, reach=2.0, rec=8),
            ],
        }
    )


async def answer(client: TableClient, gm: TableClient, **extra: Any) -> protocol.Prompt:
    """Accept the next prompt ``client`` receives; after a hit, the GM lets the move go on."""
    prompt: protocol.Prompt = await client.wait_for(protocol.Prompt)
    await act(client, protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None, **extra)
    if prompt.kind == "attack_of_opportunity":
        roll = await gm.event("attack_rolled")
        if wire_data(roll)["hit"]:
            ask = await gm.wait_for(protocol.Prompt, lambda p: p.kind == "continue_after_hit")
            await act(gm, protocol.AnswerPrompt, prompt=ask.prompt, accept=True, rolls=None)
    return prompt


async def play_full_fight(gm: TableClient, alice: TableClient, bob: TableClient) -> None:
    """The fight, step by step (see the module docstring)."""
    await act(gm, protocol.LoadScene, scene=fight_scene())
    await act(
        gm,
        protocol.StartCombat,
        ruleset="hero-supplement",
        aware=("hero", "elf", "giant"),
        seed=SEED,
    )
    # Surprise Phase: the wolf is unaware.  The elf delays to just before the giant.
    await act(alice, protocol.Act, token="hero", action="draw_focus", params={"detail": "sword"})
    await act(alice, protocol.EndPhase, token="hero")
    await act(bob, protocol.Act, token="elf", action="delay", params={"before": "giant"})
    await act(bob, protocol.Act, token="elf", action="draw_focus", params={"detail": "bow"})
    await act(bob, protocol.EndPhase, token="elf")
    await act(gm, protocol.Move, token="giant", path=((11, 11), (10, 10), (9, 9)))
    await act(gm, protocol.EndPhase, token="giant")
    # Turn 1, Phase 1: hero and elf both leave the wolf's reach: Combat Reflexes.
    await act(alice, protocol.Move, token="hero", path=((3, 3),))
    await answer(gm, gm, maneuver={"name": "bite", "ocv": 1, "dcv": 0})
    await act(alice, protocol.EndPhase, token="hero")
    await act(gm, protocol.EndPhase, token="wolf")
    await act(bob, protocol.Move, token="elf", path=((3, 7), (2, 8)))
    await answer(gm, gm)
    await act(bob, protocol.EndPhase, token="elf")
    await act(
        gm, protocol.Move, token="giant", path=((8, 8), (7, 7), (6, 6), (6, 5), (6, 4), (5, 3))
    )
    await act(gm, protocol.EndPhase, token="giant")
    # Phase 2: the hero withdraws away from the giant's 2 m reach: that provokes.
    await act(alice, protocol.Move, token="hero", path=((2, 2), (1, 1)), mode="withdraw")
    await answer(gm, gm)
    await act(alice, protocol.EndPhase, token="hero")
    # During the wolf's action the elf aborts to a dodge, giving up this Phase's action.
    await act(bob, protocol.Act, token="elf", action="abort", params={"maneuver": DODGE})
    await act(gm, protocol.EndPhase, token="wolf")
    await act(gm, protocol.EndPhase, token="giant")
    # Phase 3: the hero readies an attack on anyone stepping next to it.
    await act(
        alice,
        protocol.Act,
        token="hero",
        action="ready",
        params={"action": "attack", "area": [[3, 1], [3, 2], [3, 3]]},
    )
    await act(alice, protocol.EndPhase, token="hero")
    await act(gm, protocol.EndPhase, token="wolf")
    await act(bob, protocol.EndPhase, token="elf")
    await act(gm, protocol.Move, token="giant", path=((4, 2), (3, 2)))
    await answer(alice, gm)
    await act(
        alice,
        protocol.Act,
        token="hero",
        action="attack",
        params={"target": "giant", "ranged": True, "range": 5.0},
    )
    await act(alice, protocol.EndPhase, token="hero")
    await act(gm, protocol.EndPhase, token="giant")
    # The GM records what the hits cost (damage is the table's), then Phase 4 and the
    # Post-Turn Recovery: REC back to END and STUN.
    await act(gm, protocol.Act, token="hero", action="set_vitals", params={"end": 22, "stun": 18})
    await act(gm, protocol.Act, token="elf", action="set_vitals", params={"end": 28, "stun": 27})
    for client, who in ((gm, "wolf"), (bob, "elf"), (alice, "hero"), (gm, "giant"), (gm, "wolf")):
        await act(client, protocol.EndPhase, token=who)


async def run_fight(
    record_to: Path | None = None, play: Callable[..., Awaitable[None]] | None = None
) -> list[protocol.Event]:
    """Play the fight (``play``, by default this one) on a fresh server; return the
    events the GM saw, in order."""
    _, events = await play_on_demo_table(play or play_full_fight, record_to=record_to)
    return events


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/hero_full_fight.jsonl")
    asyncio.run(run_fight(out))
    print(f"recorded {out}")
