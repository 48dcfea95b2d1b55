"""The issue's case: the server stores a new join token and is killed before the GM
hears of it.  The GM's client, reconnecting with its id, sends the same ``issue_token``
again and gets the token the server stored, not a second one it would never see."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp

import protocol
from bench.crash import free_port
from vtt_bridge.hub import Hub
from vtt_bridge.store import Store

ISSUE = protocol.IssueToken(seq=5, participant="dave", role="player")


def serve(db: Path, port: int, *flags: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "vtt_bridge", "serve", "--db", str(db), "--port", str(port)]
    server = subprocess.Popen(
        [*command, *flags], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert server.stdout is not None
    assert "listening" in server.stdout.readline()
    return server


async def gm_session(
    http: aiohttp.ClientSession, port: int, token: str
) -> aiohttp.ClientWebSocketResponse:
    for _ in range(100):
        try:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
            break
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.05)
    join = protocol.Join(seq=1, token=token, last_event=None, client="gm-ui")
    await ws.send_str(protocol.encode_json(join))
    while not isinstance(
        protocol.decode_server((await ws.receive(timeout=10)).data), protocol.State
    ):
        pass
    return ws


async def test_an_issue_token_resent_after_a_crash_returns_the_stored_token(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    hub = Hub(Store(db))
    table = hub.create_table("t", ["alice"])
    gm_token = next(t.token for t in table.tokens.values() if t.role == "gm")
    hub.close()
    port = free_port()
    server = serve(db, port, "--crash-at", "admin_stored")
    async with aiohttp.ClientSession() as http:
        ws = await gm_session(http, port, gm_token)
        await ws.send_str(protocol.encode_json(ISSUE))
        ended = await ws.receive(timeout=10)  # killed: no token_issued ever came
        assert ended.type in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.ERROR,
        )
        assert server.wait(timeout=30) == -signal.SIGKILL
        store = Store(db)
        stored = [t for t in store.join_tokens(table.id) if t.participant == "dave"]
        store.close()
        assert len(stored) == 1  # it was stored before the kill
        server = serve(db, port)
        try:
            ws = await gm_session(http, port, gm_token)
            await ws.send_str(protocol.encode_json(ISSUE))
            answer = protocol.decode_server((await ws.receive(timeout=10)).data)
            assert isinstance(answer, protocol.TokenIssued) and answer.ref == ISSUE.seq
            assert answer.token == stored[0].token
            # And the token the GM now holds admits dave.
            dave = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
            await dave.send_str(protocol.encode_json(protocol.Join(seq=1, token=answer.token)))
            welcome = protocol.decode_server((await dave.receive(timeout=10)).data)
            assert isinstance(welcome, protocol.Welcome) and welcome.participant == "dave"
            await dave.close()
            await ws.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    store = Store(db)
    assert [t.token for t in store.join_tokens(table.id) if t.participant == "dave"] == [
        stored[0].token
    ]
    store.close()
