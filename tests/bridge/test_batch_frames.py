"""Batch frames on a real server: a client that joins with ``batch`` may get several
messages in one frame; one that does not never does, and both read the same messages."""

from __future__ import annotations

import pytest

import protocol
from tests.bridge.conftest import Bridge

SCENE = protocol.SceneSpec.from_wire(
    {
        "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 12, "height": 12},
        "tokens": [
            {"id": "hero", "name": "Hero", "owner": "alice", "side": "heroes", "x": 0, "y": 0,
             "size": 1, "reach": 1.0, "movement": 6.0, "stats": {}},
            {"id": "ogre", "name": "Ogre", "owner": "gm", "side": "monsters", "x": 8, "y": 8,
             "size": 1, "reach": 1.0, "movement": 6.0, "stats": {}},
        ],
    }
)  # fmt: skip


@pytest.mark.parametrize("binary", [False, True], ids=["json", "msgpack"])
async def test_the_ack_and_its_event_share_one_frame(bridge: Bridge, binary: bool) -> None:
    table = bridge.table("batching", ["alice"])
    gm = await bridge.member(table, "gm", binary=binary)
    alice = await bridge.member(table, "alice", binary=binary, batch=True)
    assert isinstance(
        await gm.reply_to(await gm.send(protocol.LoadScene, scene=SCENE)), protocol.Ack
    )
    await alice.event("scene_loaded")

    before = len(alice.frame_sizes)
    seq = await alice.send(protocol.Move, token="hero", path=((1, 1),))
    ack = await alice.reply_to(seq)
    placed = await alice.event("token_placed")
    assert isinstance(ack, protocol.Ack) and ack.first_event == placed.index
    # Queued together by the commit, sent together: one frame of [ack, event].
    assert alice.frame_sizes[before:] == [2]
    assert [m.seq for m in alice.inbox] == list(range(1, len(alice.inbox) + 1))

    await gm.event("token_placed")
    assert set(gm.frame_sizes) == {1}  # no batch asked: one message a frame, always


async def test_batching_and_plain_members_read_the_same_messages(bridge: Bridge) -> None:
    table = bridge.table("same", ["alice"])
    gm = await bridge.member(table, "gm", binary=True)
    plain = await bridge.member(table, "spectator-1")
    batching = await bridge.member(table, "alice", binary=True, batch=True)
    await gm.reply_to(await gm.send(protocol.LoadScene, scene=SCENE))
    # The GM sends many moves without waiting: they commit together and their events
    # queue up for each member faster than one frame at a time.
    sent = [
        await gm.send(protocol.Move, token="ogre", path=((8, 8 - (i + 1) % 2),)) for i in range(40)
    ]
    for seq in sent:
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
    last = table.last_event()
    for member in (plain, batching):
        await member.wait_for(protocol.Event, lambda m: m.index == last)

    def events(member: object) -> list[tuple[int, str, object]]:
        inbox = member.inbox  # type: ignore[attr-defined]
        return [(m.index, m.kind, m.data) for m in inbox if isinstance(m, protocol.Event)]

    assert events(batching) == events(plain)
    assert len(events(plain)) == 41  # scene_loaded and forty token_placed
    assert set(plain.frame_sizes) == {1}
    assert max(batching.frame_sizes) > 1
    assert sum(batching.frame_sizes) == len(batching.inbox)
