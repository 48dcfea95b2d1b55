"""Table administration over the socket: a GM issues and revokes join tokens and changes
the table's settings; tokens revoked in the database by ``vtt-bridge revoke-token`` are
closed here too.  Who may send these is the permission table's business
(:mod:`vtt_bridge.permissions`); this module only carries them out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import engine
import protocol
from engine import SYSTEM
from vtt_bridge.committer import Pending
from vtt_bridge.replies import send_error
from vtt_bridge.store import AdminReply, JoinToken
from vtt_bridge.tables import Reply, Session, Table

if TYPE_CHECKING:
    from vtt_bridge.parts import HubParts

#: Participant ids a GM may not hand to a player: they carry the GM's and the server's
#: own authority in the engine.
RESERVED_PARTICIPANTS = frozenset({engine.GM, SYSTEM})
log = logging.getLogger("vtt_bridge")


async def handle(
    hub: HubParts,
    session: Session,
    message: protocol.ClientMessage,
    digest: str | None,
    now_ms: int,
) -> None:
    """Carry out an admin message from ``session`` at its table, and answer it.

    The answer, and a revocation's closing of connections, take the place in the
    table's answer order the message had when it arrived: after every command received
    before it, before every one received after, as a replay (one frame at a time) has
    them.  New settings are committed like a command, with the commands they govern.

    Idempotent like a command (the hub answers a retransmission before this is
    called): the answer is stored with the change, in one transaction, under the
    client's id and ``seq`` and the message's ``digest`` (None: a client without an
    id, nothing is kept), and remembered for a retransmission."""
    table = session.table
    assert table is not None
    held = hub.committer.place_held(table, now_ms, session, message.seq, session.client)
    async with held as place:
        await _carry_out(hub, session, table, message, digest, now_ms, place)


async def _carry_out(
    hub: HubParts,
    session: Session,
    table: Table,
    message: protocol.ClientMessage,
    digest: str | None,
    now_ms: int,
    place: Pending,
) -> None:
    ref = message.seq

    def answer(reply: Callable[[], None]) -> None:
        hub.committer.fill(place, reply)

    def stored_reply(reply: Reply) -> AdminReply | None:
        if digest is None:
            return None
        return AdminReply(table.id, session.participant, session.client, ref, digest, [*reply])

    def keep(reply: Reply) -> None:
        if digest is not None:
            table.remember(session.participant, session.client, ref, reply, digest)

    def refuse(code: str, text: str, path: str | None) -> Callable[[], None]:
        # Kept (in memory, like a command's refusal), except ``internal``: nothing was
        # done, and the same message sent again should try again.
        if code != "internal":
            keep(("error", code, text, path))
        return lambda: send_error(hub.metrics, session, ref, code, text, path, now_ms)

    not_stored = refuse("internal", "the change could not be stored", None)
    if isinstance(message, protocol.IssueToken):
        if message.participant in RESERVED_PARTICIPANTS:
            reserved = f"participant id {message.participant!r} is reserved"
            answer(refuse("bad_value", reserved, "body.participant"))
            return
        # Derived and reserved with no await in between, so two GMs issuing at once
        # get two different tokens.
        value = table.issue_token_value(message.participant, message.role)
        grant = JoinToken(value, table.id, message.participant, message.role)
        table.tokens[value] = grant
        reply: Reply = ("token_issued", value, grant.participant, grant.role)
        if not await _stored(hub, hub.store.add_token, grant, stored_reply(reply)):
            if table.tokens.get(value) is grant:
                del table.tokens[value]
            answer(not_stored)
            return
        hub.crash("admin_stored")  # the crash test: stored, and the GM never hears of it
        keep(reply)
        hub.by_token[value] = table  # only now: a join reads the token from the database
        hub.metrics.count("tokens_issued")
        issued = protocol.TokenIssued(
            seq=0,
            ref=ref,
            token=value,
            participant=grant.participant,
            role=grant.role,  # type: ignore[arg-type]  # the struct checks it when built
        )
        answer(lambda: session.send(issued.renumbered(session.next_seq()), now_ms))
    elif isinstance(message, protocol.RevokeToken):
        found = table.tokens.get(message.token)
        if found is None or found.revoked or found.role == "gm":
            unknown = "this table has no such player or spectator token"
            answer(refuse("unknown_join_token", unknown, "body.token"))
            return
        gone: Reply = ("token_revoked", found.token)
        if not await _stored(hub, hub.store.revoke_token, found.token, stored_reply(gone)):
            answer(not_stored)
            return
        hub.crash("admin_stored")
        keep(gone)
        revoked = protocol.TokenRevoked(seq=0, ref=ref, token=found.token)

        def close_and_answer() -> None:
            # At this message's place in the answer order: a join that arrived before
            # it is admitted first, then closed with everyone else on the token.
            close_revoked(hub, table, found.token, now_ms)
            session.send(revoked.renumbered(session.next_seq()), now_ms)

        answer(close_and_answer)
    elif isinstance(message, protocol.ConfigureTable):
        row = table.row
        if message.dice is not None:
            row = replace(row, dice=message.dice)
        if message.prompt_timeout_ms is not None:
            row = replace(row, prompt_timeout=message.prompt_timeout_ms / 1000)
        # Like a command: in effect for every command received from here on, committed
        # with them (one transaction) and acknowledged in order; if that commit fails,
        # it is refused with them and the table's settings go back.
        table.row = row
        change = Pending(table, table.generation, session, ref, session.client, now_ms)
        change.settings = row
        change.digest = digest
        hub.committer.enqueue(change)
        answer(lambda: None)  # the held place: the change right behind it answers
        await hub.committer.wait(change)
    else:
        answer(refuse("not_permitted", "not handled", None))


def list_tokens(session: Session, message: protocol.ListTokens, now_ms: int) -> None:
    """Answer ``list_tokens``: the table's join tokens, in the order they were issued,
    from ``message.offset`` on (at most :data:`protocol.LIST_TOKENS_PAGE`).  Only the GM
    may ask (the permission table), so only the GM is ever sent token values."""
    table = session.table
    assert table is not None
    grants = list(table.tokens.values())
    page = grants[message.offset : message.offset + protocol.LIST_TOKENS_PAGE]
    session.send(
        protocol.TokenList(
            seq=session.next_seq(),
            ref=message.seq,
            offset=message.offset,
            total=len(grants),
            tokens=listed(page),
        ),
        now_ms,
    )


def listed(grants: Iterable[JoinToken]) -> tuple[protocol.ListedToken, ...]:
    """Join tokens as a ``token_list`` (or an operator's ``table_created``) lists them."""
    return tuple(
        protocol.ListedToken(
            token=g.token,
            participant=g.participant,
            role=g.role,  # type: ignore[arg-type]  # the struct checks it when built
            revoked=g.revoked,
        )
        for g in grants
    )


def remember_stored(table: Table, replies: Iterable[AdminReply]) -> None:
    """Remember the stored answers to ``table``'s admin messages (at start-up), so one
    sent again after a restart is answered as it was the first time."""
    for stored in replies:
        table.remember(
            stored.participant, stored.client, stored.ref, tuple(stored.reply), stored.digest
        )


async def _stored(hub: HubParts, fn: Callable[..., None], *args: Any) -> bool:
    """Run a store call on the database thread; False (logged) if it failed."""
    try:
        await hub.committer.in_db(fn, *args)
    except Exception:
        log.exception("admin: %s failed", getattr(fn, "__name__", fn))
        return False
    finally:  # a token written (or perhaps written): joins read it again
        hub.join_tokens.forget()
    return True


async def revoke(hub: HubParts, table: Table, token: str, now_ms: int) -> bool:
    """Revoke a join token and close every connection that joined with it (catching-up
    ones included).  False, changing nothing, if it could not be stored."""
    if not await _stored(hub, hub.store.revoke_token, token):
        return False
    close_revoked(hub, table, token, now_ms)
    return True


def close_revoked(hub: HubParts, table: Table, token: str, now_ms: int) -> None:
    """The in-memory half of a revocation the database already holds: the token no
    longer admits to ``table``, and its connections are closed (1008).

    Safe to repeat: a protocol revocation and the poll for revocations made elsewhere
    may both see the same token, and it is counted once."""
    grant = table.tokens.get(token)
    if grant is not None and not grant.revoked:
        table.tokens[token] = replace(grant, revoked=True)
        hub.metrics.count("tokens_revoked")
    hub.by_token.pop(token, None)
    for member in [s for s in table.sessions if s.token == token]:
        hub.leave(member, now_ms)
        member.kick(1008, "join token revoked")


def sync_revocations(hub: HubParts, revoked: Iterable[str], now_ms: int) -> int:
    """Make memory agree with the database's ``revoked`` tokens (revoked by another
    process, ``vtt-bridge revoke-token``): each one a table still admits or still has
    connections joined with is closed as :func:`revoke` closes it.  Returns how many.

    Connections count, not just tokens held valid: whatever marked a token revoked in
    memory, no connection joined with it may stay."""
    dead = set(revoked)
    closed = 0
    for table in hub.tables.values():
        held = {t for t, grant in table.tokens.items() if not grant.revoked}
        held.update(s.token for s in table.sessions)
        for token in sorted(held & dead):
            close_revoked(hub, table, token, now_ms)
            closed += 1
    return closed
