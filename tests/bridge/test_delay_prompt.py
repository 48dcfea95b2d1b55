"""Seed 000, *Delay*, over the wire: a delay with no place named is asked at the end of
the Phase (a ``delayed_action`` prompt with a deadline); left unanswered it keeps
waiting, and the next Phase opens."""

from __future__ import annotations

import protocol
from tests.bridge.conftest import Bridge
from tests.scenario import scene_spec


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
    assert closed.data["outcome"] == "expired"
    started = await alice.event("phase_started")
    assert (started.data["turn"], started.data["phase"]) == (1, 2)
    # Phase 2: the hero's own INIT comes before it took the delay: it lapses.
    assert (await alice.event("hold_lapsed")).data == {"combatant": "hero", "hold": "delay"}
    acts = await alice.event("combatant_acts")
    assert acts.data["combatant"] == "hero"
