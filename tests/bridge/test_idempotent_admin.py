"""Admin messages are idempotent like commands, also across a restart; a seq reused for
another message is refused (``seq_reused``); the GM can list a table's tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge, table_fingerprint, token_of
from tests.scenario import scene_spec
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app

ANSWERS = (
    protocol.Ack,
    protocol.ErrorMessage,
    protocol.TokenIssued,
    protocol.TokenRevoked,
    protocol.TokenList,
)


async def send_as(client: TableClient, message: Any) -> Any:
    """Send ``message`` with its own seq (as a client resending it would) and read the
    answer to that seq."""
    await client.send_raw(protocol.encode_json(message))
    return await client.wait_for(ANSWERS, lambda m: m.ref == message.seq)


async def gm_of(bridge: Bridge, table_id: str) -> TableClient:
    table = bridge.hub.tables[table_id]
    gm = await bridge.member(table, "gm", client="gm-ui")
    gm.seq = 1000  # this test picks the seqs it resends itself, below 1000
    return gm


async def test_admin_messages_sent_twice_are_carried_out_once_also_after_a_restart(
    tmp_path: Path,
) -> None:
    config = Config(database=tmp_path / "db.sqlite3")
    issue = protocol.IssueToken(seq=1, participant="dave", role="player")
    revoke_seq = 3
    configure = protocol.ConfigureTable(seq=4, dice="server", prompt_timeout_ms=None)
    load = protocol.LoadScene(seq=5, scene=scene_spec())
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        table_id = table.id
        gm = await gm_of(bridge, table_id)
        first = await send_as(gm, issue)
        again = await send_as(gm, issue)
        assert isinstance(first, protocol.TokenIssued) and isinstance(again, protocol.TokenIssued)
        assert again.token == first.token
        dave = [g for g in table.tokens.values() if g.participant == "dave"]
        assert len(dave) == 1
        # A second token for dave, then revoke it twice.
        other = await send_as(gm, protocol.IssueToken(seq=2, participant="dave", role="spectator"))
        revoke = protocol.RevokeToken(seq=revoke_seq, token=other.token)
        assert isinstance(await send_as(gm, revoke), protocol.TokenRevoked)
        assert isinstance(await send_as(gm, revoke), protocol.TokenRevoked)
        assert bridge.hub.metrics.snapshot()["tokens_revoked"] == 1
        assert isinstance(await send_as(gm, configure), protocol.Ack)
        assert isinstance(await send_as(gm, configure), protocol.Ack)
        assert isinstance(await send_as(gm, load), protocol.Ack)
        # seq 1 again, for another participant: refused, nothing issued.
        before = table_fingerprint(table)
        reused = await send_as(gm, protocol.IssueToken(seq=1, participant="erin", role="player"))
        assert isinstance(reused, protocol.ErrorMessage) and reused.code == "seq_reused"
        assert table_fingerprint(table) == before
        issued_before_restart = {g.token for g in table.tokens.values()}
    # A restart: every answer is still there, and nothing is done twice.
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.hub.tables[table_id]
        gm = await gm_of(bridge, table_id)
        before = table_fingerprint(table)
        again = await send_as(gm, issue)
        assert isinstance(again, protocol.TokenIssued) and again.token == first.token
        assert isinstance(await send_as(gm, revoke), protocol.TokenRevoked)
        assert isinstance(await send_as(gm, configure), protocol.Ack)
        assert isinstance(await send_as(gm, load), protocol.Ack)
        assert table_fingerprint(table) == before
        assert {g.token for g in table.tokens.values()} == issued_before_restart
        # seq_reused survives the restart too: for an admin message and for a command.
        for reuse in (
            protocol.RevokeToken(seq=1, token=first.token),
            protocol.StartCombat(seq=5, ruleset="hero-supplement", aware=None, seed=1),
        ):
            refused = await send_as(gm, reuse)
            assert isinstance(refused, protocol.ErrorMessage) and refused.code == "seq_reused"
        assert table_fingerprint(table) == before
        await gm.close()


async def test_a_command_under_a_reused_seq_is_refused_not_dropped(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice"])
    gm = await gm_of(bridge, table.id)
    load = protocol.LoadScene(seq=7, scene=scene_spec())
    assert isinstance(await send_as(gm, load), protocol.Ack)
    # The same load again is a retransmission: the same ack, applied once.
    positions = table.positions
    assert isinstance(await send_as(gm, load), protocol.Ack)
    assert table.positions == positions
    # Another command under seq 7: refused with seq_reused, the table as it was.
    before = table_fingerprint(table)
    start = protocol.StartCombat(seq=7, ruleset="hero-supplement", aware=None, seed=1)
    refused = await send_as(gm, start)
    assert isinstance(refused, protocol.ErrorMessage)
    assert (refused.code, refused.path) == ("seq_reused", "seq")
    assert table_fingerprint(table) == before
    # The original is still what seq 7 answers.
    assert isinstance(await send_as(gm, load), protocol.Ack)
    # A refused command's seq is taken too.
    bad = protocol.Move(seq=8, token="nobody", path=((1, 1),))
    assert isinstance(await send_as(gm, bad), protocol.ErrorMessage)
    refused = await send_as(
        gm, protocol.StartCombat(seq=8, ruleset="hero-supplement", aware=None, seed=1)
    )
    assert refused.code == "seq_reused"


async def test_the_gm_lists_the_tables_tokens(bridge: Bridge) -> None:
    table = bridge.table("t", ["alice", "bob"])
    gm = await bridge.member(table, "gm", client="gm-ui")
    seq = await gm.send(protocol.IssueToken, participant="carol", role="spectator")
    carol = await gm.wait_for(protocol.TokenIssued, lambda m: m.ref == seq)
    seq = await gm.send(protocol.RevokeToken, token=token_of(table, "bob"))
    await gm.wait_for(protocol.TokenRevoked, lambda m: m.ref == seq)
    seq = await gm.send(protocol.ListTokens, offset=0)
    listing = await gm.wait_for(protocol.TokenList, lambda m: m.ref == seq)
    listed = {(t.participant, t.role, t.revoked): t.token for t in listing.tokens}
    assert listing.total == len(listing.tokens) == len(table.tokens)
    assert listed[("carol", "spectator", False)] == carol.token
    assert ("bob", "player", True) in listed
    assert listed[("gm", "gm", False)] == token_of(table, "gm")
    # Paging: from an offset past some of them.
    seq = await gm.send(protocol.ListTokens, offset=2)
    page = await gm.wait_for(protocol.TokenList, lambda m: m.ref == seq)
    assert page.tokens == listing.tokens[2:] and page.total == listing.total
    # A player may not list them (and so never sees a token value).
    alice = await bridge.member(table, "alice")
    seq = await alice.send(protocol.ListTokens, offset=0)
    refused = await alice.reply_to(seq)
    assert isinstance(refused, protocol.ErrorMessage) and refused.code == "gm_only"
