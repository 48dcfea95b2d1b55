"""A long catch-up takes turns with the other tables: building the messages of a window
of big events (``resync`` from the start after many large scene loads) yields the event
loop every few milliseconds (``membership.CATCH_UP_SLICE_S``), so another table's
``ping`` is answered before the catch-up is done, and the member still gets every event
in order.  A real hub on a SQLite file; nothing timed: the slice is set to zero, so the
catch-up yields after every message whatever this machine's speed (a 5 ms slice holds a
whole window of these events now that building them is cheap)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import protocol
from tests.bridge.test_fair_turns import walled_scene
from vtt_bridge import membership
from vtt_bridge.hub import Hub
from vtt_bridge.store import Store
from vtt_bridge.tables import Session

LOADS = 12


async def test_another_tables_ping_is_answered_during_a_long_catch_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(membership, "CATCH_UP_SLICE_S", 0.0)
    hub = Hub(Store(tmp_path / "db.sqlite3"))
    try:
        noisy = hub.create_table("noisy", [])
        quiet = hub.create_table("quiet", [])
        said: list[tuple[str, protocol.ServerMessage]] = []
        gm = Session("gm", lambda m: said.append(("noisy", m)))
        other = Session("other", lambda m: said.append(("quiet", m)))
        for session, table in ((gm, noisy), (other, quiet)):
            token = next(t.token for t in table.tokens.values() if t.role == "gm")
            await hub.receive(session, protocol.encode_json(protocol.Join(seq=1, token=token)), 0)
        scene = walled_scene(side=200, tokens=400)
        for i in range(LOADS):
            load = protocol.LoadScene(seq=2 + i, scene=scene)
            await hub.receive(gm, protocol.encode_json(load), 0)
            await hub.drain()
        said.clear()
        resync = protocol.encode_json(protocol.Resync(seq=100, after=-1))
        catching_up = asyncio.create_task(hub.receive(gm, resync, 0))
        await asyncio.sleep(0)  # the catch-up has started and holds the loop until it yields
        await hub.receive(other, protocol.encode_json(protocol.Ping(seq=2)), 0)
        pong = next(i for i, (who, m) in enumerate(said) if who == "quiet")
        assert isinstance(said[pong][1], protocol.Pong)
        await catching_up
        events = [m for who, m in said if who == "noisy" and isinstance(m, protocol.Event)]
        assert [e.index for e in events] == sorted(e.index for e in events)
        assert len([e for e in events if e.kind == "scene_loaded"]) == LOADS
        assert pong < max(i for i, (who, _) in enumerate(said) if who == "noisy")
    finally:
        hub.close()
