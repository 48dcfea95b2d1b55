"""Who is at a table: joining with a token, catching up on missed events, leaving.

A connection becomes a member (it is in ``table.sessions`` and gets broadcasts) only
after it has been sent the table's state or every event it missed, so it misses nothing
and gets nothing twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protocol
from vtt_bridge.replies import prompt_message, send_error
from vtt_bridge.tables import Session
from vtt_bridge.translate import public_state

if TYPE_CHECKING:
    from vtt_bridge.hub import Hub

#: The server name a ``welcome`` carries.
SERVER_NAME = "vtt-bridge/0.1.0"
#: Events sent to a catching-up connection before waiting for room in its queue.
CATCH_UP_CHUNK = 64


async def join(
    hub: Hub, session: Session, message: protocol.Join, frame: str | bytes, now_ms: int
) -> None:
    """Admit ``session`` to the table its join token opens, or refuse it (``bad_token``)."""
    table = hub.by_token.get(message.token)
    if table is None:
        # A token issued with ``vtt-bridge issue-token`` while the server runs.
        grant = await hub.committer.in_db(hub.store.join_token, message.token)
        table = None if grant is None or grant.revoked else hub.tables.get(grant.table_id)
        if table is not None and grant is not None:
            table.tokens[grant.token] = grant
            hub.by_token[grant.token] = table
    if table is None:
        send_error(
            hub.metrics,
            session,
            message.seq,
            "bad_token",
            "no table has that join token",
            "body.token",
            now_ms,
        )
        return
    grant = table.tokens[message.token]
    session.table, session.participant, session.role = table, grant.participant, grant.role
    session.token = grant.token
    session.client = (
        f"{grant.participant}/{message.client}"
        if message.client is not None
        else f"conn:{session.conn}"
    )
    hub.metrics.count("joins")
    if table.recorder is not None:
        table.recorder.frame_in(session.conn, frame, now_ms)
    session.send(
        protocol.Welcome(
            seq=session.next_seq(),
            table=table.id,
            participant=grant.participant,
            role=grant.role,
            protocol=protocol.PROTOCOL_VERSION,
            server=SERVER_NAME,
        ),
        now_ms,
    )
    if message.last_event is None:
        state = public_state(table.committed)
        session.send(
            protocol.State(seq=session.next_seq(), last_event=table.last_event(), state=state),
            now_ms,
        )
        resend_prompts(session, now_ms)
    else:
        await catch_up(hub, session, message.last_event, now_ms)
    # A member from here on: broadcasts reach it after what it was just sent.
    if not session.left:
        table.sessions.append(session)


def leave(session: Session, now_ms: int) -> None:
    """The connection closed: stop sending it anything."""
    session.left = True
    table = session.table
    if table is not None and session in table.sessions:
        table.sessions.remove(session)
        if table.recorder is not None:
            table.recorder.left(session.conn, now_ms)


async def catch_up(hub: Hub, session: Session, after: int, now_ms: int) -> None:
    """Send every event after index ``after``, then the prompts waiting for this member.

    In chunks, each sent once the connection's queue has room (a long catch-up must
    not overflow it); events older than the table keeps in memory are read from the
    log.  The last chunk is sent without yielding before the caller makes the session
    a member, so it misses nothing and gets nothing twice."""
    table = session.table
    assert table is not None
    index = max(after + 1, 0)
    while index < len(table.events) and not session.left:
        await session.room()
        if index < table.events.base:
            end = min(table.events.base, index + CATCH_UP_CHUNK)
            chunk = await hub.committer.in_db(hub.store.events_between, table.id, index, end)
        else:
            recent = table.events.since(index)
            assert recent is not None
            chunk = recent[:CATCH_UP_CHUNK]
        for offset, event in enumerate(chunk):
            session.send(
                protocol.Event(
                    seq=session.next_seq(),
                    index=index + offset,
                    kind=event["kind"],
                    data=event["data"],
                ),
                now_ms,
            )
        index += len(chunk)
    resend_prompts(session, now_ms)


def resend_prompts(session: Session, now_ms: int) -> None:
    """Send ``session`` every open prompt it controls, with its deadline."""
    table = session.table
    assert table is not None
    combat = table.committed.combat
    for prompt in combat.prompts if combat else ():
        if session.participant == prompt.controller:
            session.send(
                prompt_message(session, prompt, table.deadlines.get(prompt.id, now_ms)),
                now_ms,
            )
