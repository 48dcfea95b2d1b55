"""A Hero fight with Powers (seed 002) through the bridge: issue 15's golden session.

Ironclad (STR 60, a Multipower) and Kasdrevan the wizard against Fenris.  Casual STR on a
door then a full punch in one Phase (the text's Ironclad example); Kasdrevan's Casual Fire
Blast on an Entangle (set by the GM) then at full power (the text's); a Framework switch
with a partial allocation and a Blast used at part of its dice; a Transform under the
Standard Effect Rule (always 21); Ironclad's END running out (refused, typed) and coming back in the
Post-Turn Recovery; a constant Power kept on, paying its END each Phase.
``python -m tests.scenario_hero_powers`` records it to
``tests/recordings/hero_powers_fight.jsonl``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import protocol
from tests.demo_table import act
from tests.scenario_hero import _token
from tests.wsclient import TableClient

SEED = 20261115


def _power(**spec: Any) -> str:
    return json.dumps(spec, separators=(",", ":"))


def powers_scene() -> protocol.SceneSpec:
    """Ironclad and Kasdrevan against Fenris on a 12x12 1 m grid."""
    ironclad = _token(
        "ironclad",
        "alice",
        "heroes",
        4,
        4,
        init=14,
        ocv=6,
        STR=60,
        end=20,
        rec=6,
        **{
            "framework:Armory": _power(pool=60),
            "power:Sonic Blast": _power(
                kind="attack", effect="normal", dice="12d6", framework="Armory"
            ),
            "power:Jet Boots": _power(
                kind="movement", base_points=20, duration="constant", framework="Armory"
            ),
        },
    )
    kasdrevan = _token(
        "kasdrevan",
        "bob",
        "heroes",
        3,
        4,
        init=11,
        end=30,
        rec=4,
        **{
            "power:Fire Blast": _power(
                kind="attack", effect="killing", dice="2d6", points_per_die=15
            ),
            "power:Frog Curse": _power(
                kind="attack", effect="points", dice="7d6", points_per_die=10, standard_dice=7
            ),
        },
    )
    fenris = _token("fenris", "gm", "villains", 5, 4, init=12, end=30)
    return protocol.SceneSpec.from_wire(
        {
            "grid": {"kind": "square", "cell_size": 1, "unit": "m", "width": 12, "height": 12},
            "tokens": [ironclad, kasdrevan, fenris],
        }
    )


async def use(client: TableClient, token: str, **params: Any) -> protocol.Ack:
    """Use a Power (must be accepted)."""
    return await act(client, protocol.Act, token=token, action="use_power", params=params)


async def refused(client: TableClient, token: str, **params: Any) -> protocol.ErrorMessage:
    """Use a Power the rules refuse."""
    seq = await client.send(protocol.Act, token=token, action="use_power", params=params)
    reply = await client.reply_to(seq)
    assert isinstance(reply, protocol.ErrorMessage), reply
    return reply


async def play_powers_fight(gm: TableClient, alice: TableClient, bob: TableClient) -> None:
    """The fight, step by step (see the module docstring)."""
    await act(gm, protocol.LoadScene, scene=powers_scene())
    await act(gm, protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=SEED)
    await act(gm, protocol.Act, token="fenris", action="power_options", params={"casual_use": True})
    # Turn 1, Phase 1.  Ironclad smashes the door Casually (3 END, no time), then punches
    # Fenris with his full STR 60 in the same Phase (6 END, an Attack Action: Phase over).
    await use(alice, "ironclad", power="STR", casual=True, object="door")
    await use(alice, "ironclad", power="STR", target="fenris")
    await act(gm, protocol.EndPhase, token="fenris")
    # Kasdrevan, caught in an Entangle (the GM sets it: a Casual escape needs it), burns
    # at it Casually (RKA 1d6, 1 END), then at full power.
    await act(gm, protocol.SetCondition, token="kasdrevan", condition="entangled", on=True)
    await use(bob, "kasdrevan", power="Fire Blast", casual=True, object="entangle", escape=True)
    await use(bob, "kasdrevan", power="Fire Blast", target="fenris")
    # Phase 2.  Ironclad switches 40 points of the Armory to the Sonic Blast and the rest to
    # the Jet Boots, turns them on (a constant Power), and fires the Blast at 8d6.
    await act(
        alice,
        protocol.Act,
        token="ironclad",
        action="switch_framework",
        params={
            "framework": "Armory",
            "slots": [{"power": "Sonic Blast", "points": 40}, {"power": "Jet Boots"}],
        },
    )
    await act(
        alice, protocol.Act, token="ironclad", action="power_on", params={"power": "Jet Boots"}
    )
    await use(alice, "ironclad", power="Sonic Blast", dice="8d6", target="fenris")
    await act(gm, protocol.EndPhase, token="fenris")
    # Kasdrevan's Frog Curse uses the Standard Effect Rule: 21, no dice.
    await use(bob, "kasdrevan", power="Frog Curse", target="fenris")
    # Phase 3.  The Jet Boots cost 2 END as Ironclad's Phase starts (3 left): a full punch
    # is refused for want of END; half of it is not.
    await refused(alice, "ironclad", power="STR", target="fenris")
    await use(alice, "ironclad", power="STR", dice="6d6", target="fenris")
    await act(gm, protocol.EndPhase, token="fenris")
    await act(bob, protocol.EndPhase, token="kasdrevan")
    # Phase 4.  The Jet Boots cannot be paid and go off; no END for even 1d6 of STR.
    await refused(alice, "ironclad", power="STR", dice="1d6", target="fenris")
    await act(alice, protocol.EndPhase, token="ironclad")
    await act(gm, protocol.EndPhase, token="fenris")
    await act(bob, protocol.EndPhase, token="kasdrevan")
    # Post-Turn Recovery: REC 6 back to END.  Turn 2, Phase 1: a full punch again.
    await use(alice, "ironclad", power="STR", target="fenris")


async def run_powers_fight(record_to: Path | None = None) -> list[protocol.Event]:
    """Play the fight on a fresh server; return the events the GM saw, in order."""
    from tests.scenario_hero import run_fight

    return await run_fight(record_to, play=play_powers_fight)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/hero_powers_fight.jsonl")
    asyncio.run(run_powers_fight(out))
    print(f"recorded {out}")
