"""``ask_threat`` and ``ask_exits`` against a real bridge: the cells a token threatens,
its reach area, and where a move along a path would be stopped.

The foundation scene (tests/scenario.py): a 12x12 1 m grid, the GM's ogre at (5, 5)
and Alice's hero at (4, 5), both with 1 m of reach, so each threatens its eight
neighbours (seed 000, *Attacks of Opportunity*: the squares it can melee into).
"""

from __future__ import annotations

from typing import Any

import protocol
from protocol.threat import AskExits, AskThreat, Exits, PathExit, Threat
from tests.bridge.conftest import Bridge
from tests.scenario import scene_body, scene_spec
from tests.wsclient import TableClient, wire_data


def neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """The eight cells around ``(col, row)``, sorted: 1 m of reach on a 1 m grid."""
    return sorted(
        (col + dc, row + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)
    )


async def ask(client: TableClient, token: str) -> Threat | protocol.ErrorMessage:
    seq = await client.send(AskThreat, token=token)
    reply = await client.wait_for((Threat, protocol.ErrorMessage), lambda m: m.ref == seq)
    assert isinstance(reply, Threat | protocol.ErrorMessage)
    return reply


async def members(bridge: Bridge) -> tuple[Any, TableClient, TableClient, TableClient]:
    table = bridge.table("t", ["alice"])
    gm = await bridge.member(table, "gm")
    alice = await bridge.member(table, "alice", binary=True)
    watcher = await bridge.member(table, "spectator-1")
    seq = await gm.send(protocol.LoadScene, scene=scene_spec())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    return table, gm, alice, watcher


async def start(gm: TableClient) -> None:
    seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=7)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)


async def test_everyone_sees_the_cells_an_enemy_threatens(bridge: Bridge) -> None:
    table, gm, alice, watcher = await members(bridge)
    await start(gm)
    before = (table.encounter.state_hash(), len(table.events))
    for client in (gm, alice, watcher):  # a player and a spectator may ask about the ogre
        answer = await ask(client, "ogre")
        assert isinstance(answer, Threat), answer
        assert list(answer.cells) == neighbours(5, 5)
        assert (answer.foes, answer.attacks, answer.reason) == (("hero",), ("hero",), None)
        # The ogre's square grown by 1 m: one ring, the 3x3 cells from (4, 4) to (7, 7).
        assert len(answer.outline) == 1
        assert sorted(answer.outline[0]) == [(4.0, 4.0), (4.0, 7.0), (7.0, 4.0), (7.0, 7.0)]
    assert (table.encounter.state_hash(), len(table.events)) == before  # asking changes nothing


async def test_no_threat_outside_combat_but_the_reach_is_drawn(bridge: Bridge) -> None:
    _, _, alice, _ = await members(bridge)
    answer = await ask(alice, "ogre")
    assert isinstance(answer, Threat)
    assert answer.cells == () and answer.foes == () and answer.reason is not None
    assert "no combat" in answer.reason
    assert sorted(answer.outline[0]) == [(4.0, 4.0), (4.0, 7.0), (7.0, 4.0), (7.0, 7.0)]


async def test_a_creature_that_cannot_act_threatens_nobody(bridge: Bridge) -> None:
    _, gm, alice, _ = await members(bridge)
    await start(gm)
    seq = await gm.send(protocol.SetCondition, token="ogre", condition="cannot_act", on=True)
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    answer = await ask(alice, "ogre")
    assert isinstance(answer, Threat)
    assert answer.cells == () and answer.foes == ()
    assert answer.reason is not None and "threatens none" in answer.reason
    assert len(answer.outline) == 1  # the reach area is geometry: still there


async def test_a_wall_takes_its_cells_out_of_the_reach_area(bridge: Bridge) -> None:
    table = bridge.table("walled", ["alice"])
    gm = await bridge.member(table, "gm")
    body = scene_body()
    # A wall along x = 6 beside the ogre, from y = 3 to y = 8: the column east of it is
    # out of its reach, and the reach area's outline stops at the wall.
    body["walls"] = [
        {"id": "w1", "a": [6.0, 3.0], "b": [6.0, 8.0], "blocks_move": True, "blocks_sight": True,
         "door": "none"}
    ]  # fmt: skip
    seq = await gm.send(protocol.LoadScene, scene=protocol.SceneSpec.from_wire(body))
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    await start(gm)
    answer = await ask(gm, "ogre")
    assert isinstance(answer, Threat)
    assert list(answer.cells) == [c for c in neighbours(5, 5) if c[0] < 6]
    assert sorted(answer.outline[0]) == [(4.0, 4.0), (4.0, 7.0), (6.0, 4.0), (6.0, 7.0)]


async def test_unknown_token_and_no_scene_are_refused(bridge: Bridge) -> None:
    table = bridge.table("empty", ["alice"])
    alice = await bridge.member(table, "alice")
    refused = await ask(alice, "ogre")
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "no_scene"
    gm = await bridge.member(table, "gm")
    seq = await gm.send(protocol.LoadScene, scene=scene_spec())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    refused = await ask(alice, "dragon")
    assert isinstance(refused, protocol.ErrorMessage)
    assert (refused.code, refused.path) == ("unknown_token", "body.token")


async def test_hex_reach_outline(bridge: Bridge) -> None:
    """On a hex grid the outline is the seven hexes' outer edge: 18 corners."""
    table = bridge.table("hex", ["alice"])
    gm = await bridge.member(table, "gm")
    body = scene_body()
    body["grid"] = {**body["grid"], "kind": "hex_pointy", "offset": "odd"}
    seq = await gm.send(protocol.LoadScene, scene=protocol.SceneSpec.from_wire(body))
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    await start(gm)
    answer = await ask(gm, "ogre")
    assert isinstance(answer, Threat)
    assert len(answer.cells) == 6 and (4, 5) in answer.cells  # the hero's hex among them
    assert len(answer.outline) == 1 and len(answer.outline[0]) == 18


async def ask_exits(
    client: TableClient, token: str, path: tuple[tuple[int, int], ...]
) -> Exits | protocol.ErrorMessage:
    seq = await client.send(AskExits, token=token, path=path)
    reply = await client.wait_for((Exits, protocol.ErrorMessage), lambda m: m.ref == seq)
    assert isinstance(reply, Exits | protocol.ErrorMessage)
    return reply


async def test_the_exits_asked_are_where_the_move_stops(bridge: Bridge) -> None:
    table, gm, alice, watcher = await members(bridge)
    await start(gm)
    path = ((3, 5), (2, 5), (1, 5))
    before = (table.encounter.state_hash(), len(table.events))
    answer = await ask_exits(watcher, "hero", path)  # a spectator may ask too
    assert isinstance(answer, Exits), answer
    # Leaving (4, 5) westwards: the ogre's reach ends on the cell's west edge, x = 4.
    assert answer.exits == (
        PathExit(kind="attack_of_opportunity", by="ogre", step=0, at=(4, 5), point=(4.0, 5.5)),
    )
    assert answer.reason is None
    assert (table.encounter.state_hash(), len(table.events)) == before
    # Doing it stops exactly there.
    seq = await alice.send(protocol.Move, token="hero", path=path)
    assert isinstance(await alice.reply_to(seq), protocol.Ack)
    paused = await alice.event("move_interrupted")
    assert (wire_data(paused)["by"], wire_data(paused)["at"], wire_data(paused)["exit_point"]) == (
        "ogre",
        [4, 5],
        [4.0, 5.5],
    )


async def test_leaving_a_threatened_square_for_another_is_an_exit(bridge: Bridge) -> None:
    """Seed 000: moving *out of a square* an enemy threatens provokes, even into another
    square it threatens; the point is on the edge crossed, here the north one."""
    _, gm, alice, _ = await members(bridge)
    await start(gm)
    answer = await ask_exits(alice, "hero", ((4, 4),))  # still beside the ogre
    assert isinstance(answer, Exits)
    assert answer.exits == (
        PathExit(kind="attack_of_opportunity", by="ogre", step=0, at=(4, 5), point=(4.5, 5.0)),
    )


async def test_exits_outside_combat_and_refused_paths(bridge: Bridge) -> None:
    _, _, alice, _ = await members(bridge)
    answer = await ask_exits(alice, "hero", ((3, 5),))
    assert isinstance(answer, Exits) and answer.exits == ()
    assert answer.reason is not None and "no combat" in answer.reason
    refused = await ask_exits(alice, "hero", ((5, 5),))  # onto the ogre
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "illegal_move"
    refused = await ask_exits(alice, "hero", ((1, 1),))  # not a step
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "illegal_move"
    refused = await ask_exits(alice, "dragon", ((1, 1),))
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "unknown_token"
