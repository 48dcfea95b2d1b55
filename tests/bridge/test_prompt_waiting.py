"""The whole table sees an open prompt's countdown; only its controller may answer it.

Alice's hero leaves the GM's ogre's reach: the GM is sent the ``prompt`` to answer,
Alice (the mover) and Bob (not in this fight) ``prompt_waiting``, with the same deadline and time
left.  A member joining while the prompt is open is told the same deadline, less the
time that passed; once it is answered nobody is told of it again.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.test_foundation_path import demo_tokens
from tests.scenario import scene_spec
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app

#: The table's prompt timeout in this test, in seconds.
TIMEOUT_S = 45.0


class Clock:
    """The bridge's wall clock, moved by the test."""

    def __init__(self) -> None:
        self.now_ms = 1_796_000_000_000

    def __call__(self) -> int:
        return self.now_ms


async def test_every_member_sees_whom_a_prompt_waits_on_and_until_when(tmp_path: Path) -> None:
    clock = Clock()
    config = Config(
        database=tmp_path / "db.sqlite3", demo=True, prompt_timeout=TIMEOUT_S, clock=clock
    )
    app = create_app(config)
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        tokens = demo_tokens(app)
        url = str(server.make_url("/ws"))
        gm, alice, watcher = [await TableClient.connect(http, url) for _ in range(3)]
        await gm.join(tokens["gm"])
        await alice.join(tokens["alice"])
        await watcher.join(tokens["bob"])
        await gm.send(protocol.LoadScene, scene=scene_spec())
        await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
        await alice.event("combatant_acts")

        opened_at = clock.now_ms
        await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5)))
        asked = await gm.wait_for(protocol.Prompt)
        deadline = opened_at + int(TIMEOUT_S * 1000)
        assert (asked.deadline_ms, asked.remaining_ms) == (deadline, 45_000)
        for member in (alice, watcher):
            opened = await member.event("prompt_opened")
            waiting = await member.wait_for(protocol.PromptWaiting)
            assert waiting == protocol.PromptWaiting(
                seq=waiting.seq,
                prompt=asked.prompt,
                kind="attack_of_opportunity",
                controller="gm",
                deadline_ms=deadline,
                remaining_ms=45_000,
            )
            # Sent after the event that says what the prompt asks, never instead of it.
            assert member.inbox.index(opened) < member.inbox.index(waiting)
            assert not [m for m in member.inbox if isinstance(m, protocol.Prompt)]
        assert not [m for m in gm.inbox if isinstance(m, protocol.PromptWaiting)]

        # A member joining 12 s later counts down from the same deadline.
        clock.now_ms += 12_000
        late = await TableClient.connect(http, url)
        await late.join(tokens["alice"])
        waiting = await late.wait_for(protocol.PromptWaiting)
        assert (waiting.prompt, waiting.controller) == (asked.prompt, "gm")
        assert (waiting.deadline_ms, waiting.remaining_ms) == (deadline, 33_000)
        # The GM rejoining is asked again, with the same deadline.
        gm_again = await TableClient.connect(http, url)
        await gm_again.join(tokens["gm"])
        again = await gm_again.wait_for(protocol.Prompt)
        assert (again.prompt, again.deadline_ms, again.remaining_ms) == (
            asked.prompt,
            deadline,
            33_000,
        )

        # Answered: closed for everyone, and nobody joining later hears of it.
        seq = await gm.send(protocol.AnswerPrompt, prompt=asked.prompt, accept=False, rolls=None)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        await watcher.event("prompt_closed")
        after = await TableClient.connect(http, url)
        await after.join(tokens["bob"])
        await after.send(protocol.Ping)
        await after.wait_for(protocol.Pong)
        assert not [
            m for m in after.inbox if isinstance(m, (protocol.Prompt, protocol.PromptWaiting))
        ]
        for client in (gm, alice, watcher, late, gm_again, after):
            await client.close()
