"""``act`` over a real server: a ruleset action reaches the engine only after the bridge
checked its params against the action's declaration (a typed error with a path), and
params declared as dice fall under the table's dice policy.  The toy ruleset
(``tests/toy_ruleset.py``) is the game."""

from __future__ import annotations

import protocol
import tests.toy_ruleset  # noqa: F401  (registers the toy ruleset)
from tests.bridge.conftest import Bridge, table_fingerprint
from tests.wsclient import wire_data

SCENE = {
    "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 10, "height": 10},
    "tokens": [
        {"id": "a", "name": "A", "owner": "alice", "side": "x", "x": 0, "y": 0, "size": 1,
         "reach": 1.0, "movement": 4.0, "stats": {"speed": 50}},
        {"id": "b", "name": "B", "owner": "gm", "side": "y", "x": 1, "y": 0, "size": 1,
         "reach": 1.0, "movement": 4.0, "stats": {"speed": 0}},
    ],
}  # fmt: skip


async def test_act_params_are_checked_by_the_bridge_then_run(bridge: Bridge) -> None:
    table = bridge.table("toy", ["alice"], dice="gm")
    gm, alice = await bridge.member(table, "gm"), await bridge.member(table, "alice")
    seq = await gm.send(protocol.LoadScene, scene=protocol.SceneSpec.from_wire(SCENE))
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    seq = await gm.send(protocol.StartCombat, ruleset="toy-duel", aware=None, seed=5)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)

    before = table_fingerprint(table)
    seq = await alice.send(
        protocol.Act, token="a", action="zap", params={"target": "b", "power": 9}
    )
    error = await alice.reply_to(seq)
    assert isinstance(error, protocol.ErrorMessage)
    assert (error.code, error.path) == ("bad_value", "body.params.power")
    seq = await alice.send(protocol.Act, token="a", action="ambush", params={"on": "later"})
    error = await alice.reply_to(seq)
    assert isinstance(error, protocol.ErrorMessage)
    assert (error.code, error.path) == ("bad_value", "body.params.on")
    seq = await alice.send(
        protocol.Act, token="a", action="zap", params={"target": "b", "rolls": [6]}
    )
    error = await alice.reply_to(seq)
    assert isinstance(error, protocol.ErrorMessage)
    assert (error.code, error.path) == ("dice_refused", "body.params.rolls")
    seq = await alice.send(protocol.Act, token="a", action="fly", params={})
    error = await alice.reply_to(seq)
    assert isinstance(error, protocol.ErrorMessage) and error.code == "unknown_action"
    assert table_fingerprint(table) == before

    seq = await alice.send(protocol.AskOptions, token="a")
    options = await alice.wait_for(protocol.Options, lambda m: m.ref == seq)
    assert "zap" in options.available and "daze" not in options.available

    seq = await alice.send(protocol.Act, token="a", action="zap", params={"target": "b"})
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    zapped = await alice.event("toy_zapped")
    assert wire_data(zapped)["attacker"] == "a" and wire_data(zapped)["target"] == "b"

    seq = await alice.send(protocol.AskOptions, token="a")
    options = await alice.wait_for(protocol.Options, lambda m: m.ref == seq)
    used = protocol.Unavailable(
        action="zap", code="illegal_action", reason="the action is used this turn"
    )
    assert used in options.unavailable

    # The log holds the act as sent: replaying it from nothing rebuilds the same state.
    await gm.send(protocol.Ping)
    await gm.wait_for(protocol.Pong)
    assert bridge.hub.full_replay_hash(table.id) == table.encounter.state_hash()
