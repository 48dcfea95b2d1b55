"""Shared helpers for bridge tests: a real server on loopback with tables made through the hub."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.pg_fixture import pg_dsn, postgres  # noqa: F401  (PostgreSQL, started on use)
from tests.bridge.stores import store_factory  # noqa: F401  (each store test on both backends)
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.hub import Hub
from vtt_bridge.tables import Table


@dataclass
class Bridge:
    """A running bridge: its app, hub, URL, and an HTTP session to connect with."""

    server: TestServer
    http: aiohttp.ClientSession
    config: Config
    clients: list[TableClient] = field(default_factory=list)

    @property
    def hub(self) -> Hub:
        return self.server.app[HUB]

    @property
    def url(self) -> str:
        return str(self.server.make_url("/ws"))

    def table(self, name: str, players: list[str], **options: Any) -> Table:
        return self.hub.create_table(name, players, spectators=1, **options)

    async def connect(self, *, binary: bool = False) -> TableClient:
        client = await TableClient.connect(self.http, self.url, binary=binary)
        self.clients.append(client)
        return client

    async def member(
        self,
        table: Table,
        participant: str,
        *,
        client: str | None = None,
        binary: bool = False,
        batch: bool = False,
    ) -> TableClient:
        """A connection joined to ``table`` as ``participant``."""
        token = token_of(table, participant)
        member = await self.connect(binary=binary)
        await member.send(protocol.Join, token=token, last_event=None, client=client, batch=batch)
        await member.wait_for(protocol.Welcome)
        return member


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """Read until the server closes the connection; the close code it sent.

    The code of the server's close frame when one arrived: the client's own
    ``close_code`` reads 1006 when the server has already dropped the socket by the
    time the client answers the close, although the frame said why (a browser's
    ``CloseEvent.code`` is the frame's code)."""
    while True:
        message = await ws.receive(timeout=10)
        if message.type == aiohttp.WSMsgType.CLOSE:
            return int(message.data)
        if message.type in (
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.CLOSING,
            aiohttp.WSMsgType.ERROR,
        ):
            return ws.close_code


def token_of(table: Table, participant: str) -> str:
    """The join token of ``participant`` at ``table``."""
    return next(
        t.token for t in table.tokens.values() if t.participant == participant and not t.revoked
    )


@asynccontextmanager
async def running(tmp_path: Path, **options: Any) -> AsyncIterator[Bridge]:
    """A bridge on loopback with ``Config`` ``options``, its database in ``tmp_path``."""
    config = Config(database=tmp_path / "db.sqlite3", **options)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        try:
            yield bridge
        finally:
            for client in bridge.clients:
                await client.close()


@pytest.fixture
async def bridge(tmp_path: Path) -> AsyncIterator[Bridge]:
    config = Config(database=tmp_path / "bridge.sqlite3", rate_limit=10_000, rate_burst=10_000)
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        b = Bridge(server, http, config)
        yield b
        for client in b.clients:
            await client.close()


def table_fingerprint(table: Table) -> tuple[Any, ...]:
    """Everything a refused message must leave as it was."""
    return (
        table.encounter.state_hash(),
        table.committed,
        len(table.events),
        table.positions,
        table.next_position,
        dict(table.tokens),
        table.row,
        dict(table.deadlines),
    )
