"""The operator's table management across bridge processes on one PostgreSQL: a table
made through one process's ``/admin/create_table`` (``vtt-bridge create-table
--server``) is joinable through every process at once (the others send its joins to
the maker, which serves it), and one archived through another process closes the
serving process's members (its tokens are revoked in the database, which every process
polls) and admits nobody anywhere (``table_archived``).  ``/healthz`` and ``/metrics``
are each process's own: they count the tables it serves."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

import protocol
from tests.bridge.conftest import closed_with
from tests.bridge.test_pg_bridges import join
from tests.bridges import BridgeProcess, cli, tokens_printed
from tests.wsclient import TableClient

OPS = "ops-secret"
FLAGS = ("--ops-token", OPS, "--revocation-poll", "0.1")


@pytest.fixture
def bridges(pg_dsn: str, tmp_path: Path) -> Iterator[tuple[BridgeProcess, BridgeProcess]]:
    """Two processes on the test's database, each with the operations token."""
    pair = tuple(BridgeProcess(pg_dsn, tmp_path / f"{n}.log", extra=FLAGS) for n in "ab")
    for bridge in pair:
        bridge.start()
    yield pair[0], pair[1]
    for bridge in pair:
        bridge.kill()


def http_of(bridge: BridgeProcess) -> str:
    """A process's operations address (the same port as its WebSocket)."""
    return f"http://127.0.0.1:{bridge.port}"


async def health(http: aiohttp.ClientSession, bridge: BridgeProcess) -> dict[str, object]:
    """``/healthz`` of ``bridge``, with the operations token."""
    headers = {"Authorization": f"Bearer {OPS}"}
    async with http.get(http_of(bridge) + "/healthz", headers=headers) as answer:
        assert answer.status == 200
        found: dict[str, object] = await answer.json()
        return found


async def test_made_through_one_process_joined_through_all_archived_through_another(
    bridges: tuple[BridgeProcess, BridgeProcess],
) -> None:
    a, b = bridges
    made = await asyncio.to_thread(
        cli,
        "create-table",
        "fight",
        "--player",
        "alice",
        "--server",
        http_of(a),
        "--ops-token",
        OPS,
    )
    tokens = tokens_printed(made)
    async with aiohttp.ClientSession() as http:
        # Through b at once: sent on to a, which made the table and serves it.
        _, answer = await join(http, b.url, tokens["alice"], "alice-vtt")
        assert isinstance(answer, protocol.Redirect) and answer.url == a.url
        alice, welcome = await join(http, answer.url, tokens["alice"], "alice-vtt")
        assert isinstance(welcome, protocol.Welcome) and welcome.participant == "alice"
        gm, welcome = await join(http, a.url, tokens["gm"], "gm-vtt")
        assert isinstance(welcome, protocol.Welcome)
        assert ((await health(http, a))["tables"], (await health(http, b))["tables"]) == (1, 0)

        # Archived through b, which does not serve it: a closes its members (1008).
        archived = await asyncio.to_thread(
            cli, "archive-table", "fight", "--server", http_of(b), "--ops-token", OPS
        )
        assert "archived table" in archived and "0 connections closed" in archived
        closes = await asyncio.gather(closed_with(alice.ws), closed_with(gm.ws))
        assert closes == [1008, 1008]
        for bridge in (a, b):  # and neither admits anyone to it
            again = await TableClient.connect(http, bridge.url)
            await again.send(protocol.Join, token=tokens["alice"], last_event=None)
            refused = await again.wait_for(protocol.ErrorMessage)
            assert refused.code == "table_archived", refused
