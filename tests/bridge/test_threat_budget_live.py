"""Over a real server: the probe's scene of issue 22 (a 110 m reach among 600 walls) is
refused at ``load_scene`` with ``bad_scene`` naming the figures and the limit, before
anything is built; the table keeps the scene it had, and answers about it as before."""

from __future__ import annotations

import protocol
from bench.hostile_reach import tower_scene
from engine.scene_checks import MAX_THREAT_MS
from protocol.threat import Threat
from tests.bridge.conftest import Bridge
from tests.bridge.test_fair_turns import walled_scene
from tests.bridge.test_threat_query import ask


async def test_the_probes_scene_is_refused_and_the_table_keeps_its_own(bridge: Bridge) -> None:
    table = bridge.table("towers", ["alice"])
    gm = await bridge.member(table, "gm")
    seq = await gm.send(protocol.LoadScene, scene=walled_scene())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    before = table.positions
    probe = protocol.SceneSpec.from_wire(tower_scene(110.0))
    seq = await gm.send(protocol.LoadScene, scene=probe)
    answer = await gm.reply_to(seq)
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "bad_scene"
    assert answer.message.startswith("token 'tower': working out its reach of 110 m")
    assert f"at most {MAX_THREAT_MS:g} ms" in answer.message
    assert table.positions == before  # nothing applied, nothing logged
    threat = await ask(gm, "hero")
    assert isinstance(threat, Threat) and threat.token == "hero"
    unknown = await ask(gm, "tower")
    assert isinstance(unknown, protocol.ErrorMessage) and unknown.code == "unknown_token"
