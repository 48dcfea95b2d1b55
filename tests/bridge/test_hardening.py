"""Issue 22's limits over a real server on loopback: a participant's rate limit across
its connections and reconnects, a server stall that must not close a well-paced
client, handshakes per address, the join gate, forged ``Host`` and ``Origin``
headers, and frames over the size limit."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import protocol
from tests.bridge.conftest import closed_with, running, token_of
from tests.wsclient import TableClient
from vtt_bridge.app import LIMITS
from vtt_bridge.limits import ADMISSIONS


async def test_connections_of_one_participant_share_one_bucket(tmp_path: Path) -> None:
    # Nothing refills in the test's time: 8 tokens for every connection of alice.
    async with running(tmp_path, rate_limit=0.001, rate_burst=8) as bridge:
        table = bridge.table("t", ["alice", "bob"])
        token = token_of(table, "alice")
        first = await bridge.connect()
        await first.join(token)  # 1 token
        for _ in range(3):  # 3 more: 4 left
            await first.send(protocol.Ping)
            await first.wait_for(protocol.Pong)
        second = await bridge.connect()
        await second.join(token)  # 1 more: 3 left
        for _ in range(3):
            await second.send(protocol.Ping)
            await second.wait_for(protocol.Pong)
        refused = await second.send(protocol.Ping)
        error = await second.wait_for(protocol.ErrorMessage)
        assert (error.code, error.ref) == ("rate_limited", refused)
        assert "each participant over all its connections" in error.message
        assert await closed_with(second.ws) == 1008
        # Another participant at the same table has a bucket of its own.
        bob = await bridge.connect()
        await bob.join(token_of(table, "bob"))
        await bob.send(protocol.Ping)
        assert isinstance(await bob.wait_for(protocol.Pong), protocol.Pong)


async def test_reconnecting_does_not_refill_the_bucket(tmp_path: Path) -> None:
    async with running(tmp_path, rate_limit=0.001, rate_burst=6) as bridge:
        table = bridge.table("t", ["alice"])
        token = token_of(table, "alice")
        for _ in range(2):  # each round: a join and a ping, 2 tokens
            client = await bridge.connect()
            await client.join(token)
            await client.send(protocol.Ping)
            await client.wait_for(protocol.Pong)
            await client.close()
        last = await bridge.connect()
        await last.join(token)  # the 5th token
        await last.send(protocol.Ping)  # the 6th
        await last.wait_for(protocol.Pong)
        await last.send(protocol.Ping)
        assert (await last.wait_for(protocol.ErrorMessage)).code == "rate_limited"
        assert await closed_with(last.ws) == 1008
        assert len(bridge.server.app[LIMITS].buckets) == 1
        # The bucket is empty: the next join is refused before it is answered, in the
        # frame kind it came in.
        again = await bridge.connect(binary=True)
        seq = await again.send(protocol.Join, token=token, last_event=None)
        error = await again.wait_for(protocol.ErrorMessage)
        assert (error.code, error.ref) == ("rate_limited", seq)
        assert await closed_with(again.ws) == 1008
        assert not any(s.participant == "alice" for s in table.sessions)


def paced_pings(url: str, token: str, rate: float, seconds: float) -> dict[str, Any]:
    """In a thread of its own (the server's loop is about to be held up): join, then
    send a ping every ``1 / rate`` s for ``seconds``; what came back."""
    result: dict[str, Any] = {"pongs": 0, "close": None, "errors": []}

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(url)
            join = protocol.Join(seq=1, token=token, last_event=None)
            await ws.send_str(protocol.encode_json(join))

            async def read() -> None:
                async for message in ws:
                    if message.type != aiohttp.WSMsgType.TEXT:
                        continue
                    reply = protocol.decode_server(message.data, max_bytes=1 << 20)
                    if isinstance(reply, protocol.Pong):
                        result["pongs"] += 1
                    elif isinstance(reply, protocol.ErrorMessage):
                        result["errors"].append(reply.code)
                result["close"] = ws.close_code

            reader = asyncio.create_task(read())
            start = time.monotonic()
            sent = 0
            while time.monotonic() - start < seconds and not ws.closed:
                sent += 1
                await ws.send_str(protocol.encode_json(protocol.Ping(seq=sent + 1)))
                # Paced by the schedule, not by the last send: never faster than rate.
                await asyncio.sleep(max(0.0, start + sent / rate - time.monotonic()))
            result["sent"] = sent
            deadline = time.monotonic() + 10
            while result["pongs"] < sent and not ws.closed and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            await ws.close()
            await reader

    asyncio.run(run())
    return result


@pytest.mark.parametrize(("share", "closed"), [(0.9, False), (2.0, True)])
async def test_a_stall_never_closes_a_client_within_the_rate(
    tmp_path: Path, share: float, closed: bool
) -> None:
    # 20 tokens/s and a burst of 10: a 2 s stall holds 36 of a 90 % client's pings
    # unread, far more than the burst, all read at once when the loop runs again.
    rate = 20.0
    async with running(tmp_path, rate_limit=rate, rate_burst=10) as bridge:
        table = bridge.table("t", ["alice"])
        found: dict[str, Any] = {}
        client = threading.Thread(
            target=lambda: found.update(
                paced_pings(bridge.url, token_of(table, "alice"), rate * share, 4.0)
            )
        )
        client.start()
        await asyncio.sleep(1.0)
        time.sleep(2.0)  # the stall: this loop is the server's, and it is held
        while client.is_alive():
            await asyncio.sleep(0.05)
        client.join()
    if closed:  # twice the rate: the credit is the stall's, not a free pass
        assert found["errors"] == ["rate_limited"] and found["close"] == 1008
    else:
        assert found["errors"] == [] and found["pongs"] == found["sent"] > 70
        assert found["close"] in (1000, None)


async def test_handshakes_per_address_beyond_the_burst_get_429(tmp_path: Path) -> None:
    async with running(tmp_path, join_rate=0.5, join_burst=3) as bridge:
        opened = [await bridge.http.ws_connect(bridge.url) for _ in range(3)]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await bridge.http.ws_connect(bridge.url)
        assert refused.value.status == 429
        assert refused.value.headers is not None
        assert 1 <= int(refused.value.headers["Retry-After"]) <= 2
        assert bridge.hub.metrics.snapshot()["handshakes_refused"] == 1
        for ws in opened:
            await ws.close()


async def test_a_storm_of_joins_is_admitted_a_few_at_a_time(tmp_path: Path) -> None:
    async with running(tmp_path, join_burst=1000, max_connections_per_token=0) as bridge:
        table = bridge.table("t", ["alice"])
        token = token_of(table, "alice")
        clients = [await bridge.connect() for _ in range(40)]
        welcomes = await asyncio.gather(*(c.join(token) for c in clients))
        assert {w.participant for w in welcomes} == {"alice"}
        gate = bridge.server.app[LIMITS].gate
        assert gate.waited > 0  # some joins waited their turn...
        assert len([s for s in table.sessions if s.participant == "alice"]) == 40  # ...all in


async def raw_get(port: int, path: str, host: str, extra: str = "") -> int:
    """The status of a GET naming ``Host: host`` (aiohttp's client sets its own)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n".encode()
    )
    status = int((await reader.readline()).split()[1])
    writer.close()
    return status


UPGRADE = (
    "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
)


@pytest.mark.parametrize("path", ["/ws", "/", "/healthz", "/metrics"])
async def test_a_forged_host_is_refused_on_every_path(tmp_path: Path, path: str) -> None:
    async with running(tmp_path, allowed_hosts=("vtt.example",)) as bridge:
        port = bridge.server.port
        assert port is not None
        extra = UPGRADE if path == "/ws" else ""
        ok = 101 if path == "/ws" else 200
        assert await raw_get(port, path, f"evil.example:{port}", extra) == 421
        assert await raw_get(port, path, "evil.example", extra) == 421
        assert await raw_get(port, path, "evil.example:8443", extra) == 421
        assert await raw_get(port, path, f"127.0.0.1:{port}", extra) == ok
        assert await raw_get(port, path, "127.0.0.1:80", extra) == ok  # a port forward's
        assert await raw_get(port, path, f"[::1]:{port}", extra) == ok
        assert await raw_get(port, path, f"localhost:{port}", extra) == ok
        assert await raw_get(port, path, "vtt.example", extra) == ok  # listed: any port
        assert bridge.hub.metrics.snapshot()["host_refused"] == 3


async def test_the_origin_is_compared_by_scheme_host_and_port(tmp_path: Path) -> None:
    allowed = ("https://vtt.example",)
    async with running(tmp_path, allowed_origins=allowed) as bridge:
        port = bridge.server.port
        own = f"http://127.0.0.1:{port}"
        for origin, status in [
            (own, 101),  # the table view's own page
            ("https://vtt.example", 101),
            ("https://vtt.example:443", 101),
            ("http://vtt.example", 403),  # not the scheme allowed
            ("https://vtt.example:8443", 403),
            (f"https://127.0.0.1:{port}", 403),  # not the server's scheme
            (f"http://127.0.0.1:{port + 1}", 403),
            ("null", 403),
        ]:
            got = await raw_get(port, "/ws", f"127.0.0.1:{port}", UPGRADE + f"Origin: {origin}\r\n")
            assert got == status, origin


async def test_frames_over_the_limit_are_closed_1009_every_time(tmp_path: Path) -> None:
    async with running(tmp_path) as bridge:
        for size in [64 * 1024 + 1, 300_000, 2_000_000] * 2:
            ws = await bridge.http.ws_connect(bridge.url)
            await ws.send_str("x" * size)
            assert await closed_with(ws) == 1009, size
            await ws.close()
        assert bridge.hub.metrics.snapshot()["too_big"] == 6


async def test_rate_limited_names_the_seq_of_a_frame_over_64_kib(tmp_path: Path) -> None:
    async with running(
        tmp_path, max_message_bytes=256 * 1024, rate_limit=0.001, rate_burst=30
    ) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.connect()
        await gm.join(token_of(table, "gm"))
        padding = "p" * (100 * 1024)  # 51 tokens: over what is left; unknown field too
        big = {"v": 1, "type": "ping", "seq": 41, "body": {"pad": padding}}
        await gm.send_raw(json.dumps(big))
        error = await gm.wait_for(protocol.ErrorMessage)
        assert (error.code, error.ref) == ("rate_limited", 41)


async def test_a_join_waiting_for_admission_is_not_timed_out(tmp_path: Path) -> None:
    async with running(tmp_path, join_timeout=0.3) as bridge:
        table = bridge.table("t", ["alice"])
        gate = bridge.server.app[LIMITS].gate
        client = await TableClient.connect(bridge.http, bridge.url)  # upgraded
        async with contextlib.AsyncExitStack() as taken:
            for _ in range(ADMISSIONS):  # every admission taken: the join waits
                await taken.enter_async_context(gate)
            await client.send(protocol.Join, token=token_of(table, "alice"), last_event=None)
            await asyncio.sleep(0.6)  # past the join deadline, in the queue
        assert isinstance(await client.wait_for(protocol.Welcome), protocol.Welcome)
        await client.close()
