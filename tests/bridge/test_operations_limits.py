"""The limits on what connections may hold, and who may read the operations endpoints:
the handshake deadline, ``--max-connections`` and its per-token cap, ``--ops-token``
and ``--ops-port``."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

import protocol
from bench.event_window import big_scene
from tests.bridge.conftest import closed_with, running, token_of
from vtt_bridge import Config, create_app
from vtt_bridge.cli import build_parser, config_from_args
from vtt_bridge.hub import Hub
from vtt_bridge.recording import replay
from vtt_bridge.store import Store


async def seconds_until_dropped(host: str, port: int, data: bytes) -> float:
    """Open a TCP connection, send ``data`` (part of a request), and wait for the server
    to close it; how long that took."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection(host, port)
    started = loop.time()
    writer.write(data)
    await writer.drain()
    try:
        rest = await asyncio.wait_for(reader.read(), 20)
    finally:
        writer.close()
    assert rest == b""  # dropped without an answer: the request never completed
    return loop.time() - started


async def test_a_half_sent_request_is_dropped_at_the_handshake_deadline(tmp_path: Path) -> None:
    async with running(tmp_path, handshake_timeout=0.5, heartbeat=30.0) as bridge:
        host, port = bridge.server.host, bridge.server.port
        assert port is not None
        half = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        waited = await seconds_until_dropped(host, port, half)
        assert waited < 10  # aiohttp's own default would hold it 75 s
        silent = await seconds_until_dropped(host, port, b"")
        assert silent < 10
        # A WebSocket that completed its handshake is not held to that deadline.
        table = bridge.table("t", ["alice"])
        alice = await bridge.member(table, "alice")
        await asyncio.sleep(1.2)
        await alice.send(protocol.Ping)
        assert isinstance(await alice.wait_for(protocol.Pong), protocol.Pong)


async def test_connections_beyond_the_cap_get_503_and_the_rest_carry_on(tmp_path: Path) -> None:
    async with running(tmp_path, max_connections=3) as bridge:
        table = bridge.table("t", ["alice"])
        members = [await bridge.member(table, "alice") for _ in range(3)]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await bridge.http.ws_connect(bridge.url)
        assert refused.value.status == 503
        health = await bridge.http.get(bridge.server.make_url("/healthz"))
        assert (await health.json())["connections"] == 3
        await members[0].send(protocol.Ping)
        assert isinstance(await members[0].wait_for(protocol.Pong), protocol.Pong)
        # One leaves: the next one gets in.
        await members.pop().close()
        bridge.clients.pop()
        for _ in range(100):
            if bridge.hub.metrics.connections_open < 3:
                break
            await asyncio.sleep(0.02)
        await bridge.member(table, "alice")
        counters = await (await bridge.http.get(bridge.server.make_url("/metrics.json"))).json()
        assert counters["connections_refused"] == 1


async def test_a_join_token_has_at_most_its_cap_of_connections(tmp_path: Path) -> None:
    async with running(tmp_path, max_connections_per_token=2) as bridge:
        table = bridge.table("t", ["alice", "bob"])
        first = [await bridge.member(table, "alice") for _ in range(2)]
        third = await bridge.connect()
        seq = await third.send(protocol.Join, token=token_of(table, "alice"), last_event=None)
        refused = await third.reply_to(seq)
        assert isinstance(refused, protocol.ErrorMessage)
        assert (refused.code, refused.path) == ("too_many_connections", "body.token")
        assert await closed_with(third.ws) == 1013
        # Other tokens are not affected, and the two joined ones still work.
        await bridge.member(table, "bob")
        await first[1].send(protocol.Ping)
        assert isinstance(await first[1].wait_for(protocol.Pong), protocol.Pong)
        assert sum(1 for s in table.sessions if s.participant == "alice") == 2


async def test_the_ops_token_guards_healthz_and_metrics(tmp_path: Path) -> None:
    async with running(tmp_path, ops_token="s3cret") as bridge:
        for path in ("/healthz", "/metrics", "/metrics.json"):
            url = bridge.server.make_url(path)
            anonymous = await bridge.http.get(url)
            assert anonymous.status == 401
            assert anonymous.headers["WWW-Authenticate"].startswith("Bearer")
            wrong = await bridge.http.get(url, headers={"Authorization": "Bearer nope"})
            assert wrong.status == 401
            right = await bridge.http.get(url, headers={"Authorization": "Bearer s3cret"})
            assert right.status == 200 and await right.text()
        # The WebSocket endpoint does not ask for it.
        await bridge.member(bridge.table("t", ["alice"]), "alice")


async def test_the_ops_port_serves_only_healthz_and_metrics(tmp_path: Path) -> None:
    ops = socket.create_server(("127.0.0.1", 0))
    ops_port = ops.getsockname()[1]
    config = Config(database=tmp_path / "db.sqlite3", port=0, ops_port=ops_port)
    app = create_app(config)
    runner = web.AppRunner(app)
    await runner.setup()
    main = web.TCPSite(runner, "127.0.0.1", 0)
    await main.start()
    await web.SockSite(runner, ops).start()
    main_port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession() as http:
            for path in ("/healthz", "/metrics", "/metrics.json"):
                assert (await http.get(f"http://127.0.0.1:{ops_port}{path}")).status == 200
                assert (await http.get(f"http://127.0.0.1:{main_port}{path}")).status == 404
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"http://127.0.0.1:{ops_port}/ws")
            assert refused.value.status == 404
            ws = await http.ws_connect(f"http://127.0.0.1:{main_port}/ws")
            await ws.send_str(protocol.encode_json(protocol.Ping(seq=1)))
            answer = protocol.decode_server((await ws.receive(timeout=5)).data)
            assert isinstance(answer, protocol.ErrorMessage) and answer.code == "not_joined"
            await ws.close()
    finally:
        await runner.cleanup()


async def test_the_event_window_is_bounded_by_bytes(tmp_path: Path) -> None:
    scene = big_scene(260)  # a scene_loaded event of about 40 KB
    # 30 loads of 40 KB cost far more than the default rate limit allows (1 per 2 KiB).
    async with running(
        tmp_path, events_kept_bytes=200_000, rate_limit=10_000, rate_burst=10_000
    ) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        for _ in range(30):
            seq = await gm.send(protocol.LoadScene, scene=scene)
            assert isinstance(await gm.reply_to(seq), protocol.Ack)
            gm.inbox.clear()
            assert table.events.bytes <= 2 * 200_000 + 50_000
        # 30 events of 40 KB: far under the count bound, yet most were let go.
        assert len(table.events) == 30 and table.events.base >= 20
        last = len(table.events) - 1
        # Asking for events from before the window: the full state instead.
        behind = await bridge.connect()
        behind.max_bytes = 1 << 20
        await behind.join(token_of(table, "alice"), last_event=0)
        state = await behind.next()
        assert isinstance(state, protocol.State) and state.last_event == last
        # From inside it: the events themselves.
        near = await bridge.connect()
        near.max_bytes = 1 << 20
        await near.join(token_of(table, "alice"), last_event=last - 2)
        events = [await near.wait_for(protocol.Event) for _ in range(2)]
        assert [e.index for e in events] == [last - 1, last]


def test_every_new_limit_is_a_flag_and_an_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VTT_BRIDGE_HANDSHAKE_TIMEOUT", "3.5")
    monkeypatch.setenv("VTT_BRIDGE_MAX_CONNECTIONS", "123")
    monkeypatch.setenv("VTT_BRIDGE_MAX_CONNECTIONS_PER_TOKEN", "4")
    monkeypatch.setenv("VTT_BRIDGE_EVENTS_KEPT_BYTES", "1000000")
    monkeypatch.setenv("VTT_BRIDGE_OPS_TOKEN", "from-env")
    monkeypatch.setenv("VTT_BRIDGE_OPS_PORT", "9100")
    monkeypatch.setenv("VTT_BRIDGE_LOG_REPEAT_INTERVAL", "30")
    monkeypatch.setenv("VTT_BRIDGE_MAX_MESSAGE_BYTES", "524288")
    args = ["serve", "--ops-host", "0.0.0.0", "--max-connections", "77"]
    config = config_from_args(build_parser().parse_args(args))
    assert (config.handshake_timeout, config.max_connections) == (3.5, 77)
    assert (config.max_connections_per_token, config.events_kept_bytes) == (4, 1_000_000)
    assert (config.ops_token, config.ops_host, config.ops_port) == ("from-env", "0.0.0.0", 9100)
    assert (config.log_repeat_interval, config.max_message_bytes) == (30.0, 524_288)
    plain = config_from_args(build_parser().parse_args(["serve"]))
    assert (plain.max_connections, plain.ops_host) == (123, "127.0.0.1")  # from the environment


async def test_a_recording_replays_the_limits_it_was_made_under(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    made = Hub(Store(db))
    table_id = made.create_table("t", ["alice"], spectators=1).id
    made.close()
    async with running(
        tmp_path, record_dir=tmp_path / "rec", max_connections_per_token=1, events_kept_bytes=1
    ) as bridge:
        table = bridge.hub.tables[table_id]
        gm = await bridge.member(table, "gm")
        for _ in range(3):
            await gm.reply_to(await gm.send(protocol.LoadScene, scene=big_scene(5)))
        alice = await bridge.member(table, "alice")
        second = await bridge.connect()
        seq = await second.send(protocol.Join, token=token_of(table, "alice"), last_event=None)
        refused = await second.reply_to(seq)
        assert isinstance(refused, protocol.ErrorMessage) and refused.code == "too_many_connections"
        late = await bridge.connect()
        await late.join(token_of(table, "spectator-1"), last_event=0)
        assert isinstance(await late.next(), protocol.State)  # 1 byte: no window at all
        await alice.send(protocol.Ping)
        await alice.wait_for(protocol.Pong)
    [recording] = (tmp_path / "rec").iterdir()
    result = await replay(recording)
    assert result.ok, result.diff
    assert result.compared > 5
