"""Issue 2's path, end to end: a real server on loopback, a GM and a player client.

1. both join; the GM loads a scene and starts combat; everyone gets the initiative order
2. the player's move leaves a square the GM's ogre threatens: paused, the GM is prompted
3. the GM accepts: the Attack Roll is broadcast, the move completes, movement is charged
4. the player ends the Phase; the ogre's action is announced
5. the server restarts on the same database; the fight continues; reconnects catch up
6. a player moving the GM's creature or answering the GM's prompt is refused, no change
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

import protocol
from tests.scenario import scene_spec
from tests.wsclient import TableClient, wire_data
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.recording import replay


def demo_tokens(app: object) -> dict[str, str]:
    table = app[HUB].table_by_name("demo")  # type: ignore[index]
    return {g.participant: g.token for g in table.tokens.values()}


@contextlib.asynccontextmanager
async def fight_started(
    tmp_path: Path, **settings: Any
) -> AsyncIterator[tuple[web.Application, TableClient, TableClient]]:
    """A server with the foundation scene loaded and combat started; the hero is up.

    Yields the app, the GM's client and Alice's (binary) client.
    """
    app = create_app(Config(database=tmp_path / "db.sqlite3", demo=True, **settings))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        tokens = demo_tokens(app)
        url = str(server.make_url("/ws"))
        gm = await TableClient.connect(http, url)
        alice = await TableClient.connect(http, url, binary=True)
        await gm.join(tokens["gm"])
        await alice.join(tokens["alice"])
        await gm.send(protocol.LoadScene, scene=scene_spec())
        await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
        await alice.event("combatant_acts")
        yield app, gm, alice


async def test_move_prompt_attack_restart(tmp_path: Path) -> None:
    db = tmp_path / "bridge.sqlite3"
    config = Config(database=db, demo=True, record_dir=tmp_path / "rec")
    app = create_app(config)
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        tokens = demo_tokens(app)
        url = str(server.make_url("/ws"))
        gm = await TableClient.connect(http, url)
        alice = await TableClient.connect(http, url, binary=True)
        welcome = await gm.join(tokens["gm"])
        assert (welcome.role, welcome.participant) == ("gm", "gm")
        welcome = await alice.join(tokens["alice"])
        assert (welcome.role, welcome.participant) == ("player", "alice")

        # Steps 1-2 by hand, to look at the paused move before anyone answers.
        seq = await gm.send(protocol.LoadScene, scene=scene_spec())
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        for client in (gm, alice):
            order = await client.event("initiative_order")
            assert wire_data(order)["order"] == ["hero", "ogre"]  # INIT 14 before INIT 12
            acts = await client.event("combatant_acts")
            assert wire_data(acts)["combatant"] == "hero"
            assert wire_data(acts)["movement"] == 12.0  # two move actions of 6 m combat movement

        seq = await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5), (1, 5)))
        assert isinstance(await alice.reply_to(seq), protocol.Ack)
        paused = await alice.event("move_interrupted")
        assert wire_data(paused)["at"] == [4, 5] and wire_data(paused)["exit_point"] == [4.0, 5.5]
        prompt = await gm.wait_for(protocol.Prompt)
        assert (prompt.kind, prompt.attacker, prompt.target) == (
            "attack_of_opportunity",
            "ogre",
            "hero",
        )
        assert prompt.at == (4, 5) and prompt.exit_point == (4.0, 5.5)
        assert prompt.deadline_ms > config.clock()
        assert not [m for m in alice.inbox if isinstance(m, protocol.Prompt)]

        # Step 6: refusals change nothing.
        table = app[HUB].table_by_name("demo")
        assert table is not None
        before = (table.encounter.state_hash(), len(table.events))
        seq = await alice.send(protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None)
        refusal = await alice.reply_to(seq)
        assert isinstance(refusal, protocol.ErrorMessage) and refusal.code == "not_your_prompt"
        seq = await alice.send(protocol.Move, token="ogre", path=((6, 5),))
        refusal = await alice.reply_to(seq)
        assert isinstance(refusal, protocol.ErrorMessage) and refusal.code == "not_your_token"
        seq = await alice.send(protocol.EndPhase, token="hero")
        refusal = await alice.reply_to(seq)
        assert isinstance(refusal, protocol.ErrorMessage) and refusal.code == "prompt_pending"
        assert (table.encounter.state_hash(), len(table.events)) == before

        # Step 3: the GM accepts with the table's own dice: 3d6 = 4+5+6, OCV 5 -> 20 vs 14.
        seq = await gm.send(
            protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=(4, 5, 6)
        )
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        attack = await alice.event("attack_rolled")
        assert wire_data(attack) == {
            "attacker": "ogre",
            "target": "hero",
            "attack": "attack_of_opportunity",
            "dice": [4, 5, 6],
            "ocv": 5,
            "dcv": 4,
            "total": 20,
            "target_number": 14,
            "hit": True,
        }
        # A hit: the GM says whether the hero can still finish its move (it can).
        ask = await gm.wait_for(protocol.Prompt, lambda p: p.kind == "continue_after_hit")
        assert (ask.attacker, ask.target) == ("ogre", "hero")
        seq = await gm.send(protocol.AnswerPrompt, prompt=ask.prompt, accept=True, rolls=None)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        done = await alice.event("move_completed")
        assert wire_data(done) == {"token": "hero", "at": [1, 5], "cost": 3.0, "movement_left": 9.0}

        # Step 4.
        seq = await alice.send(protocol.EndPhase, token="hero")
        assert isinstance(await alice.reply_to(seq), protocol.Ack)
        up = await gm.event("combatant_acts")
        assert wire_data(up)["combatant"] == "ogre"
        last_seen = up.index
        state_before_restart = table.encounter.state_hash()
        await gm.close()
        await alice.close()

    # Step 5: a new server on the same database continues the fight.
    app2 = create_app(Config(database=db, demo=True))
    async with TestServer(app2) as server, aiohttp.ClientSession() as http:
        table2 = app2[HUB].table_by_name("demo")
        assert table2 is not None and table2.encounter.state_hash() == state_before_restart
        url = str(server.make_url("/ws"))
        gm = await TableClient.connect(http, url)
        await gm.join(tokens["gm"])
        state = await gm.wait_for(protocol.State)
        assert state.last_event == last_seen
        assert state.state["combat"]["order"][state.state["combat"]["acting"]] == "ogre"
        assert state.state["scene"]["tokens"][1]["x"] == 1  # the hero stayed where it went
        alice = await TableClient.connect(http, url)
        await alice.join(tokens["alice"], last_event=last_seen - 2)
        caught_up = [await alice.wait_for(protocol.Event) for _ in range(2)]
        assert [e.index for e in caught_up] == [last_seen - 1, last_seen]
        seq = await gm.send(protocol.EndPhase, token="ogre")
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        phase = await alice.event("pass_started")
        assert wire_data(phase) == {
            "clock": {"at": {"turn": 1, "phase": 2}, "label": "Turn 1, Phase 2"},
            "surprise": False,
        }
        acts = await alice.event("combatant_acts")
        assert wire_data(acts)["combatant"] == "hero"

    # The first server's recording replays identically.
    (recording,) = (tmp_path / "rec").glob("*.jsonl")
    result = await replay(recording)
    assert result.ok, "\n".join(result.diff)
    assert result.compared > 30


async def test_the_gm_stops_a_mover_that_cannot_go_on(tmp_path: Path) -> None:
    async with fight_started(tmp_path) as (_, gm, alice):
        await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5)))
        prompt = await gm.wait_for(protocol.Prompt)
        await gm.send(protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=(6, 6, 6))
        ask = await gm.wait_for(protocol.Prompt, lambda p: p.kind == "continue_after_hit")
        await gm.send(protocol.AnswerPrompt, prompt=ask.prompt, accept=False, rolls=None)
        stopped = await alice.event("move_stopped")
        assert wire_data(stopped)["token"] == "hero" and wire_data(stopped)["at"] == [4, 5]


async def test_unanswered_prompt_expires_as_declined(tmp_path: Path) -> None:
    async with fight_started(tmp_path, prompt_timeout=0.2) as (_, gm, alice):
        await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5)))
        prompt = await gm.wait_for(protocol.Prompt)
        closed = await alice.event("prompt_closed")
        assert wire_data(closed) == {"prompt": prompt.prompt, "outcome": "expired", "by": "system"}
        done = await alice.event("move_completed")
        assert wire_data(done)["at"] == [2, 5]
        assert not [
            m for m in alice.inbox if isinstance(m, protocol.Event) and m.kind == "attack_rolled"
        ]
        # A late answer is refused: the prompt is closed.
        seq = await gm.send(protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None)
        late = await gm.reply_to(seq)
        assert isinstance(late, protocol.ErrorMessage) and late.code == "unknown_prompt"


async def test_bad_frames_and_join_rules(tmp_path: Path) -> None:
    app = create_app(Config(database=tmp_path / "db.sqlite3", demo=True))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        tokens = demo_tokens(app)
        url = str(server.make_url("/ws"))
        client = await TableClient.connect(http, url)
        await client.send_raw('{"v":1,"type":"move","seq":1,"body":{"token":"x","path":[[1,NaN]]}}')
        error = await client.wait_for(protocol.ErrorMessage)
        assert error.code == "non_finite"
        seq = await client.send(protocol.Ping)
        error = await client.reply_to(seq)
        assert isinstance(error, protocol.ErrorMessage) and error.code == "not_joined"
        await client.send(protocol.Join, token="no-such-token", last_event=None)
        error = await client.wait_for(protocol.ErrorMessage)
        assert error.code == "bad_token"
        await client.join(tokens["bob"])
        seq = await client.send(protocol.Join, token=tokens["gm"], last_event=None)
        error = await client.reply_to(seq)
        assert isinstance(error, protocol.ErrorMessage) and error.code == "already_joined"
        seq = await client.send(protocol.LoadScene, scene=scene_spec())
        error = await client.reply_to(seq)
        assert isinstance(error, protocol.ErrorMessage) and error.code == "gm_only"
        await client.send(protocol.Ping)
        assert isinstance(await client.wait_for(protocol.Pong), protocol.Pong)
        health = await http.get(server.make_url("/healthz"))
        assert (await health.json())["ok"] is True
        await asyncio.sleep(0)


async def test_a_client_asks_what_a_token_may_do(tmp_path: Path) -> None:
    async with fight_started(tmp_path) as (app, _, alice):
        table = app[HUB].table_by_name("demo")
        assert table is not None
        before = table.encounter.state_hash()
        seq = await alice.send(protocol.AskOptions, token="hero")
        answer = await alice.wait_for(protocol.Options, lambda m: m.ref == seq)
        assert answer.can_act and answer.movement_left == 12.0
        assert {"attack", "combat", "step", "withdraw", "end_phase"} <= set(answer.available)
        assert {u.action: u.reason for u in answer.unavailable}["hampered"]
        seq = await alice.send(protocol.AskOptions, token="ogre")
        other = await alice.wait_for(protocol.Options, lambda m: m.ref == seq)
        assert not other.can_act and other.reason == "'alice' does not control token 'ogre'"
        assert table.encounter.state_hash() == before  # asking changes nothing


async def test_a_client_asks_for_the_cheapest_path(tmp_path: Path) -> None:
    async with fight_started(tmp_path) as (app, _, alice):
        table = app[HUB].table_by_name("demo")
        assert table is not None
        before = table.encounter.state_hash()
        seq = await alice.send(protocol.AskPath, token="hero", to=(1, 5))
        plan = await alice.wait_for(protocol.PathPlan, lambda m: m.ref == seq)
        assert plan.path == ((3, 5), (2, 5), (1, 5)) and plan.cost == 3.0 and plan.budget == 12.0
        seq = await alice.send(protocol.AskPath, token="hero", to=(5, 5))  # the ogre's cell
        blocked = await alice.wait_for(protocol.PathPlan, lambda m: m.ref == seq)
        assert blocked.path == () and blocked.reason is not None
        assert table.encounter.state_hash() == before
