"""What one connection may cost the server: handshake, join, rate, size, and stalls."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from bench.event_window import big_scene
from tests.bridge.conftest import Bridge, closed_with, token_of
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.appkeys import CONNECTIONS


async def test_origin_allowlist(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "db.sqlite3", allowed_origins=("https://vtt.example",))
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        url = str(server.make_url("/ws"))
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(url, origin="https://evil.example")
        assert refused.value.status == 403
        ok = await http.ws_connect(url, origin="https://vtt.example")
        await ok.close()
        no_origin = await http.ws_connect(url)  # not a browser
        await no_origin.close()
        # The handshake offers no permessage-deflate.
        deflate = await http.ws_connect(url, compress=15)
        assert deflate.compress == 0
        await deflate.close()


async def test_join_timeout_rate_limit_and_size(tmp_path: Path) -> None:
    config = Config(
        database=tmp_path / "db.sqlite3", join_timeout=0.2, rate_limit=5.0, rate_burst=20
    )
    app = create_app(config)
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        url = bridge.url
        # No join in time: closed with 1008.
        silent = await http.ws_connect(url)
        assert await closed_with(silent) == 1008
        # Too many messages: closed with 1008; other connections are unaffected.
        flooder = await TableClient.connect(http, url)
        await flooder.join(token_of(table, "alice"))
        calm = await TableClient.connect(http, url)
        await calm.join(token_of(table, "gm"))
        for _ in range(200):
            try:
                await flooder.send(protocol.Ping)
            except ConnectionError:
                break
        assert await closed_with(flooder.ws) == 1008
        await calm.send(protocol.Ping)
        assert isinstance(await calm.wait_for(protocol.Pong), protocol.Pong)
        # A frame over 64 KiB: closed with 1009.
        big = await http.ws_connect(url)
        await big.send_str("x" * (64 * 1024 + 1))
        assert await closed_with(big) == 1009
        health = await http.get(server.make_url("/healthz"))
        assert (await health.json())["ok"] is True
        counters = await (await http.get(server.make_url("/metrics.json"))).json()
        assert counters["join_timeouts"] >= 1 and counters["rate_limited"] >= 1
        await calm.close()


async def _stalled_socket_is_aborted(tmp_path: Path) -> None:
    # A queue too big to overflow here: only the stall rule can catch this reader.
    # The GM's rate lifted: it sends until the reader is caught, however many that takes.
    config = Config(
        database=tmp_path / "db.sqlite3",
        outbound_queue=100_000,
        stall_timeout=0.3,
        rate_limit=1e6,
        rate_burst=10**6,
    )
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice", "bob"])
        gm = await bridge.member(table, "gm")
        stalled = await http.ws_connect(bridge.url, max_msg_size=0)
        join = protocol.Join(seq=1, token=token_of(table, "alice"))
        await stalled.send_str(protocol.encode_json(join))
        while not any(s.participant == "alice" for s in table.sessions):
            await asyncio.sleep(0.01)
        (alice,) = [o for o in server.app[CONNECTIONS] if o.session.participant == "alice"]
        alice_socket = alice._transport
        assert alice_socket is not None
        # The stalled client never reads again; the GM keeps sending big broadcasts.
        scene = big_scene(150)  # a scene_loaded broadcast of about 20 KB
        sent = 0
        while any(s.participant == "alice" for s in table.sessions):
            seq = await gm.send(protocol.LoadScene, scene=scene)
            assert isinstance(await gm.reply_to(seq), protocol.Ack)
            gm.inbox.clear()
            sent += 1
            assert sent < 5000, "the stalled client was never dropped"
        assert {s.participant for s in table.sessions} == {"gm"}
        # Its socket is aborted, not left open until a heartbeat notices.
        assert alice_socket.is_closing()


async def test_a_stalled_socket_is_aborted_and_others_carry_on(tmp_path: Path) -> None:
    await _stalled_socket_is_aborted(tmp_path)


def test_on_uvloop_a_stalled_socket_is_aborted_too(tmp_path: Path) -> None:
    # uvloop's transports are no asyncio.WriteTransport: the abort must reach them too.
    uvloop = pytest.importorskip("uvloop")
    uvloop.run(_stalled_socket_is_aborted(tmp_path))
