"""Who is at a table: joining with a token, catching up on missed events, leaving.

A connection becomes a member (it is in ``table.sessions`` and gets broadcasts) only
after it has been sent the table's state or every event it missed, so it misses nothing
and gets nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import protocol
from engine.model import Prompt
from vtt_bridge import admin, describing, ownership
from vtt_bridge.replies import prompt_message, send_error
from vtt_bridge.tables import Session
from vtt_bridge.translate import public_state

if TYPE_CHECKING:
    from vtt_bridge.committer import Pending
    from vtt_bridge.parts import HubParts

log = logging.getLogger("vtt_bridge")
#: The server name a ``welcome`` carries.
SERVER_NAME = "vtt-bridge/0.1.0"
#: Events sent to a catching-up connection before waiting for room in its queue.
CATCH_UP_CHUNK = 64

#: A catch-up yields the event loop after this many seconds of building messages: a
#: window of big events (each ``scene_loaded`` of a large scene costs about 8 ms to
#: check into a message) must not hold up every other table for its whole length.
CATCH_UP_SLICE_S = 0.005


async def join(
    hub: HubParts, session: Session, message: protocol.Join, frame: str | bytes, now_ms: int
) -> None:
    """Admit ``session`` to the table its join token opens, or refuse it (``bad_token``).

    The token is looked up as the database has it when the join arrives
    (:mod:`vtt_bridge.token_cache`), so a token revoked with ``vtt-bridge
    revoke-token`` while the server runs no longer joins, and one issued with
    ``vtt-bridge issue-token`` does.

    When the token's table is known, the answer keeps the place in the table's answer
    order the join had when it arrived (a revocation that arrives after it is carried
    out after it), as in a replay."""
    known = hub.by_token.get(message.token)
    held: list[tuple[int, list[tuple[Prompt, int | None]]]] = []
    if known is None:
        await _join(hub, session, message, frame, now_ms, None, held)
    else:
        async with hub.committer.place_held(known, now_ms) as place:
            if known.recorder is not None:
                # Recorded where its answer is placed: at arrival, before any command
                # that arrives while its token is read (replay answers in record order).
                known.recorder.frame_in(session.conn, frame, now_ms, out_seq=session.out_seq)
            await _join(hub, session, message, frame, now_ms, place, held)
    if held and message.last_event is not None:
        await _catch_up(hub, session, message.last_event, *held[0], now_ms)


async def _join(
    hub: HubParts,
    session: Session,
    message: protocol.Join,
    frame: str | bytes,
    now_ms: int,
    place: Pending | None,
    held: list[tuple[int, list[tuple[Prompt, int | None]]]],
) -> None:
    """The join itself; a member catching up gets its catch-up's bounds in ``held``."""

    def refuse(code: str, text: str, path: str | None) -> None:
        # At the join's place when it holds one; recorded if its frame was.
        def answer() -> None:
            if code in ("bad_token", "table_archived"):
                forget_token(hub, message.token, now_ms)
            refusal = protocol.ErrorMessage(
                seq=session.next_seq(), ref=message.seq, code=code, message=text, path=path
            )
            if place is not None and place.table.recorder is not None:
                place.table.recorder.frame_out(session.conn, refusal, now_ms)
            hub.metrics.refused(code)
            session.send(refusal, now_ms)

        if place is not None:
            hub.committer.fill(place, answer)
        else:
            answer()

    try:
        grant = await hub.join_tokens.lookup(message.token, session.join_arrived)
    except Exception:
        log.exception("join: the join token could not be read")
        refuse("internal", "try again", None)
        return
    table = None if grant is None or grant.revoked else hub.tables.get(grant.table_id)
    if table is None and grant is not None and not grant.revoked:
        try:  # a table another process created while the server runs
            table = await hub.table_created_elsewhere(grant.table_id)
        except ownership.OwnedElsewhere as elsewhere:  # another process serves it
            ownership.redirect(session, message.seq, elsewhere.url, elsewhere.retry_after, now_ms)
            return
        except Exception:
            log.exception("join: table %s could not be loaded", grant.table_id)
            refuse("internal", "try again", None)
            return
    if table is None and grant is not None:
        archived = await _archived_name(hub, grant.table_id)
        if archived is not None:
            refuse("table_archived", f"table {archived!r} was archived: it is closed for good, "
                   "its log kept", "body.token")  # fmt: skip
            return
    if table is None or grant is None:
        refuse("bad_token", "no table has that join token", "body.token")
        return
    if grant.token not in table.tokens and table.recorder is not None:
        table.recorder.token_added(grant, now_ms)  # issued elsewhere: replay needs it
    table.tokens[grant.token] = grant
    hub.by_token[grant.token] = table
    session.table, session.participant, session.role = table, grant.participant, grant.role
    session.token = grant.token
    session.batch = message.batch
    session.client = (
        f"{grant.participant}/{message.client}"
        if message.client is not None
        else f"conn:{session.conn}"
    )
    hub.metrics.count("joins")
    if place is not None and place.table is not table:
        # The token now opens another table than memory said: answer in that table's
        # order, never behind this join's own place.
        hub.committer.fill(place, lambda: None)
        place = None
    if table.recorder is not None and place is None:
        # What it was answered before joining is not recorded: replay starts its
        # seq counter where the live connection's stood.
        table.recorder.frame_in(session.conn, frame, now_ms, out_seq=session.out_seq)
    welcome = protocol.Welcome(
        seq=0,
        table=table.id,
        participant=grant.participant,
        role=grant.role,  # type: ignore[arg-type]  # the struct checks it when built
        protocol=protocol.PROTOCOL_VERSION,
        server=SERVER_NAME,
    )

    def answer() -> None:
        # After every command submitted before the join is answered, as in a replay.
        if session.left:  # closed (a join timeout) while its token was read
            if table.recorder is not None:
                table.recorder.left(session.conn, now_ms)
            return
        now = table.tokens.get(grant.token)
        if now is None or now.revoked:  # revoked while this join waited for its turn
            send_error(
                hub.metrics, session, message.seq, "bad_token", "the join token was revoked",
                "body.token", now_ms,
            )  # fmt: skip
            session.table, session.participant, session.role = None, "", ""
            session.kick(1008, "join token revoked")
            return
        cap = hub.max_connections_per_token
        if cap and sum(1 for s in table.sessions if s.token == grant.token) >= cap:
            # Counted here, at the join's turn: two joins racing cannot both pass.
            hub.metrics.count("token_connections_refused")
            log.warning("refusing a join: %d connections already use one join token", cap)
            send_error(
                hub.metrics, session, message.seq, "too_many_connections",
                f"{cap} connections are already joined with this join token", "body.token",
                now_ms,
            )  # fmt: skip
            session.table, session.participant, session.role = None, "", ""
            session.kick(1013, "too many connections for this join token")
            return
        session.send(welcome.renumbered(session.next_seq()), now_ms)
        if message.describe:
            describing.send_at_join(session, now_ms)
        if message.last_event is None or not in_window(session, message.last_event):
            send_state(session, now_ms)
        else:
            held.append(_hold(session))
        # A member from here on: broadcasts reach it after what it was just sent.
        if not session.left:
            table.sessions.append(session)

    if place is not None:
        hub.committer.fill(place, answer)
    else:
        await hub.committer.in_order(table, answer, now_ms)


def forget_token(hub: HubParts, token: str, now_ms: int) -> None:
    """A join token the database does not admit (revoked by another process): drop it
    from memory too, and close the connections already joined with it."""
    table = hub.by_token.get(token)
    if table is not None:
        admin.close_revoked(hub, table, token, now_ms)


async def _archived_name(hub: HubParts, table_id: str) -> str | None:
    """The name of table ``table_id`` if it is archived; None if it is not (or cannot
    be read: the join is then refused as any unknown token is)."""
    try:
        stored = await hub.committer.in_db(hub.store.any_table, table_id)
    except Exception:
        log.exception("join: table %s could not be read", table_id)
        return None
    return stored[0].name if stored is not None and stored[1] else None


def leave(session: Session, now_ms: int) -> None:
    """The connection closed: stop sending it anything."""
    if session.left:
        return
    session.left = True
    session.held = None
    table = session.table
    if table is None:
        return
    if session in table.sessions:
        table.sessions.remove(session)
    if table.recorder is not None:
        table.recorder.left(session.conn, now_ms)


async def resync(hub: HubParts, session: Session, after: int, now_ms: int) -> None:
    """Send every event after index ``after`` and the open prompts,
    as they stand once every command submitted before the request is answered.

    The catch-up is sent in a turn of the server's join gate (``session.admission``),
    as a join's is: otherwise the members of one table resyncing at once would hold
    every other table up, as a storm of joins did before the gate.  What it sends is
    fixed before the wait (the events up to ``end``, broadcasts held from then on), so
    only when it is sent depends on the gate, and a replay sends the same."""
    table = session.table
    assert table is not None
    held: list[tuple[int, list[tuple[Prompt, int | None]]]] = []

    def hold_or_send_state() -> None:
        if in_window(session, after):
            held.append(_hold(session))
        else:
            send_state(session, now_ms)

    await hub.committer.in_order(table, hold_or_send_state, now_ms)
    if not held:
        return
    catch_up = _catch_up(hub, session, after, *held[0], now_ms)
    await (catch_up if session.admission is None else session.admission(catch_up))


def in_window(session: Session, after: int) -> bool:
    """Whether every event after index ``after`` is still in the table's memory window;
    a member further behind is sent the whole state instead (``send_state``), which
    costs less than replaying an unbounded history."""
    table = session.table
    assert table is not None
    return after + 1 >= table.events.base


def send_state(session: Session, now_ms: int) -> None:
    """Send ``session`` the table's committed state and the open prompts."""
    table = session.table
    assert table is not None
    state = public_state(table.committed)
    session.send(
        protocol.State(seq=session.next_seq(), last_event=table.last_event(), state=state),
        now_ms,
    )
    resend_prompts(session, now_ms)


def _hold(session: Session) -> tuple[int, list[tuple[Prompt, int | None]]]:
    """Start catching ``session`` up on the table as it stands now: from here on its
    broadcasts are held until it has caught up.  The events to send end at the
    returned index; the prompts to send after them are returned too."""
    table = session.table
    assert table is not None
    if session.held is None:
        session.held = []
    return len(table.events), open_prompts(session)


async def _catch_up(
    hub: HubParts,
    session: Session,
    after: int,
    end: int,
    prompts: list[tuple[Prompt, int | None]],
    now_ms: int,
) -> None:
    """Send the events after index ``after`` up to ``end``, then ``prompts``, then the
    broadcasts held meanwhile, in order.

    In chunks, each sent once the connection's queue has room (a long catch-up must
    not overflow it); events the table stopped keeping in memory meanwhile are read
    from the log."""
    table = session.table
    assert table is not None
    index = max(after + 1, 0)
    slice_ends = time.perf_counter() + CATCH_UP_SLICE_S
    try:
        while index < end and not session.left:
            await session.room()
            if index < table.events.base:
                stop = min(table.events.base, index + CATCH_UP_CHUNK, end)
                chunk = await hub.committer.in_db(hub.store.events_between, table.id, index, stop)
            else:
                recent = table.events.since(index)
                assert recent is not None
                chunk = recent[: min(CATCH_UP_CHUNK, end - index)]
            # The window's events are the ones broadcast built (the engine's own plain
            # output), the log's are those as JSON: in wire form either way, so they are
            # built as the broadcast builds them, without a second scan.
            for offset, event in enumerate(chunk):
                session.send(
                    protocol.Event.trusted(
                        seq=session.next_seq(),
                        index=index + offset,
                        kind=event["kind"],
                        data=event["data"],
                    ),
                    now_ms,
                )
                if time.perf_counter() >= slice_ends:
                    # Safe: this member's broadcasts are held until it has caught up,
                    # and events the window drops meanwhile are read from the log.
                    await asyncio.sleep(0)
                    slice_ends = time.perf_counter() + CATCH_UP_SLICE_S
                    if session.left:
                        break
            index += len(chunk)
        for prompt, deadline in prompts:
            session.send(prompt_message(session, prompt, _or(deadline, now_ms), now_ms), now_ms)
    finally:
        held, session.held = session.held or [], None
        if not session.left:
            for deliver in held:
                deliver()


def open_prompts(session: Session) -> list[tuple[Prompt, int | None]]:
    """Every open prompt, with its deadline: ``session`` is sent the ones it controls
    to answer, the others as ``prompt_waiting`` (see :func:`prompt_message`)."""
    table = session.table
    assert table is not None
    combat = table.committed.combat
    return [
        (prompt, table.deadlines.get(prompt.id)) for prompt in (combat.prompts if combat else ())
    ]


def resend_prompts(session: Session, now_ms: int) -> None:
    """Send ``session`` every open prompt with its deadline (to answer, or waited on)."""
    for prompt, deadline in open_prompts(session):
        session.send(prompt_message(session, prompt, _or(deadline, now_ms), now_ms), now_ms)


def _or(deadline: int | None, now_ms: int) -> int:
    return now_ms if deadline is None else deadline
