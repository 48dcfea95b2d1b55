"""Table administration over the socket: a GM issues and revokes join tokens and changes
the table's settings.  Who may send these is the permission table's business
(:mod:`vtt_bridge.permissions`); this module only carries them out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import engine
import protocol
from engine import SYSTEM
from vtt_bridge.replies import send_error
from vtt_bridge.store import JoinToken
from vtt_bridge.tables import Session, Table

if TYPE_CHECKING:
    from vtt_bridge.hub import Hub

#: Participant ids a GM may not hand to a player: they carry the GM's and the server's
#: own authority in the engine.
RESERVED_PARTICIPANTS = frozenset({engine.GM, SYSTEM})
log = logging.getLogger("vtt_bridge")


async def handle(hub: Hub, session: Session, message: protocol.ClientMessage, now_ms: int) -> None:
    """Carry out an admin message from ``session`` at its table, and answer it."""
    table = session.table
    assert table is not None
    if isinstance(message, protocol.IssueToken):
        if message.participant in RESERVED_PARTICIPANTS:
            send_error(
                hub.metrics,
                session,
                message.seq,
                "bad_value",
                f"participant id {message.participant!r} is reserved",
                "body.participant",
                now_ms,
            )
            return
        # Derived and reserved with no await in between, so two GMs issuing at once
        # get two different tokens.
        value = table.issue_token_value(message.participant, message.role)
        grant = JoinToken(value, table.id, message.participant, message.role)
        table.tokens[value] = grant
        if not await _stored(hub, session, message.seq, now_ms, hub.store.add_token, grant):
            if table.tokens.get(value) is grant:
                del table.tokens[value]
            return
        hub.by_token[value] = table
        hub.metrics.count("tokens_issued")
        session.send(
            protocol.TokenIssued(
                seq=session.next_seq(),
                ref=message.seq,
                token=value,
                participant=grant.participant,
                role=grant.role,
            ),
            now_ms,
        )
    elif isinstance(message, protocol.RevokeToken):
        found = table.tokens.get(message.token)
        if found is None or found.revoked or found.role == "gm":
            send_error(
                hub.metrics,
                session,
                message.seq,
                "unknown_join_token",
                "this table has no such player or spectator token",
                "body.token",
                now_ms,
            )
            return
        if not await revoke(hub, table, found.token, now_ms, session, message.seq):
            return
        session.send(
            protocol.TokenRevoked(seq=session.next_seq(), ref=message.seq, token=found.token),
            now_ms,
        )
    elif isinstance(message, protocol.ConfigureTable):
        row = table.row
        if message.dice is not None:
            row = replace(row, dice=message.dice)
        if message.prompt_timeout_ms is not None:
            row = replace(row, prompt_timeout=message.prompt_timeout_ms / 1000)
        if not await _stored(hub, session, message.seq, now_ms, hub.store.update_table, row):
            return
        table.row = row
        session.send(protocol.Ack(seq=session.next_seq(), ref=message.seq), now_ms)
    else:
        send_error(hub.metrics, session, message.seq, "not_permitted", "not handled", None, now_ms)


async def _stored(
    hub: Hub, session: Session | None, ref: int, now_ms: int, fn: Callable[..., None], *args: Any
) -> bool:
    """Run a store call on the database thread; if it fails, answer ``internal``."""
    try:
        await hub.committer.in_db(fn, *args)
    except Exception:
        log.exception("admin: %s failed", getattr(fn, "__name__", fn))
        if session is not None:
            send_error(
                hub.metrics,
                session,
                ref,
                "internal",
                "the change could not be stored",
                None,
                now_ms,
            )
        else:
            hub.metrics.refused("internal")
        return False
    return True


async def revoke(
    hub: Hub,
    table: Table,
    token: str,
    now_ms: int,
    session: Session | None = None,
    ref: int = 0,
) -> bool:
    """Revoke a join token and close every connection that joined with it (catching-up
    ones included).  False (``session`` is answered ``internal``) if it could not be
    stored."""
    if not await _stored(hub, session, ref, now_ms, hub.store.revoke_token, token):
        return False
    table.tokens[token] = replace(table.tokens[token], revoked=True)
    hub.by_token.pop(token, None)
    hub.metrics.count("tokens_revoked")
    for member in [s for s in table.sessions if s.token == token]:
        hub.leave(member, now_ms)
        member.kick(1008, "join token revoked")
    return True
