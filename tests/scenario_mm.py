"""A whole Mutants & Masterminds 3e fight through the bridge (issue 14's golden session).

The seed rolls a tie between the heroes settled by the initiative modifier and another
between the villain and his minions (one check for the group) settled by a roll-off.
The heroes spring an ambush: a surprise round in which they take one action each, the
hero attacking a flat-footed minion; in round 1 a sidekick joins, the villain trades his
standard action down for a second move, a minion's power lasting one round ends in
round 2 just before the minions' count, mid-round.  Played by a GM and two players over
real WebSockets; ``python -m tests.scenario_mm`` records it to
``tests/recordings/mm3e_fight.jsonl``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import protocol
from tests.demo_table import act, options, play_on_demo_table
from tests.wsclient import TableClient

#: Rolls hero 9 and ally 9 (the hero's higher modifier first), then villain 3 and the
#: minions' 3 (same modifier: a roll-off, which the villain wins).
SEED = 20261337


def token(tid: str, owner: str, side: str, x: int, y: int, **stats: Any) -> dict[str, Any]:
    """An M&M token on a 1 m grid, moving 6 m a move action."""
    base = {"dexterity": 2, "dodge": 6, "parry": 6}
    return {
        "id": tid, "name": tid.title(), "owner": owner, "side": side, "x": x, "y": y,
        "size": 1, "reach": 1.0, "movement": 6.0, "stats": {**base, **stats},
    }  # fmt: skip


def fight_scene() -> protocol.SceneSpec:
    """A 16x16 1 m grid: the heroes close to two minions, the villain far off."""
    return protocol.SceneSpec.from_wire(
        {
            "grid": {"kind": "square", "cell_size": 1, "unit": "m", "width": 16, "height": 16},
            "tokens": [
                token("hero", "alice", "heroes", 2, 2, dexterity=4, close_attack=8, parry=9),
                token("ally", "bob", "heroes", 2, 4, dexterity=1, ranged_attack=7),
                token("villain", "gm", "villains", 12, 12, close_attack=10),
                token("minion1", "gm", "villains", 3, 2, dexterity=1, close_attack=4),
                token("minion2", "gm", "villains", 4, 6, close_attack=4),
            ],
        }
    )


def sidekick() -> protocol.TokenSpec:
    """The hero's sidekick, arriving in round 1."""
    return protocol.TokenSpec.from_wire(token("sidekick", "alice", "heroes", 0, 0, dexterity=3))


async def do(client: TableClient, who: str, action: str, **params: Any) -> protocol.Ack:
    """``who`` takes the ruleset action ``action``."""
    return await act(client, protocol.Act, token=who, action=action, params=params)


async def play_fight(gm: TableClient, alice: TableClient, bob: TableClient) -> None:
    """The fight, step by step (see the module docstring)."""
    await act(gm, protocol.LoadScene, scene=fight_scene())
    await act(
        gm,
        protocol.StartCombat,
        ruleset="mm3e",
        aware=("hero", "ally"),
        seed=SEED,
        groups=(("minion1", "minion2"),),
    )
    # The surprise round: only the aware act, one standard or move action each.
    await options(alice, "hero")
    await do(alice, "hero", "attack", target="minion1")  # flat-footed: Parry counts 0
    await options(alice, "hero")  # no move after the standard action
    await act(alice, protocol.EndPhase, token="hero")
    await act(bob, protocol.Move, token="ally", path=((2, 5), (3, 5)))
    await act(bob, protocol.EndPhase, token="ally")
    # Round 1: the hero's first regular turn; minion1 has had none: still flat-footed.
    await do(alice, "hero", "free_action", what="Nobody move!")
    await do(alice, "hero", "attack", target="minion1")
    await act(alice, protocol.EndPhase, token="hero")
    await do(bob, "ally", "attack", target="villain", reach="ranged")
    await act(bob, protocol.EndPhase, token="ally")
    # A sidekick joins the fight: it rolls and takes its count in the existing order.
    await act(gm, protocol.JoinCombat, token=sidekick())
    # The villain trades his standard action down and moves twice his speed.
    await do(gm, "villain", "trade_down")
    path = tuple((x, 12) for x in range(11, -1, -1))
    await act(gm, protocol.Move, token="villain", path=path)
    await act(gm, protocol.EndPhase, token="villain")
    await do(gm, "minion1", "attack", target="hero")
    await act(gm, protocol.EndPhase, token="minion1")
    # minion2's smoke lasts one round: it ends just before the group's count in round 2.
    await do(gm, "minion2", "use_power", power="smoke cloud", rounds=1)
    await act(gm, protocol.EndPhase, token="minion2")
    await act(alice, protocol.EndPhase, token="sidekick")
    # Round 2: the heroes act; then the smoke clears, then the villain's count.
    await act(alice, protocol.EndPhase, token="hero")
    await act(bob, protocol.EndPhase, token="ally")
    await do(gm, "villain", "attack", target="ally", reach="ranged")
    await act(gm, protocol.EndPhase, token="villain")


async def run_fight(record_to: Path | None = None) -> list[protocol.Event]:
    """Play the fight on a fresh server; return the events the GM saw, in order."""
    _, events = await play_on_demo_table(play_fight, record_to=record_to)
    return events


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/mm3e_fight.jsonl")
    asyncio.run(run_fight(out))
    print(f"recorded {out}")
