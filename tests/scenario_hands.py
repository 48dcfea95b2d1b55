"""An M&M game night's GM hands and table dice through the bridge, played by a GM and two
players over real WebSockets: a ``players`` dice table where Alice rolls her own hero's
initiative and attack dice and Bob is refused (``dice_refused``) rolling them; a
reinforcement joining with the table's dice, placed by the game's tie rule (Initiative
modifier, then a d20 each); the GM changing a sheet (refused from a player, and for a
statistic the game does not play); the GM raising a wall and laying terrain mid-fight.
``python -m tests.scenario_hands`` records it to
``tests/recordings/mm3e_gm_hands.jsonl`` (a golden session of its own)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import protocol
from tests.demo_table import act, play_on_demo_table
from tests.wsclient import TableClient, wire_data

SET_STATS: Any = protocol.CLIENT_MESSAGE_TYPES["set_stats"]
EDIT_SCENE: Any = protocol.CLIENT_MESSAGE_TYPES["edit_scene"]
ROLL_INITIATIVE: Any = protocol.CLIENT_MESSAGE_TYPES["roll_initiative"]


def mm_token(tid: str, owner: str, x: int, dex: int) -> dict[str, Any]:
    """An M&M token on row 0 of a 1 m grid."""
    side = "villains" if owner == "gm" else "heroes"
    return {"id": tid, "name": tid.title(), "owner": owner, "side": side, "x": x, "y": 0,
            "size": 1, "reach": 1.0, "movement": 6.0,
            "stats": {"dexterity": dex, "dodge": 6, "parry": 5}}  # fmt: skip


SCENE = protocol.SceneSpec.from_wire(
    {
        "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 10, "height": 10},
        "tokens": [mm_token("flash", "alice", 0, 4), mm_token("bolt", "bob", 2, 2),
                   mm_token("brute", "gm", 1, 1)],
    }
)  # fmt: skip


async def refused(client: TableClient, message: Any, **body: Any) -> protocol.ErrorMessage:
    """Send a command that must be refused."""
    answer = await client.reply_to(await client.send(message, **body))
    assert isinstance(answer, protocol.ErrorMessage), answer
    return answer


async def play_night(
    gm: TableClient, alice: TableClient, bob: TableClient, unchanged: Any = lambda: None
) -> None:
    """The session; ``unchanged()`` is called before and after a refusal (a test's
    fingerprint of the table: what it returns must not change)."""
    await act(gm, protocol.ConfigureTable, dice="players", prompt_timeout_ms=None)
    await act(gm, protocol.LoadScene, scene=SCENE)
    # "The players each roll for their heroes while the Narrator rolls for everyone
    # else": Alice rolls Flash's d20 (10), Bob may not roll it; the GM rolls the rest.
    no = await refused(bob, ROLL_INITIATIVE, token="flash", rolls=[1])
    assert no.code == "dice_refused" and "'alice'" in no.message
    await act(alice, ROLL_INITIATIVE, token="flash", rolls=[10])
    # Flash 10 + 4 = 14, Bolt 5 + 2 = 7, Brute 2 + 1 = 3.
    await act(gm, protocol.StartCombat, ruleset="mm3e", seed=5, rolls=(5, 2))
    first = wire_data(await bob.event("dice_rolled"))
    assert (first["results"], first["source"], first["by"]) == ([10], "table", "alice")

    # Bob may not roll for Alice's Flash; nothing changes.
    shot = {"target": "brute", "reach": "close", "rolls": [15]}
    before = unchanged()
    no = await refused(bob, protocol.Act, token="flash", action="attack", params=shot)
    assert (no.code, no.path) == ("dice_refused", "body.params.rolls")
    assert "'alice'" in no.message
    assert unchanged() == before
    # Alice rolls her own: the die is the table's and says who rolled it.
    await act(alice, protocol.Act, token="flash", action="attack", params=shot)
    rolled = wire_data(await gm.event("dice_rolled"))
    while rolled["purpose"].startswith("initiative"):  # the start's dice come first
        rolled = wire_data(await gm.event("dice_rolled"))
    assert (rolled["results"], rolled["source"], rolled["by"]) == ([15], "table", "alice")

    # A reinforcement with the table's dice: Goon 5 + 2 = 7 ties Bolt at equal
    # modifiers, so a d20 each: 7 and 7, again 15 and 3: the Goon goes first.
    goon = protocol.TokenSpec.from_wire(mm_token("goon", "gm", 7, 2))
    await act(gm, protocol.JoinCombat, token=goon, rolls=(5, 7, 7, 15, 3))
    order = wire_data(await gm.event("initiative_order"))
    while order["order"] == ["flash", "bolt", "brute"]:  # the start's, before the join
        order = wire_data(await gm.event("initiative_order"))
    assert order["order"] == ["flash", "goon", "bolt", "brute"]

    # The GM changes Bolt's Dexterity: the check stands for the fight.
    assert (await refused(bob, SET_STATS, token="bolt", stats={"dexterity": 5})).code == "gm_only"
    no = await refused(gm, SET_STATS, token="bolt", stats={"spd": 3})
    assert no.code == "unknown_stat" and "dexterity" in no.message
    await act(gm, SET_STATS, token="bolt", stats={"dexterity": 5})
    changed = wire_data(await bob.event("stats_changed"))
    assert changed == {"combatant": "bolt", "stats": [["dexterity", 5]], "order_kept": True}

    # The GM raises a wall and lays mud mid-fight; everyone sees the new map.
    wall = protocol.WallSpec(id="w1", a=(5.0, 0.0), b=(5.0, 10.0))
    mud = protocol.TerrainSpec(kind="difficult", polygon=((6.0, 0.0), (9.0, 0.0), (9.0, 3.0)))
    assert (await refused(bob, EDIT_SCENE, walls=(wall,))).code == "gm_only"
    await act(gm, EDIT_SCENE, walls=(wall,), terrain=(mud,))
    edited = wire_data(await alice.event("scene_edited"))
    assert [w["id"] for w in edited["walls"]] == ["w1"]
    assert edited["terrain"][0]["kind"] == "difficult"


async def run_night(record_to: Path | None = None) -> list[protocol.Event]:
    """Play the session on a fresh server's demo table; the events the GM saw."""
    _, events = await play_on_demo_table(play_night, record_to=record_to)
    return events


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings/mm3e_gm_hands.jsonl")
    asyncio.run(run_night(out))
    print(f"recorded {out}")
