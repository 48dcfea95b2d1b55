"""The GM's hands and the table's dice over a real server (an M&M fight): under the
``players`` dice policy a player rolls its own token's attack die and is refused
(``dice_refused``) for another's; the GM brings in a reinforcement with the table's
dice, placed by the game's tie rule; the GM changes a sheet (a player may not, nor may a
stat the game does not play); and a restart replays the log holding all of it to the
same state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import protocol
from tests.bridge.conftest import running, table_fingerprint
from tests.wsclient import wire_data

SET_STATS: Any = protocol.CLIENT_MESSAGE_TYPES["set_stats"]


def mm_token(tid: str, owner: str, x: int, dex: int) -> dict[str, Any]:
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


async def test_players_roll_their_own_dice_and_the_gm_changes_a_running_fight(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("night", ["alice", "bob"], dice="players")
        gm = await bridge.member(table, "gm")
        alice, bob = await bridge.member(table, "alice"), await bridge.member(table, "bob")
        assert isinstance(await gm.reply_to(await gm.send(protocol.LoadScene, scene=SCENE)),
                          protocol.Ack)  # fmt: skip
        # The GM gives every initiative die: Flash 10 + 4 = 14, Bolt 5 + 2 = 7, Brute 2 + 1.
        seq = await gm.send(protocol.StartCombat, ruleset="mm3e", seed=5, rolls=(10, 5, 2))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)

        # Bob may not roll for Alice's Flash; nothing changes.
        shot = {"target": "brute", "reach": "close", "rolls": [15]}
        before = table_fingerprint(table)
        seq = await bob.send(protocol.Act, token="flash", action="attack", params=shot)
        refused = await bob.reply_to(seq)
        assert isinstance(refused, protocol.ErrorMessage)
        assert (refused.code, refused.path) == ("dice_refused", "body.params.rolls")
        assert "'alice'" in refused.message
        assert table_fingerprint(table) == before
        # Alice rolls her own: the die is the table's and says who rolled it.
        seq = await alice.send(protocol.Act, token="flash", action="attack", params=shot)
        assert isinstance(await alice.reply_to(seq), protocol.Ack)
        rolled = wire_data(await gm.event("dice_rolled"))
        while rolled["purpose"].startswith("initiative"):  # the start's dice come first
            rolled = wire_data(await gm.event("dice_rolled"))
        assert (rolled["results"], rolled["source"], rolled["by"]) == ([15], "table", "alice")

        # A reinforcement with the table's dice: Goon 5 + 2 = 7 ties Bolt at equal
        # modifiers, so a d20 each: 7 and 7, again 15 and 3: the Goon goes first.
        goon = protocol.TokenSpec.from_wire(mm_token("goon", "gm", 7, 2))
        seq = await gm.send(protocol.JoinCombat, token=goon, rolls=(5, 7, 7, 15, 3))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        order = wire_data(await gm.event("initiative_order"))
        while order["order"] == ["flash", "bolt", "brute"]:  # the start's, before the join
            order = wire_data(await gm.event("initiative_order"))
        assert order["order"] == ["flash", "goon", "bolt", "brute"]

        # The GM changes Bolt's Dexterity: the check stands for the fight.
        seq = await bob.send(SET_STATS, token="bolt", stats={"dexterity": 5})
        refused = await bob.reply_to(seq)
        assert isinstance(refused, protocol.ErrorMessage) and refused.code == "gm_only"
        seq = await gm.send(SET_STATS, token="bolt", stats={"spd": 3})
        refused = await gm.reply_to(seq)
        assert isinstance(refused, protocol.ErrorMessage) and refused.code == "unknown_stat"
        assert "dexterity" in refused.message
        seq = await gm.send(SET_STATS, token="bolt", stats={"dexterity": 5})
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        changed = wire_data(await bob.event("stats_changed"))
        assert changed == {"combatant": "bolt", "stats": [["dexterity", 5]], "order_kept": True}
        combat = table.encounter.state.combat
        assert combat is not None and combat.order == ("flash", "goon", "bolt", "brute")
        state = table.encounter.state_hash()

    async with running(tmp_path) as again:
        reloaded = again.hub.tables[table.id]
        assert reloaded.encounter.state_hash() == state
        assert again.hub.load_reports[table.id].divergences == []
