"""The table view served at ``/``: its files, their content types, nothing outside them,
WebSocket connections from the page's own origin, and the files in the wheel."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.demo import demo_scene

ROOT = Path(__file__).resolve().parents[2]


async def test_the_page_and_its_modules_are_served(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "db.sqlite3")
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        page = await http.get(server.make_url("/"))
        assert page.status == 200
        assert page.content_type == "text/html"
        assert '<script type="module" src="/view/main.js">' in await page.text()
        for path in (
            "/view/main.js",
            "/view/board.js",
            "/client/src/index.js",
            "/client/vendor/msgpack/index.mjs",
            "/client/vendor/msgpack/utils/int.mjs",
        ):
            found = await http.get(server.make_url(path))
            assert found.status == 200, path
            assert found.content_type == "text/javascript", path
            assert found.headers["X-Content-Type-Options"] == "nosniff"
        css = await http.get(server.make_url("/view/style.css"))
        assert css.content_type == "text/css"
        # Nothing but the page and the library: not the library's tests, not the package.
        for path in (
            "/client/test/helpers.js",
            "/client/package.json",
            "/view/../../app.py",
            "/view/%2e%2e/%2e%2e/app.py",
            "/client/src/../../../app.py",
            "/client/vendor/msgpack/VERSION",
            "/view/missing.js",
        ):
            refused = await http.get(server.make_url(path))
            assert refused.status == 404, path


async def test_the_page_may_connect_to_its_own_server(tmp_path: Path) -> None:
    # No allowlist: the page's own origin is allowed, any other is refused...
    config = Config(database=tmp_path / "db.sqlite3")
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        url = str(server.make_url("/ws"))
        own = f"http://{server.host}:{server.port}"
        ws = await http.ws_connect(url, origin=own)
        await ws.close()
        for other in (f"http://{server.host}:{server.port + 1}", "https://evil.example", "null"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(url, origin=other)
            assert refused.value.status == 403, other
    # ...and an allowlist adds origins to it without taking the own one away.
    config = Config(database=tmp_path / "db2.sqlite3", allowed_origins=("https://vtt.example",))
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        url = str(server.make_url("/ws"))
        for allowed in (f"http://{server.host}:{server.port}", "https://vtt.example"):
            ws = await http.ws_connect(url, origin=allowed)
            await ws.close()


@pytest.mark.timeout(600)
def test_the_wheel_ships_the_page_and_the_client(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=540,
    )
    (wheel,) = tmp_path.glob("vtt_bridge-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    static = ROOT / "vtt_bridge" / "static"
    expected = [
        "vtt_bridge/static/index.html",
        *(f"vtt_bridge/static/view/{p.name}" for p in (static / "view").iterdir()),
        *(f"vtt_bridge/static/client/src/{p.name}" for p in (static / "client/src").iterdir()),
        "vtt_bridge/static/client/vendor/msgpack/index.mjs",
        "vtt_bridge/static/client/vendor/msgpack/utils/utf8.mjs",
        "vtt_bridge/static/client/vendor/msgpack/LICENSE",
    ]
    assert [name for name in expected if name not in names] == []
    assert not [name for name in names if "/client/test/" in name or "/client/scripts/" in name]


async def _serve_demo(db: Path) -> tuple[asyncio.subprocess.Process, list[str]]:
    """``vtt-bridge serve --demo`` on a free port; the process and what it printed up to
    the page URLs (the last lines of its start-up)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "vtt_bridge", "serve", "--demo", "--port", str(port)),
        *("--db", str(db)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert process.stdout is not None
    lines: list[str] = []
    while sum("/#token=" in line for line in lines) < 3:
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        assert line, f"serve exited early: {lines}"
        lines.append(line.decode().rstrip())
    return process, lines


async def _stop(process: asyncio.subprocess.Process) -> None:
    process.terminate()
    await asyncio.wait_for(process.wait(), 30)


async def test_serve_demo_has_a_scene_and_prints_the_page_urls(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    process, lines = await _serve_demo(db)
    try:
        assert any(line.startswith("demo scene loaded") for line in lines)
        urls = {
            parts[0]: parts[1] for line in lines if "/#token=" in line for parts in [line.split()]
        }
        assert set(urls) == {"gm", "alice", "bob"}
        page, _, token = urls["gm"].partition("#token=")
        async with aiohttp.ClientSession() as http:
            await _eventually_ok(http, page)
            ws = await http.ws_connect(page.replace("http://", "ws://") + "ws", origin=page[:-1])
            client = TableClient(ws)
            await client.join(token)
            state = await client.wait_for(protocol.State)
            await client.close()
        scene = state.state["scene"]
        assert [t["id"] for t in scene["tokens"]] == [t.id for t in demo_scene().tokens]
        assert scene["walls"] and scene["terrain"]
        assert state.state["combat"] is None, "combat is the GM's to start"
    finally:
        await _stop(process)
    # Restarted on the same database: the table is as it was, nothing loaded again.
    process, lines = await _serve_demo(db)
    await _stop(process)
    assert not any(line.startswith("demo scene loaded") for line in lines)


async def _eventually_ok(http: aiohttp.ClientSession, url: str) -> None:
    """Wait until ``url`` answers 200 (the URLs are printed before the socket is bound)."""
    for _ in range(200):
        try:
            async with http.get(url) as response:
                if response.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.05)
    raise AssertionError(f"{url} never answered")
