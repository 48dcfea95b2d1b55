"""A storm of joins on a real bridge: every joiner is welcomed and caught up with the
same events, one message a frame when it did not ask for ``batch`` (the writer sends
what is queued in one socket write, ``DrainingResponse.send_frames``); a revoked join
token is refused at once; and the handshakes of a storm go on a few per iteration of
the event loop (``limits.Arrivals``), first come first served."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

import protocol
from bench.serving import frame
from bench.serving import scene as bench_scene
from tests.bridge.conftest import Bridge, token_of
from tests.wsclient import TableClient
from vtt_bridge.limits import Arrivals

JOINERS = 40
MOVES = 30


def _plain(data: Any) -> Any:
    """``data`` as JSON reads it (lists for tuples), to compare what each side holds."""
    return msgspec.json.decode(msgspec.json.encode(data))


async def _events_then_pong(client: TableClient) -> list[tuple[int, str, Any]]:
    """What ``client`` was sent after its welcome, up to the pong of a ping."""
    await client.wait_for(protocol.Welcome)
    await client.send(protocol.Ping)
    events = []
    while not isinstance(message := await client.next(), protocol.Pong):
        assert isinstance(message, protocol.Event), message
        events.append((message.index, message.kind, _plain(message.data)))
    return events


async def test_a_storm_of_joins_is_caught_up_identically_and_a_revoked_token_refused(
    bridge: Bridge,
) -> None:
    table = bridge.hub.create_table("storm", ["p"], spectators=JOINERS + 1)
    gm = await bridge.member(table, "gm", binary=True)
    await gm.send_raw(frame("load_scene", 100, {"scene": bench_scene()}))
    await gm.reply_to(100)
    for i in range(MOVES):
        await gm.send_raw(frame("move", 101 + i, {"token": "t-gm", "path": [[8, 1 + i % 2]]}))
        assert isinstance(await gm.reply_to(101 + i), protocol.Ack)
    revoked = token_of(table, f"spectator-{JOINERS + 1}")
    assert await bridge.hub.revoke(table, revoked, 0)

    joiners = [await bridge.connect(binary=i % 2 == 1) for i in range(JOINERS)]
    refused = await bridge.connect()
    for i, client in enumerate(joiners):  # sent before any answer is read: all at once
        await client.send(protocol.Join, token=token_of(table, f"spectator-{i + 1}"), last_event=0)
    await refused.send(protocol.Join, token=revoked, last_event=0)
    caught_up = await asyncio.gather(*(_events_then_pong(c) for c in joiners))

    error = await refused.wait_for(protocol.ErrorMessage)
    assert error.code == "bad_token"
    kept = table.events.since(1)
    assert kept is not None
    expected = [(1 + i, e["kind"], _plain(e["data"])) for i, e in enumerate(kept)]
    assert len(expected) == MOVES  # a token placed a move, after the scene (event 0)
    assert all(events == expected for events in caught_up)
    # Without ``batch``, one message a frame, however many went in one socket write.
    assert all(size == 1 for client in joiners for size in client.frame_sizes)


async def test_arrivals_go_on_a_few_per_iteration_in_order() -> None:
    arrivals = Arrivals(per_turn=3)
    iteration = 0
    running = True

    def count() -> None:
        nonlocal iteration
        iteration += 1
        if running:
            asyncio.get_running_loop().call_soon(count)

    went_on: list[tuple[int, int]] = []

    async def arrive(who: int) -> None:
        await arrivals.turn()
        went_on.append((who, iteration))

    asyncio.get_running_loop().call_soon(count)
    await asyncio.gather(*(arrive(i) for i in range(10)))
    running = False
    assert [who for who, _ in went_on] == list(range(10))
    per_iteration: dict[int, int] = {}
    for _, at in went_on:
        per_iteration[at] = per_iteration.get(at, 0) + 1
    assert max(per_iteration.values()) <= 3
    assert arrivals.waited == 7
