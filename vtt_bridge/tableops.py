"""Tables made and archived while the server runs, by the operator: ``POST
/admin/create_table`` and ``POST /admin/archive_table`` (:mod:`protocol.operator`).

Who may: whoever holds the server's operations token (``--ops-token``), sent as
``Authorization: Bearer <token>``; a server without one refuses every request
(``no_credential``), so no table is ever made over the network by someone who merely
reaches the port.  A table's GM is not enough: a GM administers its own table
(:mod:`vtt_bridge.admin`), never the server.  The guard that checks the token is
:func:`vtt_bridge.operations.operations_guard`, with ``/healthz``'s; with
``--ops-port`` these answer only on that listener.

A table made here joins at once (it is installed in the hub as it is stored); an
archived one is closed here at once (:meth:`vtt_bridge.hub.Hub.close_archived`), its
members told why (1008, "table archived"), its log kept.  ``vtt-bridge create-table``
and ``archive-table`` send these when given ``--server``.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from typing import Any

import msgspec
from aiohttp import web

import protocol
from protocol.operator import (
    OPERATOR_REQUESTS,
    ArchiveTable,
    CreateTable,
    OperatorRefusal,
    TableArchived,
    TableCreated,
)
from vtt_bridge.admin import RESERVED_PARTICIPANTS, listed
from vtt_bridge.appkeys import CONFIG, HUB
from vtt_bridge.hub import Hub, new_table_records
from vtt_bridge.tables import Table

log = logging.getLogger("vtt_bridge")
#: Where the operator requests are served: ``/admin/<type>``.
ADMIN_PREFIX = "/admin/"
#: The largest request body read: a ``create_table`` naming every seat is below 8 KiB.
MAX_REQUEST_BYTES = 16 * 1024

Answer = tuple[int, TableCreated | TableArchived | OperatorRefusal]


def add_routes(app: web.Application) -> None:
    """Serve the operator requests on ``app``."""
    app.router.add_post(ADMIN_PREFIX + "{kind}", _handle)


def reply(status: int, answer: TableCreated | TableArchived | OperatorRefusal) -> web.Response:
    """An operator answer as JSON: its fields and its ``type``."""
    body: dict[str, Any] = {"type": answer.TYPE, **msgspec.to_builtins(answer)}
    return web.json_response(body, status=status)


def refused(status: int, code: str, message: str, path: str | None = None) -> web.Response:
    """An operator request refused with ``code``: nothing changed."""
    return reply(status, OperatorRefusal(code=code, message=message, path=path))


async def _handle(request: web.Request) -> web.StreamResponse:
    kind = request.match_info["kind"]
    shape = OPERATOR_REQUESTS.get(kind)
    if shape is None:
        known = ", ".join(sorted(OPERATOR_REQUESTS))
        return refused(404, "unknown_type", f"no operator request {kind!r}; one of {known}")
    if (request.content_length or 0) > MAX_REQUEST_BYTES:
        return refused(413, "too_large", f"a request is at most {MAX_REQUEST_BYTES} bytes")
    raw = await request.content.read(MAX_REQUEST_BYTES + 1)
    if len(raw) > MAX_REQUEST_BYTES:
        return refused(413, "too_large", f"a request is at most {MAX_REQUEST_BYTES} bytes")
    try:
        message = shape.from_wire(msgspec.json.decode(raw))
    except msgspec.DecodeError as exc:
        return refused(400, "invalid_json", str(exc))
    except protocol.ProtocolError as exc:
        return refused(400, exc.code, exc.detail, exc.path or None)
    hub, now_ms = request.app[HUB], request.app[CONFIG].clock()
    if isinstance(message, CreateTable):
        status, answer = await create_table(
            hub, message, request.app[CONFIG].prompt_timeout, now_ms
        )
    else:
        status, answer = await archive_table(hub, message, now_ms)
    return reply(status, answer)


def request_table_id(request: str) -> str:
    """The id of the table a ``create_table`` with this ``request`` makes: the same
    every time, so a retry (also after a restart) finds the table the first one made."""
    return hashlib.sha256(f"create_table:{request}".encode()).hexdigest()[:8]


def _seats(message: CreateTable) -> list[tuple[str, str]]:
    players = [(p, "player") for p in message.players]
    spectators = [(f"spectator-{i + 1}", "spectator") for i in range(message.spectators)]
    return [("gm", "gm"), *players, *spectators]


def _created(table: Table, seats: int) -> TableCreated:
    first = list(table.tokens.values())[:seats]  # in the order they were issued
    return TableCreated(
        table=table.id,
        name=table.row.name,
        tokens=listed(first),
    )


async def create_table(
    hub: Hub, message: CreateTable, default_timeout: float, now_ms: int
) -> Answer:
    """Carry out ``create_table``: store the table and install it, or answer with the
    one its ``request`` made already; the HTTP status and the answer."""
    seats = _seats(message)
    for i, participant in enumerate(message.players):
        if participant in RESERVED_PARTICIPANTS:
            text = f"participant id {participant!r} is reserved"
            return 400, OperatorRefusal(code="reserved_participant", message=text,
                                        path=f"players[{i}]")  # fmt: skip
        if participant in message.players[:i]:
            text = f"participant {participant!r} is named twice"
            return 400, OperatorRefusal(code="bad_value", message=text, path=f"players[{i}]")
    if message.request is None:
        table_id = secrets.token_hex(4)
    else:
        table_id = request_table_id(message.request)
        made = await _made_by_request(hub, table_id, message, seats)
        if made is not None:
            return made
    timeout = (
        default_timeout if message.prompt_timeout_ms is None else message.prompt_timeout_ms / 1000
    )
    row, tokens = new_table_records(
        table_id, message.name, message.players, message.spectators, None, timeout, now_ms,
        message.dice,
    )  # fmt: skip
    try:
        await hub.committer.in_db(hub.store.create_table, row, tokens)
    except Exception:
        if message.request is not None:  # the same request, sent twice at once
            made = await _made_by_request(hub, table_id, message, seats)
            if made is not None:
                return made
        log.exception("create_table: the table could not be stored")
        return 500, OperatorRefusal(code="internal", message="the table could not be stored")
    finally:  # its tokens (perhaps) written: joins read them again
        hub.join_tokens.forget()
    table = hub.tables.get(table_id) or hub.install(row, tokens)
    hub.metrics.count("tables_created")
    log.info("table %s (%s) created by the operator", table.id, table.row.name)
    return 200, _created(table, len(seats))


async def _made_by_request(
    hub: Hub, table_id: str, message: CreateTable, seats: list[tuple[str, str]]
) -> Answer | None:
    """The answer for a ``create_table`` whose ``request`` made a table already (None:
    it made none yet): that table, if it has this name and these seats."""
    table = hub.tables.get(table_id)
    if table is None:
        stored = await hub.committer.in_db(hub.store.any_table, table_id)
        if stored is None:
            return None
        row, archived = stored
        if archived:
            text = f"request {message.request!r} made table {table_id} ({row.name}), since archived"
            return 409, OperatorRefusal(code="table_archived", message=text, path="request")
        table = await hub.table_created_elsewhere(table_id)
        if table is None:  # archived meanwhile
            return 409, OperatorRefusal(code="table_archived", message="archived", path="request")
    had = [(g.participant, g.role) for g in list(table.tokens.values())[: len(seats)]]
    if table.row.name != message.name or had != seats:
        text = (
            f"request {message.request!r} made table {table_id} ({table.row.name}) "
            "with other seats or another name"
        )
        return 409, OperatorRefusal(code="request_reused", message=text, path="request")
    return 200, _created(table, len(seats))


async def archive_table(hub: Hub, message: ArchiveTable, now_ms: int) -> Answer:
    """Carry out ``archive_table``: the one live table whose id or name is
    ``message.table`` is archived in the database, then closed here; one archived
    already answers as it did."""
    live = await hub.committer.in_db(hub.store.tables)
    found = [row for row in live if message.table in (row.id, row.name)]
    if not found:
        stored = await hub.committer.in_db(hub.store.any_table, message.table)
        if stored is not None and stored[1]:
            return 200, TableArchived(table=stored[0].id, name=stored[0].name, closed=0)
        text = f"no table has the id or name {message.table!r}"
        return 404, OperatorRefusal(code="unknown_table", message=text, path="table")
    if len(found) > 1:
        ids = ", ".join(row.id for row in found)
        text = f"{len(found)} tables are called {message.table!r} ({ids}): name one by its id"
        return 404, OperatorRefusal(code="unknown_table", message=text, path="table")
    row = found[0]
    try:
        await hub.committer.in_db(hub.store.archive_table, row.id)
    except Exception:
        log.exception("archive_table: the table could not be archived")
        return 500, OperatorRefusal(code="internal", message="the table could not be archived")
    finally:  # its tokens (perhaps) revoked: joins read them again
        hub.join_tokens.forget()
    table = hub.tables.get(row.id)
    closed = 0 if table is None else hub.close_archived(table, now_ms)
    hub.metrics.count("tables_archived")
    return 200, TableArchived(table=row.id, name=row.name, closed=closed)
