"""Admin messages take effect as they arrive and are answered in queue order, as a
replay (one frame at a time) has them."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import protocol
from tests.bridge.test_foundation_path import fight_started
from vtt_bridge.app import CONFIG

NEW_TIMEOUT_MS = 123_456


async def test_settings_apply_to_commands_received_while_they_are_stored(tmp_path: Path) -> None:
    async with fight_started(tmp_path) as (app, gm, alice):
        database = app[CONFIG].database
        # Another process holds the write lock, so the settings cannot be stored yet.
        other = sqlite3.connect(database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            configure = await gm.send(
                protocol.ConfigureTable, dice=None, prompt_timeout_ms=NEW_TIMEOUT_MS
            )
            await asyncio.sleep(0.3)  # received, still waiting for the database
            before = app[CONFIG].clock()
            move = await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5), (1, 5)))
            await asyncio.sleep(0.3)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert isinstance(await alice.reply_to(move), protocol.Ack)
        prompt = await gm.wait_for(protocol.Prompt)
        # The move came after the settings: its prompt has the new deadline.
        assert prompt.deadline_ms >= before + NEW_TIMEOUT_MS
        acknowledged = next(
            m for m in gm.inbox if isinstance(m, protocol.Ack) and m.ref == configure
        )
        # Answered in queue order: the settings' ack before the move's broadcast.
        started = next(
            m for m in gm.inbox if isinstance(m, protocol.Event) and m.kind == "move_started"
        )
        assert gm.inbox.index(acknowledged) < gm.inbox.index(started)


async def test_a_token_is_issued_after_the_commands_sent_before_it(tmp_path: Path) -> None:
    async with fight_started(tmp_path) as (_, gm, _alice):
        # The GM's connection does not wait for its command's commit before reading the
        # next frame; the answer to the next frame still comes after the command's.
        moved = await gm.send(protocol.Move, token="hero", path=((3, 4),))
        issued = await gm.send(protocol.IssueToken, participant="carol", role="player")
        reply = await gm.wait_for(protocol.TokenIssued)
        assert reply.ref == issued
        acks = [m for m in gm.inbox if isinstance(m, protocol.Ack) and m.ref == moved]
        assert acks and gm.inbox.index(acks[0]) < gm.inbox.index(reply)
