"""The server's garbage collection (:mod:`vtt_bridge.heap`) on a real server: what
survives a collection is frozen (the next one does not walk it), a garbage cycle among
frozen objects is collected by the full collection the event loop runs once the frozen
objects have grown, play goes on meanwhile, and at shutdown Python's own collection is
back with nothing left frozen."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import protocol
from tests.bridge.conftest import running
from tests.bridge.test_batch_frames import SCENE
from vtt_bridge.appkeys import COLLECTIONS


class Node:
    """A weakly referable object for a garbage cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def walked(obj: object) -> bool:
    """Whether a collection would walk ``obj`` (it is in a generation, not frozen)."""
    return any(o is obj for o in gc.get_objects())


async def test_survivors_are_frozen_and_a_full_collection_frees_their_cycles(
    tmp_path: Path,
) -> None:
    threshold = gc.get_threshold()
    async with running(tmp_path, rate_limit=10_000, rate_burst=10_000) as bridge:
        collections = bridge.server.app[COLLECTIONS]
        assert gc.get_threshold()[0] == collections.young
        table = bridge.table("heap", ["alice"])
        gm = await bridge.member(table, "gm")
        alice = await bridge.member(table, "alice")
        assert isinstance(
            await gm.reply_to(await gm.send(protocol.LoadScene, scene=SCENE)), protocol.Ack
        )

        # A cycle made now, still referenced: a young collection leaves it frozen.
        a, b = Node(), Node()
        a.other, b.other = b, a
        gc.collect(0)
        assert not walked(a) and not walked(b)
        gone = weakref.ref(a)
        del a, b
        gc.collect()  # frozen: no collection of Python's own finds the cycle
        assert gone() is not None

        # A connection closed since the last full collection: with no
        # share of garbage asked for, a full collection is due, and the loop runs it
        # while alice plays on.
        collections.min_interval = collections.spacing = collections.growth = 0.0
        before = collections.full_collections
        visitor = await bridge.member(table, "spectator-1")
        await visitor.close()
        for y in range(1, 40):
            seq = await alice.send(protocol.Move, token="hero", path=((0, 1 + (y + 1) % 2),))
            assert isinstance(await alice.reply_to(seq), protocol.Ack)
            if collections.full_collections > before:
                break
            await asyncio.sleep(0.1)
        assert collections.full_collections > before
        assert gone() is None  # the full collection freed the cycle
        assert not collections.due

    # Shut down: Python's collection as it was, nothing frozen, no callback left.
    assert gc.get_threshold() == threshold
    assert gc.get_freeze_count() == 0
    assert collections._collected not in gc.callbacks


async def test_python_s_thresholds_come_back_when_the_last_of_two_servers_stops(
    tmp_path: Path,
) -> None:
    threshold = gc.get_threshold()
    async with running(tmp_path / "b") as second:
        young = second.server.app[COLLECTIONS].young
        async with running(tmp_path / "a"):
            assert gc.get_threshold()[0] == young
        # One server of the process stopped: the other's policy still runs.
        assert gc.get_threshold()[0] == young
        a = Node()
        gc.collect(0)
        assert not walked(a)
    assert gc.get_threshold() == threshold
