"""A table's member as a client of several bridges sees them, for :mod:`bench.crash_several`.

Each member (a GM or a player, a stable client id) moves its own token back and forth
as fast as it is acknowledged.  It joins through an entry address (a load balancer's
choice: :attr:`Cluster.entries`), follows a ``redirect`` to the owner's URL after its
``retry_after``, and backs off with jitter when nothing welcomes it.  When its
connection drops, or an answer does not come within :data:`ANSWER_S`, it joins again
and sends the command it had in flight once more under the same seq, which the owner
answers from the log or applies once.  What was acknowledged, and at which events, is
kept for the check.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

#: How long a member waits for an answer before it takes the connection for dead (a
#: paused owner keeps its sockets open): then it joins again and sends again.
ANSWER_S = 2.0
#: Redirects followed in a row before going back to the entry addresses.
MOST_HOPS = 4
#: The refusals that mean "not applied here, send it again after reconnecting".
SEND_AGAIN = frozenset({"shutting_down"})


class Dropped(Exception):
    """The connection ended or went quiet; the member joins again."""


@dataclass
class Member:
    """One client of a table: its join token, own token, seq and what was acknowledged."""

    table: int
    participant: str
    join_token: str
    x: int
    client: str = "bench"
    seq: int = 0
    y: int = 0
    in_flight: tuple[int, int] | None = None  # (seq, target row)
    #: seq -> (first_event, last_event) of its ack.
    acked: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)
    resent: int = 0
    #: The URL of the process that last welcomed it.
    at: str = ""
    ws: aiohttp.ClientWebSocketResponse | None = None

    @property
    def logged_as(self) -> str:
        """The client column its commands are logged under (``participant/client``)."""
        return f"{self.participant}/{self.client}"


def _envelopes(data: str) -> list[dict[str, Any]]:
    decoded = json.loads(data)
    return decoded if isinstance(decoded, list) else [decoded]


async def ask(
    ws: aiohttp.ClientWebSocketResponse, kind: str, seq: int, body: dict[str, Any]
) -> dict[str, Any]:
    """Send one command and return the answer to it (``welcome``, ``redirect``, ``ack``
    or ``error``); :class:`Dropped` when the connection ends or nothing comes in time."""
    await ws.send_json({"v": 1, "type": kind, "seq": seq, "body": body})
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ANSWER_S
    while True:
        try:
            message = await ws.receive(timeout=max(0.01, deadline - loop.time()))
        except TimeoutError:
            raise Dropped("no answer in time") from None
        if message.type != aiohttp.WSMsgType.TEXT:
            raise Dropped(str(message.type))
        for envelope in _envelopes(message.data):
            if envelope["type"] == "welcome":  # a welcome names no ref: it answers the join
                return envelope
            answers = envelope["type"] in ("redirect", "ack", "error")
            if answers and envelope["body"].get("ref") == seq:
                return envelope
            if envelope["type"] == "redirect":  # the table moved under this connection
                raise Dropped("redirected")


async def join(
    http: aiohttp.ClientSession, entries: Callable[[int], list[str]], member: Member
) -> None:
    """Join until welcomed: through each entry address in turn, following redirects."""
    backoff = 0.05
    while True:
        for entry in entries(member.table):
            url: str | None = entry
            for _ in range(MOST_HOPS):
                if url is None:
                    break
                url = await _join_at(http, url, member)
                if member.ws is not None:
                    return
        await asyncio.sleep(random.uniform(backoff / 2, backoff))
        backoff = min(1.0, backoff * 2)


async def _join_at(http: aiohttp.ClientSession, url: str, member: Member) -> str | None:
    """One join at ``url``: sets ``member.ws`` when welcomed; the URL a redirect names."""
    try:
        # A paused process's kernel still accepts the connection: the handshake's deadline.
        ws = await asyncio.wait_for(
            http.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_close=1.0)), ANSWER_S
        )
    except (aiohttp.ClientError, OSError, TimeoutError):
        return None
    member.seq += 1
    body = {"token": member.join_token, "last_event": None, "client": member.client}
    try:
        answer = await ask(ws, "join", member.seq, body)
    except (Dropped, aiohttp.ClientError, OSError):
        await ws.close()
        return None
    if answer["type"] == "welcome":
        member.ws, member.at = ws, url
        return None
    await ws.close()
    if answer["type"] == "redirect":
        await asyncio.sleep(answer["body"].get("retry_after") or 0)
        return str(answer["body"]["url"])
    return None  # refused (e.g. the server is stopping): the next entry


async def play(
    http: aiohttp.ClientSession,
    entries: Callable[[int], list[str]],
    member: Member,
    stop: asyncio.Event,
) -> None:
    """Move until ``stop``; on a dropped connection join again and send the move again."""
    while not stop.is_set():
        if member.ws is None:
            await join(http, entries, member)
            if member.in_flight is not None:
                member.resent += 1
        assert member.ws is not None
        if member.in_flight is None:
            member.seq += 1
            member.in_flight = (member.seq, 2 if member.y == 1 else 1)
        seq, row = member.in_flight
        move = {"token": f"t-{member.participant}", "path": [[member.x, row]]}
        try:
            answer = await ask(member.ws, "move", seq, move)
        except (Dropped, aiohttp.ClientError, OSError):
            await _drop(member)
            continue
        body = answer["body"]
        if answer["type"] == "error" and body.get("code") in SEND_AGAIN:
            await _drop(member)
            continue
        if answer["type"] != "ack":
            raise AssertionError(f"{member.logged_as} seq {seq} refused: {body}")
        member.acked[seq] = (body.get("first_event"), body.get("last_event"))
        member.y, member.in_flight = row, None
    await _drop(member)


async def _drop(member: Member) -> None:
    if member.ws is not None:
        await member.ws.close()
    member.ws = None
