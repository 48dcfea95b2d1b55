"""Running the bridge as a service: the systemd unit in ``docs/`` verifies, ``serve``
raises its open-file limit and says so, and SIGTERM stops it cleanly (every
acknowledged command in the log, every socket closed with 1001, exit status 0)."""

from __future__ import annotations

import asyncio
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

import protocol
from bench.crash import free_port
from tests.bridge.test_backup import GOBLIN_CELLS, connect, logged_events, serve_demo
from tests.wsclient import TableClient

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "docs" / "vtt-bridge.service"


def test_the_service_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing: scripts/install-test-tools installs it")
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    # The unit as the docs give it, run from where this checkout's command line lives.
    here = Path(sys.executable).parent / "vtt-bridge"
    assert here.exists(), "the package's console script is installed beside python"
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/vtt-bridge/.venv/bin/vtt-bridge serve" in text
    unit = tmp_path / "vtt-bridge.service"
    unit.write_text(text.replace("/opt/vtt-bridge/.venv/bin/vtt-bridge", str(here)))
    done = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    # systemd-analyze only warns about a value it cannot parse: no warning either.
    assert "vtt-bridge.service" not in done.stderr, done.stderr


def test_serve_raises_its_open_file_limit_and_says_so(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip(f"the hard limit {hard} leaves nothing to raise")

    def low_soft_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    command = [sys.executable, "-m", "vtt_bridge", "serve", "--port", str(free_port())]
    server = subprocess.Popen(
        [*command, "--db", str(tmp_path / "db.sqlite3"), "--max-connections", "100"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=low_soft_limit,
    )
    try:
        assert server.stdout is not None and server.stderr is not None
        assert "listening" in server.stdout.readline()
        said = next(line for line in server.stderr if "open-file limit" in line)
        m = re.search(r"raised from 256 to (\d+)", said)
        assert m, said
        limits = Path(f"/proc/{server.pid}/limits").read_text()
        soft = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        assert soft.split()[3] == m.group(1)
    finally:
        server.terminate()
        server.wait(timeout=30)


async def close_code(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """The code the server closed ``ws`` with (reading past anything still queued)."""
    while True:
        msg = await ws.receive(timeout=10)
        if msg.type == aiohttp.WSMsgType.CLOSE:
            return int(msg.data)
        if msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            return ws.close_code


async def test_sigterm_commits_what_is_in_flight_and_goes_away(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    port = free_port()
    server, gm_token = serve_demo(db, port)
    acked: list[int] = []
    async with aiohttp.ClientSession() as http:
        gm: TableClient = await connect(http, port)
        await gm.join(gm_token)
        closed = None
        step = 0
        while closed is None:
            try:
                seq = await gm.send(protocol.Move, token="goblin", path=GOBLIN_CELLS[step % 2])
                reply = await gm.reply_to(seq)
            except (ConnectionError, aiohttp.ClientError):
                closed = await close_code(gm.ws)
                break
            if isinstance(reply, protocol.Ack):
                acked.append(reply.last_event)
            else:
                assert reply.code == "shutting_down", reply
            step += 1
            if len(acked) == 30:
                server.send_signal(signal.SIGTERM)  # mid-stream, commands in flight
            await asyncio.sleep(0.01)
    assert server.wait(timeout=30) == 0
    assert closed == aiohttp.WSCloseCode.GOING_AWAY
    assert len(acked) >= 30
    assert logged_events(db) >= acked[-1] + 1, "every acknowledged command is in the log"
