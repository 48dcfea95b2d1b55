"""A Cyberpunk RED fight through the bridge (issue 12's golden session).

Initiative with a tie rerolled (Gina and the boss both roll 16), Gina's move split
around two ROF 2 pistol shots, Rex holding a rifle shot for the goon entering an
alley (fired when it does, the goon's move going on after), the boss holding a shot for
a doorway nobody comes through (lost at the end of the Round), a newcomer rolling into
the queue mid-fight, and the boss swimming into the canal in Round 2.  Played by a GM
and two players over real WebSockets; ``python -m tests.scenario_cpr`` records it to
``tests/recordings/cpr_fight.jsonl``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import protocol
from tests.demo_table import act, options, play_on_demo_table
from tests.wsclient import TableClient

SEED = 20261137  # Gina and the boss tie at 16; the reroll puts Gina first
ALLEY = [[11, 2], [11, 3]]
DOORWAY = [[0, 0], [0, 1]]


def cpr_token(tid: str, owner: str, side: str, x: int, y: int, **stats: Any) -> dict[str, Any]:
    """A token with Cyberpunk RED statistics; ``reach`` 2 m is the squares around it."""
    return {
        "id": tid, "name": tid.title(), "owner": owner, "side": side, "x": x, "y": y,
        "size": 1, "reach": 2.0, "movement": 0.0, "stats": stats,
    }  # fmt: skip


def street() -> protocol.SceneSpec:
    """16 x 10 squares of 2 m; a canal in the east (columns 10-15, rows 3-6)."""
    return protocol.SceneSpec.from_wire(
        {
            "grid": {"kind": "square", "cell_size": 2.0, "unit": "m", "width": 16, "height": 10},
            "tokens": [
                cpr_token("gina", "alice", "edgerunners", 2, 4, ref=8, move=4,
                          **{"weapon.pistol": 2, "hand.right": "pistol"}),
                cpr_token("rex", "bob", "edgerunners", 2, 6, ref=6, move=5,
                          **{"weapon.rifle": 1, "hand.right": "rifle"}),
                cpr_token("boss", "gm", "gang", 9, 6, ref=8, move=4,
                          **{"weapon.smg": 1, "hand.right": "smg"}),
                cpr_token("goon", "gm", "gang", 13, 2, ref=3, move=3,
                          **{"weapon.knife": 2, "melee.knife": True, "hand.right": "knife"}),
            ],
            "terrain": [
                {"kind": "water", "polygon": [[20.0, 6.0], [32.0, 6.0], [32.0, 14.0], [20.0, 14.0]]}
            ],
        }
    )  # fmt: skip


async def play_fight(
    gm: TableClient, alice: TableClient, bob: TableClient
) -> list[protocol.Options]:
    """The fight, step by step (see the module docstring); returns the answers to Gina's
    ``ask_options`` (before her turn, and after her two shots)."""
    asked: list[protocol.Options] = []
    await act(gm, protocol.LoadScene, scene=street())
    await act(gm, protocol.StartCombat, ruleset="cyberpunk-red", aware=None, seed=SEED)
    # Round 1.  Gina: "move, shoot, move, shoot": two ROF 2 shots with one Action.
    shoot = {"target": "boss", "weapon": "pistol", "base": 14}
    asked.append(await options(alice, "gina"))
    await act(alice, protocol.Move, token="gina", path=((3, 4), (4, 4)))
    await act(alice, protocol.Act, token="gina", action="attack", params=shoot)
    await act(alice, protocol.Move, token="gina", path=((5, 4),))
    await act(alice, protocol.Act, token="gina", action="attack", params=shoot)
    asked.append(await options(alice, "gina"))
    await act(alice, protocol.EndPhase, token="gina")
    # The boss holds a burst for the doorway: nobody comes through it this Round.
    await act(gm, protocol.Act, token="boss", action="hold_action", params={
        "action": "attack", "trigger": "enters", "area": DOORWAY,
        "params": {"target": "gina", "weapon": "smg", "base": 12},
    })  # fmt: skip
    await act(gm, protocol.EndPhase, token="boss")
    # Rex holds a rifle shot for the goon coming round into the alley.
    await act(bob, protocol.Act, token="rex", action="hold_action", params={
        "action": "attack", "trigger": "enters", "token": "goon", "area": ALLEY,
        "params": {"target": "goon", "weapon": "rifle", "base": 13},
    })  # fmt: skip
    await act(bob, protocol.EndPhase, token="rex")
    # A newcomer joins with the table's dice: Nix rolls REF 7 + 7 = 14, tied with Rex, so
    # the two reroll ("ties reroll until someone comes out on top"): 7 + 1 = 8 against
    # Rex's 6 + 9 = 15, and Nix takes its place after Rex.
    nix = cpr_token("nix", "gm", "gang", 14, 8, ref=7, move=4, **{"weapon.pistol": 2})
    await act(gm, protocol.JoinCombat, token=protocol.TokenSpec.from_wire(nix), rolls=(7, 1, 9))
    # The goon runs into the alley: Rex's held shot interrupts, then the move goes on.
    await act(gm, protocol.Move, token="goon", path=((12, 2), (11, 2), (10, 2)))
    prompt: protocol.Prompt = await bob.wait_for(protocol.Prompt)
    await act(bob, protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None)
    await act(bob, protocol.EndPhase, token="rex")
    await gm.event("move_completed")
    await act(gm, protocol.EndPhase, token="goon")
    # Round 2: the boss's hold was lost.  Gina waits; the boss swims into the canal.
    await act(alice, protocol.EndPhase, token="gina")
    await act(gm, protocol.Move, token="boss", path=((10, 6), (11, 6)), mode="swim")
    await act(gm, protocol.EndPhase, token="boss")
    await act(bob, protocol.EndPhase, token="rex")
    # The newcomer's first turn, at its place after Rex.
    await act(gm, protocol.Move, token="nix", path=((13, 8), (12, 8)))
    await act(gm, protocol.EndPhase, token="nix")
    return asked


async def run_fight(
    record_to: Path | None = None,
) -> tuple[list[protocol.Event], list[protocol.Options]]:
    """Play the fight on a fresh server; return the events the GM saw, in order, and
    Gina's options."""
    asked, events = await play_on_demo_table(play_fight, record_to=record_to)
    return events, asked


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/cpr_fight.jsonl")
    asyncio.run(run_fight(out))
    print(f"recorded {out}")
