"""Seed 000, *Delay*, over the wire: a delay with no place named is asked at the end of
the Phase (a ``delayed_action`` prompt with a deadline); left unanswered it keeps
waiting, and the next Phase opens."""

from __future__ import annotations

import protocol
from tests.bridge.conftest import Bridge
from tests.scenario import scene_spec
from tests.wsclient import wire_data


async def test_an_unanswered_delayed_action_prompt_keeps_the_delay_waiting(
    bridge: Bridge,
) -> None:
    table = bridge.table("delay", ["alice"], prompt_timeout=0.2)
    gm = await bridge.member(table, "gm")
    alice = await bridge.member(table, "alice")
    seq = await gm.send(protocol.LoadScene, scene=scene_spec())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=4)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    seq = await alice.send(
        protocol.Act, token="hero", action="delay", params={"before": None}
    )  # the hero acts first
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    seq = await gm.send(protocol.EndPhase, token="ogre")  # the order is done
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    prompt = await alice.wait_for(protocol.Prompt)
    assert (prompt.kind, prompt.attacker) == ("delayed_action", "hero")
    closed = await alice.event("prompt_closed")
    assert wire_data(closed)["outcome"] == "expired"
    started = await alice.event("pass_started")
    assert wire_data(started)["clock"] == {
        "at": {"turn": 1, "phase": 2},
        "label": "Turn 1, Phase 2",
    }
    # Phase 2: the hero's own INIT comes before it took the delay: it lapses.
    assert wire_data(await alice.event("hold_lapsed")) == {"combatant": "hero", "hold": "delay"}
    acts = await alice.event("combatant_acts")
    assert wire_data(acts)["combatant"] == "hero"
