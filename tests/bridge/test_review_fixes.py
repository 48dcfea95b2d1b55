"""Regressions from the bridge review, each against a real server on loopback.

1. remembered replies are kept per participant and client: one participant's clients
   cannot push out another's, and refusals never push out acknowledgements
2. a prompt whose expiry could not be stored is expired again later
3. a prompt deadline's timer is forgotten once it fires
4. a token revoked in the database (the CLI) no longer joins a running server
5. two GMs issuing tokens at once both get one; a storage failure is ``internal``
6. replay numbers a connection's messages from where it stood when it joined
7. queries, ``ping`` and ``resync`` are answered after the table's earlier commands,
   as in a replay
8. revoking a token closes its connections still catching up
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge, closed_with, token_of
from tests.scenario import scene_spec
from tests.wsclient import TableClient, wire_data
from vtt_bridge import Config, create_app, membership, tables
from vtt_bridge.app import HUB, TIMERS, Outbound
from vtt_bridge.hub import Hub
from vtt_bridge.recording import replay
from vtt_bridge.store import JoinToken, Store
from vtt_bridge.tables import Table


@contextlib.asynccontextmanager
async def demo_server(
    tmp_path: Path, **settings: Any
) -> AsyncIterator[tuple[web.Application, Hub, Table, aiohttp.ClientSession, str]]:
    """A server with the demo table; yields the app, hub, table, an HTTP session, the URL."""
    settings.setdefault("rate_limit", 10_000)
    settings.setdefault("rate_burst", 10_000)
    app = create_app(Config(database=tmp_path / "db.sqlite3", demo=True, **settings))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        hub = app[HUB]
        table = hub.table_by_name("demo")
        assert table is not None
        yield app, hub, table, http, str(server.make_url("/ws"))


async def joined(
    http: aiohttp.ClientSession, url: str, token: str, client: str | None = None
) -> TableClient:
    member = await TableClient.connect(http, url)
    await member.send(protocol.Join, token=token, last_event=None, client=client)
    await member.wait_for(protocol.Welcome)
    return member


def slow_commits(hub: Hub, seconds: float) -> None:
    """Every commit takes ``seconds`` longer (on the database thread)."""
    real = hub.store.append_many

    def slow(rows: list[Any], *more: Any) -> float:
        time.sleep(seconds)
        return real(rows, *more)

    hub.store.append_many = slow  # type: ignore[method-assign]


def failing_commits(hub: Hub, times: int) -> list[int]:
    """The next ``times`` commits fail; returns the list counting the failures."""
    real, failed = hub.store.append_many, []

    def flaky(rows: list[Any], *more: Any) -> float:
        if len(failed) < times:
            failed.append(1)
            raise OSError("disk I/O error (simulated)")
        return real(rows, *more)

    hub.store.append_many = flaky  # type: ignore[method-assign]
    return failed


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


# -- 1. retransmission replies -------------------------------------------------------------


async def test_other_participants_clients_cannot_evict_gm_reply(
    bridge: Bridge, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "CLIENTS_KEPT", 4)
    table = bridge.table("t", ["bob"])
    gm = await bridge.member(table, "gm", client="gm-vtt")
    seq = await gm.send(protocol.LoadScene, scene=scene_spec())
    first = await gm.reply_to(seq)
    assert isinstance(first, protocol.Ack)
    await gm.close()
    for i in range(6):  # bob mints client ids; each refused command is remembered
        bob = await bridge.member(table, "bob", client=f"x{i}")
        refused = await bob.reply_to(await bob.send(protocol.EndPhase, token="hero"))
        assert isinstance(refused, protocol.ErrorMessage)
        await bob.close()
    gm = await bridge.connect()
    await gm.send(protocol.Join, token=token_of(table, "gm"), last_event=0, client="gm-vtt")
    await gm.wait_for(protocol.Welcome)
    gm.seq = seq - 1
    again = await gm.reply_to(await gm.send(protocol.LoadScene, scene=scene_spec()))
    assert again == protocol.Ack(seq=again.seq, ref=seq, first_event=0, last_event=0)
    assert table.positions == 1  # applied once


async def test_refusals_do_not_evict_an_acknowledgement(
    bridge: Bridge, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "REPLIES_KEPT", 4)
    table = bridge.table("t", ["bob"])
    gm = await bridge.member(table, "gm", client="gm-vtt")
    seq = await gm.send(protocol.LoadScene, scene=scene_spec())
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    for _ in range(6):
        refused = await gm.reply_to(await gm.send(protocol.EndPhase, token="hero"))
        assert isinstance(refused, protocol.ErrorMessage)
    gm.seq = seq - 1
    again = await gm.reply_to(await gm.send(protocol.LoadScene, scene=scene_spec()))
    assert isinstance(again, protocol.Ack) and again.first_event == 0
    assert table.positions == 1


# -- 2, 3. prompt deadlines ----------------------------------------------------------------


@contextlib.asynccontextmanager
async def prompted(
    tmp_path: Path,
) -> AsyncIterator[tuple[web.Application, Hub, Table, TableClient, TableClient]]:
    """The demo fight with the GM prompted (0.3 s deadline); yields app, hub, table, GM, Alice."""
    async with demo_server(tmp_path, prompt_timeout=0.3) as (app, hub, table, http, url):
        gm = await joined(http, url, token_of(table, "gm"))
        alice = await joined(http, url, token_of(table, "alice"))
        await gm.reply_to(await gm.send(protocol.LoadScene, scene=scene_spec()))
        seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
        await gm.reply_to(seq)
        await alice.event("combatant_acts")
        await alice.reply_to(await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5))))
        await gm.wait_for(protocol.Prompt)
        yield app, hub, table, gm, alice
        await gm.close()
        await alice.close()


async def test_prompt_expiry_that_fails_to_commit_is_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("vtt_bridge.hub.EXPIRE_RETRY_MS", 200, raising=False)
    async with prompted(tmp_path) as (_app, hub, table, gm, _alice):
        failed = failing_commits(hub, 2)  # the batch and its per-table retry both fail
        await until(lambda: len(failed) == 2)
        closed = await gm.event("prompt_closed")
        assert wire_data(closed)["outcome"] == "expired"
        assert table.deadlines == {}
        assert table.committed.combat is not None and table.committed.combat.prompts == ()


async def test_prompt_timer_is_forgotten_once_fired(tmp_path: Path) -> None:
    async with prompted(tmp_path) as (app, _hub, table, gm, _alice):
        assert len(app[TIMERS]) == 1
        await gm.event("prompt_closed")
        await until(lambda: not table.deadlines)
        assert len(app[TIMERS]) == 0


# -- 4, 5. join tokens ---------------------------------------------------------------------


async def test_cli_revoke_stops_new_joins_on_a_running_server(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    token = token_of(table, "alice")
    store = Store(bridge.config.database)  # what ``vtt-bridge revoke-token`` does
    try:
        store.revoke_token(token)
    finally:
        store.close()
    alice = await bridge.connect()
    await alice.send(protocol.Join, token=token, last_event=None)
    refused = await alice.next()
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "bad_token"
    assert token not in bridge.hub.by_token and table.tokens[token].revoked


async def test_cli_issued_token_still_joins(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    carol = JoinToken("carol-token", table.id, "carol", "player")
    store = Store(bridge.config.database)  # what ``vtt-bridge issue-token`` does
    try:
        store.add_token(carol)
    finally:
        store.close()
    member = await bridge.connect()
    welcome = await member.join(carol.token)
    assert welcome.participant == "carol"


async def test_concurrent_issue_token_gives_two_tokens(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    one, two = await bridge.member(table, "gm"), await bridge.member(table, "gm")
    await asyncio.gather(
        one.send(protocol.IssueToken, participant="carol", role="player"),
        two.send(protocol.IssueToken, participant="carol", role="player"),
    )
    first = await one.wait_for((protocol.TokenIssued, protocol.ErrorMessage))
    second = await two.wait_for((protocol.TokenIssued, protocol.ErrorMessage))
    assert isinstance(first, protocol.TokenIssued) and isinstance(second, protocol.TokenIssued)
    assert first.token != second.token
    for token in (first.token, second.token):
        carol = await bridge.connect()
        assert (await carol.join(token)).participant == "carol"


async def test_issue_token_storage_failure_is_internal(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    gm = await bridge.member(table, "gm")
    tokens_before = dict(table.tokens)

    def broken(token: Any) -> None:
        raise OSError("disk I/O error (simulated)")

    bridge.hub.store.add_token = broken  # type: ignore[method-assign]
    seq = await gm.send(protocol.IssueToken, participant="carol", role="player")
    refused = await gm.wait_for((protocol.TokenIssued, protocol.ErrorMessage))
    assert isinstance(refused, protocol.ErrorMessage)
    assert (refused.ref, refused.code) == (seq, "internal")
    assert table.tokens == tokens_before
    await gm.send(protocol.Ping)
    await gm.wait_for(protocol.Pong)  # the connection is still served


# -- 6, 7. replay matches live -------------------------------------------------------------


async def test_replay_numbers_from_where_the_connection_stood_at_join(tmp_path: Path) -> None:
    async with demo_server(tmp_path, record_dir=tmp_path / "rec") as (_app, _hub, table, http, url):
        gm = await joined(http, url, token_of(table, "gm"))
        alice = await TableClient.connect(http, url)
        await alice.send(protocol.Ping)  # before joining: refused, not recorded
        assert isinstance(await alice.next(), protocol.ErrorMessage)
        await alice.send(protocol.Join, token="no-such-token", last_event=None)
        assert isinstance(await alice.next(), protocol.ErrorMessage)
        welcome = await alice.join(token_of(table, "alice"))
        assert welcome.seq == 3
        await gm.reply_to(await gm.send(protocol.LoadScene, scene=scene_spec()))
        await alice.event("scene_loaded")
        await gm.close()
        await alice.close()
    (recording,) = (tmp_path / "rec").glob("*.jsonl")
    result = await replay(recording)
    assert result.ok, "\n".join(result.diff)


@pytest.mark.parametrize("ask", ["options", "path", "ping", "resync", "join", "refusal"])
async def test_session_messages_wait_for_earlier_commands(tmp_path: Path, ask: str) -> None:
    async with demo_server(tmp_path, record_dir=tmp_path / "rec") as (_app, hub, table, http, url):
        gm = await joined(http, url, token_of(table, "gm"))
        alice = await joined(http, url, token_of(table, "alice"))
        bob = await joined(http, url, token_of(table, "bob"))
        slow_commits(hub, 0.3)
        seq = await gm.send(protocol.LoadScene, scene=scene_spec())
        await until(lambda: table.next_position == 1)  # applied, still committing
        late = alice
        if ask == "options":
            await alice.send(protocol.AskOptions, token="hero")
            answer: type[Any] = protocol.Options
        elif ask == "path":
            await alice.send(protocol.AskPath, token="hero", to=(3, 5))
            answer = protocol.PathPlan
        elif ask == "ping":
            await alice.send(protocol.Ping)
            answer = protocol.Pong
        elif ask == "resync":
            await alice.send(protocol.Resync, after=-1)
            answer = protocol.Event
        elif ask == "join":
            late = await TableClient.connect(http, url)
            await late.send(protocol.Join, token=token_of(table, "bob"), last_event=None)
            answer = protocol.State
        else:  # a refusal from the permission table, answered without the engine
            late = bob
            await late.send(protocol.IssueToken, participant="carol", role="player")
            answer = protocol.ErrorMessage
        first = await late.wait_for((answer, protocol.Event))
        if ask == "join":
            assert first.state["scene"] is not None  # the scene its commit was waiting for
        elif ask == "resync":
            assert first.kind == "scene_loaded"
        else:
            assert isinstance(first, protocol.Event) and first.kind == "scene_loaded"
        await gm.reply_to(seq)
        if ask != "join":
            await late.wait_for(answer)
        await asyncio.sleep(0.05)
        for member in {gm, alice, bob, late}:
            await member.close()
    (recording,) = (tmp_path / "rec").glob("*.jsonl")
    result = await replay(recording)
    assert result.ok, "\n".join(result.diff)


# -- 8. revoking a connection still catching up --------------------------------------------


async def test_revoke_closes_a_connection_still_catching_up(
    bridge: Bridge, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(membership, "CATCH_UP_CHUNK", 1)
    table = bridge.table("t", ["alice"])
    gm = await bridge.member(table, "gm")
    await gm.reply_to(await gm.send(protocol.LoadScene, scene=scene_spec()))
    seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=None)
    await gm.reply_to(seq)
    count = len(table.events)
    assert count >= 4
    real_room = Outbound.room

    async def slow_room(self: Outbound) -> None:
        # Catch-up goes one event at a time, each after a pause: it is still going on
        # when the revocation arrives.
        await asyncio.sleep(0.2)
        await real_room(self)

    monkeypatch.setattr(Outbound, "room", slow_room)
    token = token_of(table, "alice")
    alice = await bridge.connect()
    await alice.send(protocol.Join, token=token, last_event=-1)
    await alice.wait_for(protocol.Welcome)
    seq = await gm.send(protocol.RevokeToken, token=token)
    await gm.wait_for(protocol.TokenRevoked, lambda m: m.ref == seq)
    assert await closed_with(alice.ws) == 1008
    assert all(s.token != token for s in table.sessions)


def test_join_tokens_never_look_like_command_line_options() -> None:
    # About one in 64 url-safe tokens would start with "-", which argparse reads as an
    # option: `vtt-bridge revoke-token -x...` could not name it.
    from vtt_bridge.tables import new_join_token

    assert not [t for t in (new_join_token() for _ in range(2000)) if t.startswith("-")]
