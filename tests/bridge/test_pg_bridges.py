"""Several real bridge processes on one PostgreSQL database: a join through any of them
reaches the table's owner (a ``redirect``), and when the owner stops (SIGTERM), dies
(SIGKILL, or at one of the crash test's named points) or is paused past its lease
(SIGSTOP, then SIGCONT) its tables move on with every acknowledged command in the log
once, the command in flight applied at most once, and no position written twice."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import aiohttp
import psycopg
import pytest

import protocol
from tests.bridge.conftest import closed_with
from tests.bridge.test_durability import crowd_scene
from tests.bridges import BridgeProcess, cli, tokens_printed
from tests.wsclient import TableClient, wire_data

PLAYERS = ["alice", "bob"]
LEASE = 2.0


@pytest.fixture
def start(pg_dsn: str, tmp_path: Path) -> Iterator[Callable[[], BridgeProcess]]:
    """Starts bridge processes on the test's database; all are stopped afterwards."""
    started: list[BridgeProcess] = []

    def one() -> BridgeProcess:
        bridge = BridgeProcess(pg_dsn, tmp_path / f"bridge-{len(started)}.log", lease=LEASE)
        started.append(bridge.start())
        return bridge

    yield one
    for bridge in started:
        bridge.kill()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def new_table(pg_dsn: str) -> dict[str, str]:
    """A table made with ``vtt-bridge create-table`` (no process owns it yet): its tokens."""
    out = cli("create-table", "fight", "--player", "alice", "--player", "bob", "--db", pg_dsn)
    return tokens_printed(out)


async def join(
    http: aiohttp.ClientSession, url: str, token: str, client: str, last_event: int | None = None
) -> tuple[TableClient, protocol.Welcome | protocol.Redirect]:
    """Connect to ``url`` and join; the connection and the welcome or redirect."""
    member = await TableClient.connect(http, url)
    seq = await member.send(protocol.Join, token=token, last_event=last_event, client=client)
    answer = await member.wait_for((protocol.Welcome, protocol.Redirect, protocol.ErrorMessage))
    assert not isinstance(answer, protocol.ErrorMessage), answer
    assert not isinstance(answer, protocol.Redirect) or answer.ref == seq
    return member, answer


async def move(member: TableClient, who: str, step: int) -> protocol.Ack:
    """``who`` steps back and forth; the acknowledgement."""
    seq = await member.send(protocol.Move, token=f"t-{who}", path=((0, 1 + step % 2),))
    answer = await member.reply_to(seq)
    assert isinstance(answer, protocol.Ack), answer
    return answer


def logged(pg_dsn: str) -> list[tuple[int, int, str | None, int | None]]:
    """The log's (position, epoch, client, seq) rows, in order."""
    with psycopg.connect(pg_dsn) as db:
        return db.execute(
            "SELECT position, epoch, client, ref FROM log ORDER BY position"
        ).fetchall()


async def opened(
    http: aiohttp.ClientSession, owner: BridgeProcess, tokens: dict[str, str]
) -> TableClient:
    """The GM joined at ``owner`` (which claims the table) with the scene loaded."""
    gm, welcome = await join(http, owner.url, tokens["gm"], "gm-vtt")
    assert isinstance(welcome, protocol.Welcome)
    seq = await gm.send(protocol.LoadScene, scene=crowd_scene(PLAYERS))
    assert isinstance(await gm.reply_to(seq), protocol.Ack)
    return gm


async def test_a_join_through_another_process_is_redirected_to_the_owner(
    pg_dsn: str, start: Callable[[], BridgeProcess], http: aiohttp.ClientSession
) -> None:
    tokens = new_table(pg_dsn)
    a, b, c = start(), start(), start()
    gm = await opened(http, b, tokens)  # b claims the table on the first join
    for other in (a, c):
        member, answer = await join(http, other.url, tokens["alice"], "alice-vtt")
        assert answer == protocol.Redirect(seq=answer.seq, ref=answer.ref, url=b.url)
        assert await closed_with(member.ws) == 1000
    alice, welcome = await join(http, b.url, tokens["alice"], "alice-vtt")
    assert isinstance(welcome, protocol.Welcome) and welcome.participant == "alice"
    ack = await move(alice, "alice", 0)
    seen = await gm.wait_for(protocol.Event, lambda e: e.index == ack.first_event)
    assert seen.kind == "token_placed" and wire_data(seen)["token"] == "t-alice"
    assert [(p, e) for p, e, _, _ in logged(pg_dsn)] == [(0, 1), (1, 1)]


async def test_sigterm_hands_the_table_over_at_once(
    pg_dsn: str, start: Callable[[], BridgeProcess], http: aiohttp.ClientSession
) -> None:
    tokens = new_table(pg_dsn)
    a, b = start(), start()
    gm = await opened(http, a, tokens)
    acks = [await move(gm, "alice", step) for step in range(3)]
    a.signal(signal.SIGTERM)
    assert await closed_with(gm.ws) == 1001  # going away: the client reconnects
    assert a.wait() == 0
    begun = time.monotonic()
    again, welcome = await join(http, b.url, tokens["gm"], "gm-vtt", acks[-1].last_event)
    handover = time.monotonic() - begun
    assert isinstance(welcome, protocol.Welcome)
    assert handover < 1.0, f"the table took {handover:.2f} s to move"  # not the lease
    # The last command sent again under its seq: answered as before, not applied again.
    retransmitted = protocol.Move(seq=gm.seq, token="t-alice", path=((0, 1 + 2 % 2),))
    await again.send_raw(protocol.encode_json(retransmitted))
    answer = await again.reply_to(gm.seq)
    assert isinstance(answer, protocol.Ack)
    assert (answer.first_event, answer.last_event) == (acks[-1].first_event, acks[-1].last_event)
    again.seq = gm.seq
    await move(again, "alice", 3)
    rows = logged(pg_dsn)
    assert [p for p, *_ in rows] == list(range(5)) and [e for _, e, *_ in rows] == [1] * 4 + [2]


async def test_sigkill_moves_the_table_once_the_lease_runs_out(
    pg_dsn: str, start: Callable[[], BridgeProcess], http: aiohttp.ClientSession
) -> None:
    tokens = new_table(pg_dsn)
    a, b = start(), start()
    gm = await opened(http, a, tokens)
    acks = [await move(gm, "alice", step) for step in range(3)]
    a.kill()
    killed = time.monotonic()
    # Within the lease the dead owner still counts as live: the join is sent to it.
    member, answer = await join(http, b.url, tokens["gm"], "gm-vtt")
    assert isinstance(answer, protocol.Redirect) and answer.url == a.url
    while True:  # a client would try its first address again with backoff
        member, answer = await join(http, b.url, tokens["gm"], "gm-vtt", acks[-1].last_event)
        if isinstance(answer, protocol.Welcome):
            break
        await asyncio.sleep(0.2)
    failover = time.monotonic() - killed
    assert LEASE - 0.5 <= failover <= LEASE + 2
    member.seq = gm.seq
    # Every acknowledged command is in the log once; the next one goes on after them.
    ack = await move(member, "alice", 3)
    assert ack.first_event == acks[-1].last_event + 1
    rows = logged(pg_dsn)
    assert [p for p, *_ in rows] == list(range(5)) and [e for _, e, *_ in rows] == [1] * 4 + [2]


async def test_a_paused_owner_cannot_append_after_its_table_moved(
    pg_dsn: str, start: Callable[[], BridgeProcess], http: aiohttp.ClientSession
) -> None:
    tokens = new_table(pg_dsn)
    a, b = start(), start()
    gm = await opened(http, a, tokens)
    alice_a, welcome = await join(http, a.url, tokens["alice"], "alice-vtt")
    assert isinstance(welcome, protocol.Welcome)
    await move(alice_a, "alice", 0)
    a.signal(signal.SIGSTOP)
    await asyncio.sleep(LEASE + 0.5)  # paused past its lease
    gm_b, welcome = await join(http, b.url, tokens["gm"], "gm-b", None)
    assert isinstance(welcome, protocol.Welcome)  # b claimed it
    at_b = await move(gm_b, "alice", 1)
    # Sent to the paused process, which reads it once it runs again.
    stale = await alice_a.send(protocol.Move, token="t-alice", path=((1, 1),))
    a.signal(signal.SIGCONT)
    moved = await alice_a.wait_for((protocol.Redirect, protocol.Ack, protocol.ErrorMessage))
    assert isinstance(moved, protocol.Redirect), moved  # never acknowledged there
    assert moved.ref is None and moved.url == b.url
    assert await closed_with(alice_a.ws) == 1000
    # Followed: the same command under the same seq is applied once, at b.
    alice_b, welcome = await join(http, moved.url, tokens["alice"], "alice-vtt", at_b.last_event)
    assert isinstance(welcome, protocol.Welcome)
    alice_b.seq = stale - 1
    assert await alice_b.send(protocol.Move, token="t-alice", path=((1, 1),)) == stale
    ack = await alice_b.reply_to(stale)
    assert isinstance(ack, protocol.Ack) and ack.first_event is not None
    rows = logged(pg_dsn)
    assert [p for p, *_ in rows] == list(range(4))
    assert [e for _, e, *_ in rows] == [1, 1, 2, 2]
    assert rows[-1][2:] == ("alice/alice-vtt", stale) and ack.first_event == at_b.last_event + 1
    await gm.close()


@pytest.mark.parametrize("point", ["before_commit", "after_commit", "after_ack", "mid_snapshot"])
async def test_an_owner_killed_at_a_named_point_loses_and_doubles_nothing(
    pg_dsn: str, tmp_path: Path, http: aiohttp.ClientSession, point: str
) -> None:
    """The crash test's points: the owner kills itself there (its third time), another
    process takes the table over after the lease, and the command in flight, sent again
    under its seq, is applied at most once; every acknowledged one is in the log once."""
    tokens = new_table(pg_dsn)
    extra = ("--crash-at", f"{point}:3", "--snapshot-every", "2")
    a = BridgeProcess(pg_dsn, tmp_path / "a.log", lease=LEASE, extra=extra).start()
    b = BridgeProcess(pg_dsn, tmp_path / "b.log", lease=LEASE).start()
    try:
        gm, welcome = await join(http, a.url, tokens["gm"], "gm-vtt")
        assert isinstance(welcome, protocol.Welcome)
        acked: list[protocol.Ack] = []
        sent: dict[int, tuple[int, int]] = {}
        in_flight = None
        for step in range(500):  # until it dies (at after_ack, 50 ms after its ack)
            path = ((0, 1 + (step + 1) % 2),) if step else None
            if path is None:
                seq = await gm.send(protocol.LoadScene, scene=crowd_scene(PLAYERS))
            else:
                seq = await gm.send(protocol.Move, token="t-alice", path=path)
                sent[seq] = path[0]
            try:
                answer = await gm.reply_to(seq)
            except (TimeoutError, ConnectionError):
                in_flight = seq
                break
            assert isinstance(answer, protocol.Ack), answer
            acked.append(answer)
        assert in_flight is not None, "the owner never reached the point"
        a.wait()
        while True:  # the dead owner's lease runs out; the next join claims the table
            member, answer = await join(http, b.url, tokens["gm"], "gm-vtt")
            if isinstance(answer, protocol.Welcome):
                break
            await asyncio.sleep(0.2)
        member.seq = in_flight - 1
        await member.send(protocol.Move, token="t-alice", path=(sent[in_flight],))
        again = await member.reply_to(in_flight)
        assert isinstance(again, protocol.Ack), again  # applied now, or answered from the log
        rows = logged(pg_dsn)
        assert [p for p, *_ in rows] == list(range(len(rows)))  # each position once
        refs = [ref for _, _, client, ref in rows if client == "gm/gm-vtt"]
        assert len(refs) == len(set(refs))  # no command twice
        assert {a.ref for a in acked} | {in_flight} == set(refs)  # every ack, and the retry
    finally:
        a.kill()
        b.kill()
