"""The server describes its rulesets, against a real bridge: ``list_rulesets``,
``describe_ruleset``, and the description a member joining with ``describe`` gets
right after its ``welcome`` (the running fight's).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import protocol
from engine.describe import catalogue, describe
from engine.serial import to_plain
from protocol.describe import DescribeRuleset, ListRulesets, RulesetDescription, RulesetList
from tests.bridge.conftest import Bridge, table_fingerprint, token_of
from tests.scenario import scene_spec
from vtt_bridge.describing import description

ROOT = Path(__file__).resolve().parents[2]


def answering(seq: int) -> Callable[[Any], bool]:
    """Whether a message answers the client message ``seq``."""
    return lambda message: bool(message.ref == seq)


async def test_list_and_describe_every_ruleset(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    alice = await bridge.member(table, "alice")
    before = table_fingerprint(table)
    seq = await alice.send(ListRulesets)
    listed = await alice.wait_for(RulesetList, lambda m: m.ref == seq)
    assert [(r.name, r.title) for r in listed.rulesets] == list(catalogue())
    for entry in listed.rulesets:
        seq = await alice.send(DescribeRuleset, ruleset=entry.name)
        described = await alice.wait_for(RulesetDescription, answering(seq))
        wire = protocol.to_wire(described)["body"]
        assert {k: v for k, v in wire.items() if k != "ref"} == to_plain(describe(entry.name))
    assert table_fingerprint(table) == before  # asking changes nothing


async def test_an_unknown_ruleset_is_refused_naming_those_played(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    alice = await bridge.member(table, "alice")
    seq = await alice.send(DescribeRuleset, ruleset="dnd5e")
    refused = await alice.reply_to(seq)
    assert isinstance(refused, protocol.ErrorMessage)
    assert (refused.code, refused.path) == ("unknown_ruleset", "body.ruleset")
    assert "hero-supplement" in refused.message


async def test_a_join_asking_for_it_gets_the_running_fights_description(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    gm = await bridge.member(table, "gm")
    seq = await gm.send(protocol.LoadScene, scene=scene_spec())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)

    quiet = await bridge.connect()  # no fight yet: the list, and no description
    await quiet.send(protocol.Join, token=token_of(table, "alice"), describe=True)
    assert isinstance(await quiet.next(), protocol.Welcome)
    assert isinstance(await quiet.next(), RulesetList)
    assert isinstance(await quiet.next(), protocol.State)

    seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=7)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    late = await bridge.connect()
    await late.send(protocol.Join, token=token_of(table, "alice"), describe=True)
    assert isinstance(await late.next(), protocol.Welcome)
    assert isinstance(await late.next(), RulesetList)
    described = await late.next()
    assert isinstance(described, RulesetDescription)
    assert (described.name, described.ref) == ("hero-supplement", None)
    units = [(u.key, u.name, u.seconds) for u in described.time.units]
    assert units == [("turn", "Turn", 12), ("phase", "Phase", 3)]
    assert (described.time.surprise, described.time.action) == ("Surprise Phase", "Phase")
    prompts = {p.kind: p for p in described.prompts}
    aoo = prompts["attack_of_opportunity"]
    assert (aoo.accept, aoo.decline) == ("Attack", "Let them pass")
    assert isinstance(await late.next(), protocol.State)

    plain = await bridge.connect()  # a join that does not ask gets what it always did
    await plain.send(protocol.Join, token=token_of(table, "alice"))
    assert isinstance(await plain.next(), protocol.Welcome)
    assert isinstance(await plain.next(), protocol.State)


def test_every_description_fits_one_frame_with_room_to_grow() -> None:
    # A client reads frames of up to protocol.MAX_FRAME_BYTES; a description is one
    # message, so it must fit one (half of it: a game may grow).
    for name, _ in catalogue():
        frame = protocol.encode_json(description(name, 1).renumbered(1))
        assert len(frame) < protocol.MAX_FRAME_BYTES // 2, (name, len(frame))


def test_answers_built_once_carry_each_askers_ref_and_equal_a_fresh_build() -> None:
    """The descriptions and the list are built once and shared: each answer is its own
    copy under the asker's ``ref``, byte for byte what building it anew gives."""
    from protocol.wire import read
    from vtt_bridge.describing import ruleset_list

    for name, _ in catalogue():
        first, second = description(name, 3), description(name, 9)
        assert (first.ref, second.ref, description(name, None).ref) == (3, 9, None)
        fresh = read(RulesetDescription, {"seq": 0, "ref": 9, **to_plain(describe(name))})
        assert protocol.encode_msgpack(second) == protocol.encode_msgpack(fresh)
        assert protocol.encode_json(second) == protocol.encode_json(fresh)
    assert (ruleset_list(4).ref, ruleset_list(None).ref) == (4, None)


def test_prepared_protocol_reads_a_first_message_without_working_anything_out() -> None:
    """After ``protocol.prepare`` (the server's start), the first message of a kind
    reads with no plan left to work out: none of that lands on the loop at a join.  In
    a fresh interpreter, where nothing has been read yet."""
    script = textwrap.dedent(
        """
        import protocol
        from protocol import wire

        protocol.prepare()
        before = wire._plan_of.cache_info().misses
        for kind, body in [
            ("join", {"token": "tok", "last_event": None, "client": "c", "describe": True}),
            ("move_points", {"token": "t", "points": [[1, 2], [3, 4]]}),
            ("describe_ruleset", {"ruleset": "mm3e"}),
            ("load_scene", {"scene": {"grid": {"kind": "square"}, "tokens": []}}),
        ]:
            try:
                protocol.client_from_wire({"v": 1, "type": kind, "seq": 1, "body": body})
            except protocol.ProtocolError:
                pass  # a refusal reads the same plans
        print(wire._plan_of.cache_info().misses - before)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "0"
