"""Play a scripted session on the demo table of a fresh bridge, with recording on.

Every golden-session driver (``tests.scenario``, ``tests.scenario_hero``,
``tests.scenario_cpr``, ``tests.scenario_mm``, ``tests.scenario_hero_powers``) does the
same around its own script: a real server on loopback with the demo table and recording
on, one client per participant joined with its own token, the script played, the
clients closed, and the recording copied out.  This module is that common part, plus
the two requests every script makes (``act`` and ``options``).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import protocol
from tests.bridge.conftest import running, token_of
from tests.wsclient import TableClient

T = TypeVar("T")

#: Alice speaks msgpack binary frames, the others JSON text: every golden session so
#: carries both encodings.
BINARY = frozenset({"alice"})


async def act(client: TableClient, message: type[Any], **body: Any) -> protocol.Ack:
    """Send a command that must be accepted."""
    seq = await client.send(message, **body)
    reply = await client.reply_to(seq)
    assert isinstance(reply, protocol.Ack), reply
    return reply


async def options(client: TableClient, token: str) -> protocol.Options:
    """What ``token`` may do now, and why not the rest (``ask_options``)."""
    seq = await client.send(protocol.AskOptions, token=token)
    answer: protocol.Options = await client.wait_for(protocol.Options, lambda m: m.ref == seq)
    return answer


async def play_on_demo_table(
    play: Callable[..., Awaitable[T]],
    participants: tuple[str, ...] = ("gm", "alice", "bob"),
    *,
    record_to: Path | None = None,
    drain: bool = True,
) -> tuple[T, list[protocol.Event]]:
    """Run ``play(*clients)`` on a fresh server's demo table, one client per participant
    in the order given (the first is the GM); return what ``play`` returned and the
    events the first client saw, in order.

    With ``drain`` the first client reads what is still on its way (until 0.3 s pass
    quietly) before the clients close, so its events are the whole session.  With
    ``record_to`` the session's recording is copied there.
    """
    with tempfile.TemporaryDirectory() as tmp:
        async with running(Path(tmp), demo=True, record_dir=Path(tmp) / "rec") as bridge:
            table = bridge.hub.table_by_name("demo")
            assert table is not None
            clients = [await bridge.connect(binary=who in BINARY) for who in participants]
            for who, client in zip(participants, clients, strict=True):
                await client.join(token_of(table, who))
            result = await play(*clients)
            while drain:  # read what the first client has not read yet
                try:
                    await asyncio.wait_for(clients[0].next(), 0.3)
                except TimeoutError:
                    break
            for client in clients:
                await client.close()
            await asyncio.sleep(0.05)
        if record_to is not None:
            (recording,) = (Path(tmp) / "rec").glob("*.jsonl")
            shutil.copy(recording, record_to)
    return result, [m for m in clients[0].inbox if isinstance(m, protocol.Event)]
