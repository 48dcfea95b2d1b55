"""``end_combat`` over a real server: the GM ends a fight (a player is refused
``gm_only``, changing nothing), every member sees what ended and ``combat_ended``, a
member catching up gets the same events from the log, a restart replays the log to the
same state, and the table loads a scene and starts a second fight afterwards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import protocol
from tests.bridge.conftest import running, table_fingerprint, token_of
from tests.wsclient import wire_data

END_COMBAT: Any = protocol.CLIENT_MESSAGE_TYPES["end_combat"]
SCENE = protocol.SceneSpec.from_wire(
    {
        "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 10, "height": 10},
        "tokens": [
            {"id": "flash", "name": "Flash", "owner": "alice", "side": "heroes", "x": 0, "y": 0,
             "size": 1, "reach": 1.0, "movement": 6.0,
             "stats": {"dexterity": 4, "dodge": 6, "parry": 5}},
            {"id": "brute", "name": "Brute", "owner": "gm", "side": "villains", "x": 5, "y": 5,
             "size": 1, "reach": 1.0, "movement": 6.0,
             "stats": {"dexterity": 1, "dodge": 3, "parry": 4}},
        ],
    }
)  # fmt: skip


async def test_the_gm_ends_a_fight_everyone_sees_it_and_it_survives_a_restart(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("night", ["alice"])
        gm, alice = await bridge.member(table, "gm"), await bridge.member(table, "alice")
        seq = await gm.send(protocol.LoadScene, scene=SCENE)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        seq = await gm.send(protocol.StartCombat, ruleset="mm3e", seed=5)
        started = await gm.reply_to(seq)
        assert isinstance(started, protocol.Ack)
        seq = await gm.send(protocol.SetEffect, name="darkness", token="brute", rounds=3)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)

        before = table_fingerprint(table)
        seq = await alice.send(END_COMBAT, reason="I am bored")
        refused = await alice.reply_to(seq)
        assert isinstance(refused, protocol.ErrorMessage) and refused.code == "gm_only"
        assert table_fingerprint(table) == before  # a refusal changes nothing

        seq = await gm.send(END_COMBAT, reason="the villain fled")
        ack = await gm.reply_to(seq)
        assert isinstance(ack, protocol.Ack) and ack.first_event is not None
        assert ack.last_event == ack.first_event + 1
        for member in (gm, alice):
            ended = await member.event("effect_ended")
            assert wire_data(ended)["reason"] == "combat_ended"
            over = await member.event("combat_ended")
            assert over.index == ack.last_event
            assert wire_data(over) == {"reason": "the villain fled"}
        assert table.encounter.state.combat is None

        # A member catching up from before the end gets the same two events, logged.
        late = await bridge.connect()
        await late.join(token_of(table, "spectator-1"), last_event=ack.first_event - 1)
        caught = [await late.event("effect_ended"), await late.event("combat_ended")]
        assert [e.index for e in caught] == [ack.first_event, ack.last_event]
        state = table.encounter.state_hash()

    async with running(tmp_path) as again:
        reloaded = again.hub.tables[table.id]
        assert reloaded.encounter.state_hash() == state
        assert again.hub.load_reports[table.id].divergences == []
        gm = await again.member(reloaded, "gm")
        seq = await gm.send(protocol.LoadScene, scene=SCENE)  # no longer combat_active
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        seq = await gm.send(protocol.StartCombat, ruleset="mm3e", seed=6)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        assert reloaded.encounter.state.combat is not None
        seq = await gm.send(END_COMBAT)  # the reason may be left out
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        assert wire_data(await gm.event("combat_ended")) == {"reason": None}
