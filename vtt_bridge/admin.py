"""Table administration over the socket: a GM issues and revokes join tokens and changes
the table's settings.  Who may send these is the permission table's business
(:mod:`vtt_bridge.permissions`); this module only carries them out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

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
        value = table.issue_token_value(message.participant, message.role)
        grant = JoinToken(value, table.id, message.participant, message.role)
        await hub.committer.in_db(hub.store.add_token, grant)
        table.tokens[value] = grant
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
        await revoke(hub, table, found.token, now_ms)
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
        await hub.committer.in_db(hub.store.update_table, row)
        table.row = row
        session.send(protocol.Ack(seq=session.next_seq(), ref=message.seq), now_ms)
    else:
        send_error(hub.metrics, session, message.seq, "not_permitted", "not handled", None, now_ms)


async def revoke(hub: Hub, table: Table, token: str, now_ms: int) -> None:
    """Revoke a join token and close every connection that joined with it."""
    await hub.committer.in_db(hub.store.revoke_token, token)
    table.tokens[token] = replace(table.tokens[token], revoked=True)
    hub.by_token.pop(token, None)
    hub.metrics.count("tokens_revoked")
    for member in [s for s in table.sessions if s.token == token]:
        hub.leave(member, now_ms)
        member.kick(1008, "join token revoked")
