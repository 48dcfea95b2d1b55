"""Tables and join tokens made while the server runs, by the command line in another
process, as the integration guides say, in their order: a real ``vtt-bridge serve``
process, then ``vtt-bridge create-table`` (and ``issue-token``), then joins with the
printed tokens, with no restart.  ``vtt-bridge archive-table`` then closes the table's
connections (1008, "table archived") and its tokens stop joining at once
(``table_archived``)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

import protocol
from bench.crash import free_port
from tests.wsclient import TableClient

ROOT = Path(__file__).resolve().parents[2]
#: The command line of this tree, whatever folder it runs in.
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
ORIGIN = "https://your-host"  # the Owlbear guide's --allowed-origins, as written


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``vtt-bridge ARGS`` in its own process, as a user runs it beside the server."""
    return subprocess.run(
        [sys.executable, "-m", "vtt_bridge", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120, env=ENV,
    )  # fmt: skip


def tokens_printed(out: str) -> dict[str, str]:
    """Participant -> join token, from what ``create-table`` / ``issue-token`` print."""
    found = {}
    for line in out.splitlines():
        words = line.split()
        if words[-3:-1] == ["join", "token"]:
            found[words[1]] = words[-1]
    return found


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """``vtt-bridge serve`` as the Owlbear guide runs it (step 2), in its own process,
    on an empty database in ``tmp_path``; its port.  No table exists yet."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "vtt_bridge", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--allowed-origins", ORIGIN, "--revocation-poll", "0.05"],
        cwd=tmp_path, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield port, tmp_path
    finally:
        server.terminate()
        server.wait(30)


async def connect(http: aiohttp.ClientSession, port: int) -> TableClient:
    """A browser-like client (the extension's origin) once the server listens."""
    for _ in range(400):
        try:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers={"Origin": ORIGIN})
            return TableClient(ws)
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


async def joins(http: aiohttp.ClientSession, port: int, token: str) -> protocol.Welcome:
    client = await connect(http, port)
    await client.send(protocol.Join, token=token, last_event=None)
    answer = await client.wait_for((protocol.Welcome, protocol.ErrorMessage))
    assert isinstance(answer, protocol.Welcome), answer
    return answer


async def test_the_owlbear_guide_in_order_then_archive_table(
    served: tuple[int, Path],
) -> None:
    port, cwd = served
    async with aiohttp.ClientSession() as http:
        await (await connect(http, port)).close()  # it runs (step 2) before the table exists
        # Step 3: the table and its tokens, made by another process.
        made = cli("create-table", "Thursday game", "--player", "alice", "--player", "bob",
                   cwd=cwd)  # fmt: skip
        assert made.returncode == 0, made.stderr
        tokens = tokens_printed(made.stdout)
        assert set(tokens) == {"gm", "alice", "bob"}
        gm = await joins(http, port, tokens["gm"])
        alice_client = await connect(http, port)
        await alice_client.send(protocol.Join, token=tokens["alice"], last_event=None)
        alice = await alice_client.wait_for(protocol.Welcome)
        assert (gm.role, alice.participant, alice.table) == ("gm", "alice", gm.table)
        assert (await joins(http, port, tokens["bob"])).role == "player"

        # Archived from the command line: members are closed, the tokens stop joining.
        archived = cli("archive-table", "Thursday game", cwd=cwd)
        assert archived.returncode == 0, archived.stderr
        assert gm.table in archived.stdout
        closing = await alice_client.ws.receive(timeout=10)
        while closing.type == aiohttp.WSMsgType.TEXT:  # what it was sent on joining
            closing = await alice_client.ws.receive(timeout=10)
        assert closing.type == aiohttp.WSMsgType.CLOSE
        assert (closing.data, closing.extra) == (1008, "table archived")
        late = await connect(http, port)
        await late.send(protocol.Join, token=tokens["bob"], last_event=None)
        refused = await late.wait_for(protocol.ErrorMessage)
        assert refused.code == "table_archived"  # a typed refusal naming why
        again = cli("issue-token", "Thursday game", "carol", cwd=cwd)
        assert again.returncode == 1 and "no single table" in again.stderr
        assert cli("archive-table", "Thursday game", cwd=cwd).returncode == 1


async def test_the_foundry_guide_in_order(served: tuple[int, Path]) -> None:
    port, cwd = served
    async with aiohttp.ClientSession() as http:
        await (await connect(http, port)).close()  # step 1: the bridge runs
        made = cli("create-table", "my-table", cwd=cwd)  # step 2
        assert made.returncode == 0, made.stderr
        gm_token = tokens_printed(made.stdout)["gm"]
        gm_client = await connect(http, port)  # step 4: the GM's module connects
        await gm_client.send(protocol.Join, token=gm_token, last_event=None)
        welcome = await gm_client.wait_for(protocol.Welcome)
        # Step 5: the macro issues each player's token over the protocol ...
        seq = await gm_client.send(protocol.IssueToken, participant="user-alice", role="player")
        issued = await gm_client.wait_for(protocol.TokenIssued, lambda m: m.ref == seq)
        # ... or the shell does, in another process.
        shell = cli("issue-token", "my-table", "user-bob", cwd=cwd)
        assert shell.returncode == 0, shell.stderr
        for participant, token in (
            ("user-alice", issued.token), ("user-bob", tokens_printed(shell.stdout)["user-bob"]),
        ):  # fmt: skip
            joined = await joins(http, port, token)  # step 6: each player connects
            assert (joined.table, joined.participant) == (welcome.table, participant)


async def test_a_join_for_a_table_nobody_has_is_still_refused(served: tuple[int, Path]) -> None:
    port, _ = served
    async with aiohttp.ClientSession() as http:
        client = await connect(http, port)
        started = time.monotonic()
        await client.send(protocol.Join, token="no-such-token-at-all", last_event=None)
        refused = await client.wait_for(protocol.ErrorMessage)
        assert (refused.code, refused.message) == ("bad_token", "no table has that join token")
        assert time.monotonic() - started < 10
