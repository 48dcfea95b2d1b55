"""One connection cannot slow the others down: bounded answers, fair turns, costed limits.

Real servers on loopback.  Nothing here is timed: the expensive messages must each be
answered or refused, a neighbour's backlog must not hold up a ``ping`` from another
table, and the rate limit must say why it closes a connection before it does.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import protocol
from tests.bridge.conftest import Bridge, closed_with, running, token_of
from tests.wsclient import TableClient
from vtt_bridge.costs import frame_cost
from vtt_bridge.recording import FileRecorder
from vtt_bridge.registry import ROWS
from vtt_bridge.tables import Table

FAR = 1e9  # pixels, far beyond any grid


def walled_scene(side: int = 1000, tokens: int = 2) -> protocol.SceneSpec:
    """A ``side``-square grid in Foundry pixels with the GM's ``hero`` at (5, 5), a
    player's ``scout`` at (8, 5), and a walled-in room at cells (20..23, 20..23)."""
    corners = [(20.0, 20.0), (24.0, 20.0), (24.0, 24.0), (20.0, 24.0)]
    walls = [
        {"id": f"w{i}", "a": list(corners[i]), "b": list(corners[(i + 1) % 4]),
         "blocks_move": True, "blocks_sight": True, "door": "none"}
        for i in range(4)
    ]  # fmt: skip
    owners = ["gm", "alice"] + ["gm"] * (tokens - 2)
    placed = [
        {"id": "hero" if i == 0 else "scout" if i == 1 else f"t{i}", "name": "n",
         "owner": owner, "side": "heroes",
         "x": (5, 8)[i] if i < 2 else i % 90, "y": 5 if i < 2 else 30 + i // 90,
         "size": 1, "reach": 1.0, "movement": 6.0, "stats": {"ocv": 3, "dcv": 3, "init": 8}}
        for i, owner in enumerate(owners)
    ]  # fmt: skip
    grid = {"kind": "square", "cell_size": 1.0, "unit": "m", "width": side, "height": side,
            "vtt": {"kind": "foundry", "grid_size": 100}}  # fmt: skip
    return protocol.SceneSpec.from_wire({"grid": grid, "tokens": placed, "walls": walls})


def masked_text_frame(text: str) -> bytes:
    """A client's WebSocket text frame (RFC 6455), masked with the all-zero key."""
    payload = text.encode()
    assert len(payload) < 65536
    if len(payload) < 126:
        length = bytes([0x80 | len(payload)])
    else:
        length = bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    return b"\x81" + length + b"\0\0\0\0" + payload


@asynccontextmanager
async def demo_member(
    tmp_path: Path, participant: str, **limits: Any
) -> AsyncIterator[tuple[Bridge, Table, TableClient]]:
    """A bridge with the demo table and the rate ``limits`` given, and one connection
    joined to it as ``participant`` (the join costs one token of the bucket)."""
    async with running(tmp_path, demo=True, **limits) as bridge:
        table = bridge.hub.table_by_name("demo")
        assert table is not None
        client = await bridge.connect()
        await client.join(token_of(table, participant))
        yield bridge, table, client


async def test_every_expensive_message_is_answered_or_refused(bridge: Bridge) -> None:
    table = bridge.table("noisy", ["alice"])
    gm = await bridge.member(table, "gm")
    seq = await gm.send(protocol.LoadScene, scene=walled_scene())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    ask, move = protocol.AskPath, protocol.MovePoints
    zigzag = tuple((FAR * (-1) ** i, FAR) for i in range(1024))  # the most points allowed
    across = ((99_900.0, 500.0), (99_900.0, 99_900.0), (0.0, 99_900.0))  # 2,987 steps
    probes: list[tuple[type[Any], dict[str, Any]]] = [
        (ask, {"token": "hero", "to": (21, 21)}),  # walled in, within the search limit
        (ask, {"token": "hero", "to": (999, 999)}),  # beyond the search limit
        (ask, {"token": "hero", "to": (5000, 5000)}),  # off the grid
        (ask, {"token": "scout", "to": (21, 21)}),  # somebody else's token: still answered
        (move, {"token": "hero", "points": ((FAR, FAR), (-FAR, -FAR))}),
        (move, {"token": "hero", "points": zigzag}),
        (move, {"token": "hero", "points": across}),
        (protocol.AskOptions, {"token": "hero"}),
        (protocol.Resync, {"after": -1}),
    ]  # fmt: skip
    for message_type, body in probes:
        seq = await gm.send(message_type, **body)
        if message_type is protocol.Resync:
            # Answered with the events it asks for; a ping behind it shows it is done.
            await gm.send(protocol.Ping)
            await gm.wait_for(protocol.Pong)
            continue
        answer = await gm.wait_for(
            (protocol.PathPlan, protocol.Options, protocol.ErrorMessage),
            lambda m, s=seq: m.ref == s,
        )
        if isinstance(answer, protocol.PathPlan):
            assert answer.path == () and answer.reason
        elif isinstance(answer, protocol.ErrorMessage):
            assert answer.code == "illegal_move", answer
    # Out of combat the far points are refused against the grid; in combat, out of
    # turn, by the turn, before anything is traced.
    start = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None)
    assert isinstance(await gm.reply_to(start), protocol.Ack)
    alice = await bridge.member(table, "alice")
    order = await alice.send(protocol.MovePoints, token="scout", points=((FAR, FAR), (-FAR, -FAR)))
    refusal = await alice.reply_to(order)
    assert isinstance(refusal, protocol.ErrorMessage)
    assert refusal.code in ("not_your_turn", "illegal_move")
    await alice.send(protocol.Ping)
    await alice.wait_for(protocol.Pong)


async def test_a_ping_from_another_table_overtakes_a_neighbours_backlog(tmp_path: Path) -> None:
    # The bridge's one clock ticks once a reading, and each table is recorded: the
    # recordings' "t" then give the order in which the server took every frame.
    ticks = itertools.count(1)
    limits = {"rate_limit": 10_000, "rate_burst": 10_000}
    async with running(tmp_path, **limits, clock=lambda: next(ticks)) as bridge:
        quiet = bridge.table("quiet", ["bob"])
        noisy = bridge.table("noisy", ["alice"])
        recorders = []
        for table in (quiet, noisy):
            recorder = FileRecorder(tmp_path / f"{table.row.name}.jsonl", table, [], 0)
            table.recorder = recorder
            recorders.append(recorder)
        neighbour = await bridge.member(noisy, "gm")
        seq = await neighbour.send(protocol.LoadScene, scene=walled_scene())
        assert isinstance(await neighbour.reply_to(seq), protocol.Ack)
        other = await bridge.member(quiet, "bob")
        backlog = 60
        # Written in one piece, so the server finds every one of them buffered on one
        # socket at once: each is a full search for a walled-in cell.
        asks = [
            protocol.encode_json(protocol.AskPath(seq=100 + i, token="hero", to=(21, 21)))
            for i in range(backlog)
        ]
        blob = b"".join(masked_text_frame(frame) for frame in asks)
        assert os.write(neighbour.ws.get_extra_info("socket").fileno(), blob) == len(blob)
        first = await neighbour.wait_for(protocol.PathPlan)
        assert first.ref == 100
        await other.send(protocol.Ping)
        await other.wait_for(protocol.Pong)
        for _ in range(backlog - 1):
            await neighbour.wait_for(protocol.PathPlan)
        for client in (neighbour, other):
            await client.close()
        for recorder in recorders:
            recorder.close()
    taken = {name: frames_taken(tmp_path / f"{name}.jsonl") for name in ("quiet", "noisy")}
    ping_at = next(t for t, kind in taken["quiet"] if kind == "ping")
    asks_at = [t for t, kind in taken["noisy"] if kind == "ask_path"]
    assert len(asks_at) == backlog
    # Taken while the neighbour's backlog was still being worked off, not after it.
    assert asks_at[0] < ping_at < asks_at[-1]


def frames_taken(recording: Path) -> list[tuple[int, str]]:
    """Each inbound frame of a recording: the clock reading it was taken at, its type."""
    out = []
    for line in recording.read_text().splitlines():
        record = json.loads(line)
        if record.get("record") == "in":
            out.append((record["t"], json.loads(record["text"])["type"]))
    return out


async def test_the_rate_limit_explains_itself_before_it_closes(tmp_path: Path) -> None:
    limits = {"rate_limit": 0.001, "rate_burst": 5}
    async with demo_member(tmp_path, "alice", **limits) as (bridge, _, client):  # 1 token
        for _ in range(4):  # 4 tokens: the bucket is empty
            await client.send(protocol.Ping)
            await client.wait_for(protocol.Pong)
        refused = await client.send(protocol.Ping)
        error = await client.wait_for(protocol.ErrorMessage)
        assert error.code == "rate_limited" and error.ref == refused
        assert "'ping' costs 1 of 5 tokens" in error.message
        assert await closed_with(client.ws) == 1008
        assert bridge.hub.metrics.snapshot()["rate_limited"] == 1


async def test_a_path_question_costs_more_than_a_ping(tmp_path: Path) -> None:
    ask_cost = frame_cost(100) + ROWS[protocol.AskPath].price(None)
    assert ask_cost > frame_cost(100)
    # Room for the join, one path question and a few pings, but not two questions.
    burst = 1 + ask_cost + 3
    limits = {"rate_limit": 0.001, "rate_burst": burst}
    async with demo_member(tmp_path, "gm", **limits) as (_, _, client):
        seq = await client.send(protocol.AskPath, token="nobody", to=(1, 1))
        assert (await client.wait_for(protocol.PathPlan)).ref == seq
        seq = await client.send(protocol.AskPath, token="nobody", to=(1, 1))
        error = await client.wait_for(protocol.ErrorMessage)
        assert error.code == "rate_limited" and error.ref == seq
        assert "'ask_path' costs" in error.message
        assert await closed_with(client.ws) == 1008


async def test_frames_are_charged_by_size(tmp_path: Path) -> None:
    scene = walled_scene(side=100, tokens=120)
    frame = protocol.encode_json(protocol.LoadScene(seq=2, scene=scene))
    cost = frame_cost(len(frame))
    assert cost > 5
    limits = {"rate_limit": 0.001, "rate_burst": cost}
    # The join costs 1 token: one short of the scene.
    async with demo_member(tmp_path, "gm", **limits) as (_, table, client):
        await client.send_raw(frame)
        error = await client.wait_for(protocol.ErrorMessage)
        assert error.code == "rate_limited" and error.ref == 2
        assert "'load_scene'" in error.message
        assert await closed_with(client.ws) == 1008
        assert table.positions == 0  # nothing was applied


async def test_a_frame_costing_more_than_the_bucket_takes_a_full_bucket(tmp_path: Path) -> None:
    scene = walled_scene(side=100, tokens=120)
    frame = protocol.encode_json(protocol.LoadScene(seq=2, scene=scene))
    assert frame_cost(len(frame)) > 4
    # A bucket of 4 refilling fast: the scene is accepted once the bucket is full.
    limits = {"rate_limit": 1000, "rate_burst": 4}
    async with demo_member(tmp_path, "gm", **limits) as (_, _, client):
        await asyncio.sleep(0.05)
        await client.send_raw(frame)
        assert isinstance(await client.reply_to(2), protocol.Ack)
