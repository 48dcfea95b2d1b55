"""The integration guides' install steps, read from the guides themselves and run in
their written order against a real running server: whatever ``vtt-bridge`` command a
guide's *Install* section names (a ``sh`` block or an inline one), in order, then a
join with every token the steps printed.  Edit a guide's steps and this runs the new
ones.

Run as written, but for what a guide leaves to the reader: its placeholders
(:data:`PLACEHOLDERS`) and the port (a free one instead of 8080, on loopback; the machine
may be running another server).  A step that names ``vtt-bridge serve`` in its prose
and then gives the full command in a block is one step, the full command."""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

import protocol
from bench.crash import free_port
from tests.bridge.test_tables_live import ENV, cli, tokens_printed
from tests.test_doc_commands import commands
from tests.wsclient import TableClient

ROOT = Path(__file__).resolve().parents[2]
GUIDES = [
    ROOT / "integrations" / "owlbear" / "README.md",
    ROOT / "integrations" / "foundry" / "README.md",
]
#: What a guide leaves to its reader, as this test fills it in.
PLACEHOLDERS = {"YOUR-HOST": "your-host", "<user id>": "user-bob"}
INLINE = re.compile(r"`(vtt-bridge [^`]+)`")


def install_section(guide: Path) -> str:
    """The guide's *Install* section: from its heading to the next ``## `` heading."""
    text = guide.read_text(encoding="utf-8")
    start = re.search(r"^## .*Install.*$", text, re.M)
    assert start is not None, f"{guide}: no Install section"
    end = re.search(r"^## ", text[start.end() :], re.M)
    return text[start.end() : start.end() + end.start() if end else len(text)]


def install_steps(guide: Path) -> list[list[str]]:
    """The ``vtt-bridge`` commands of a guide's Install section in written order (its
    ``sh`` blocks' lines and its inline ones, a numbered list's indentation and all),
    as argument lists, placeholders filled in."""
    found: list[str] = []
    shell: list[str] | None = None  # the lines of the sh block being read
    other = False  # inside another block (a macro, a table)
    for line in install_section(guide).splitlines():
        fence = line.strip()
        if fence.startswith("```"):
            if shell is not None:
                found += [c for c in commands("\n".join(shell)) if c.startswith("vtt-bridge ")]
                shell = None
            elif other:
                other = False
            elif fence == "```sh":
                shell = []
            else:
                other = True
        elif shell is not None:
            shell.append(fence)
        elif not other:
            found += INLINE.findall(line)
    steps: list[list[str]] = []
    for line in found:
        for placeholder, value in PLACEHOLDERS.items():
            line = line.replace(placeholder, value)
        argv = shlex.split(line)
        if steps and steps[-1][:2] == argv[:2] == ["vtt-bridge", "serve"]:
            steps.pop()  # named in the prose, then given in full: one step, the full one
        steps.append(argv)
    return steps


def serving(argv: list[str], port: int) -> list[str]:
    """A guide's ``serve`` step on loopback and a free port, otherwise as written."""
    argv = [a if a != "8080" else str(port) for a in argv]
    if "--port" not in argv:
        argv += ["--port", str(port)]
    if "--host" not in argv:
        argv += ["--host", "127.0.0.1"]
    return argv


async def listening(http: aiohttp.ClientSession, port: int) -> None:
    """Wait until the guide's server answers (its first step is done)."""
    for _ in range(600):
        try:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


async def joined(
    http: aiohttp.ClientSession, port: int, token: str, origin: str | None
) -> protocol.Welcome:
    """A join with ``token`` from a browser at ``origin`` (None: no Origin header)."""
    headers = {"Origin": origin} if origin is not None else {}
    client = TableClient(await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers))
    try:
        await client.send(protocol.Join, token=token, last_event=None)
        answer = await client.wait_for((protocol.Welcome, protocol.ErrorMessage))
    finally:
        await client.close()
    assert isinstance(answer, protocol.Welcome), answer
    return answer


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.parent.name)
async def test_the_guides_install_steps_work_in_their_order_on_a_running_server(
    guide: Path, tmp_path: Path
) -> None:
    steps = install_steps(guide)
    assert steps[0][:2] == ["vtt-bridge", "serve"], steps  # the server runs first
    assert any(s[1] == "create-table" for s in steps), steps
    port = free_port()
    serve = serving(steps[0], port)
    origin = next((serve[i + 1] for i, a in enumerate(serve) if a == "--allowed-origins"), None)
    server = subprocess.Popen(
        [sys.executable, "-m", "vtt_bridge", *serve[1:]],
        cwd=tmp_path, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        async with aiohttp.ClientSession() as http:
            await listening(http, port)
            # Each later step runs on the running server, in order; then everyone joins.
            printed: dict[str, str] = {}
            for argv in steps[1:]:
                done = await asyncio.to_thread(cli, *argv[1:], cwd=tmp_path)
                assert done.returncode == 0, f"{guide.name}: {argv}\n{done.stderr}"
                printed.update(tokens_printed(done.stdout))
            assert "gm" in printed, printed
            tables = set()
            for participant, token in printed.items():
                welcome = await joined(http, port, token, origin)
                assert welcome.participant == participant
                tables.add(welcome.table)
            assert len(tables) == 1  # every step's token opens the one table made
    finally:
        server.terminate()
        server.wait(30)


def test_the_steps_are_read_from_the_guides() -> None:
    owlbear, foundry = (install_steps(g) for g in GUIDES)
    assert [s[:2] for s in owlbear] == [["vtt-bridge", "serve"], ["vtt-bridge", "create-table"]]
    assert [s[:2] for s in foundry] == [
        ["vtt-bridge", "serve"], ["vtt-bridge", "create-table"], ["vtt-bridge", "issue-token"],
    ]  # fmt: skip
    assert foundry[2][-1] == "user-bob"  # its placeholder filled in
