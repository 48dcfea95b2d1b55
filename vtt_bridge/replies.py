"""What the hub sends members about commands: acknowledgements, refusals, prompts, events.

Plain functions over a session or a table; the hub's request cycle and the group-commit
writer (:mod:`vtt_bridge.committer`) both answer through them, so an acknowledgement
from memory (a retransmission) and one after a commit are the same message.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import msgspec

import engine
import protocol
from vtt_bridge.fanout import Shared
from vtt_bridge.metrics import Metrics
from vtt_bridge.tables import Reply, Session, Table


def message_digest(message: protocol.ClientMessage) -> str:
    """What a kept reply remembers of the message it answered: a short hash of its type
    and body (not its ``seq``, not its frame's encoding), so a retransmission, in JSON
    or msgpack, matches and another message sent under the same ``seq`` does not.

    Hashed as msgpack (a third of ``json.dumps``'s cost, paid on every command of a
    client with an id), written by msgspec straight from the struct's fields: the same
    bytes as packing its builtin body with ``msgpack.packb``, without building it.  Maps
    keep their order there: a client resending a message sends the same one, and bodies
    are built in field order."""
    packed = _DIGESTED.encode([message.TYPE, message.body()])
    return hashlib.blake2b(packed, digest_size=12).hexdigest()


_DIGESTED = msgspec.msgpack.Encoder()


def ack_reply(first: int, count: int) -> Reply:
    """The reply kept for a committed command whose ``count`` events start at ``first``."""
    if count == 0:
        return ("ack", None, None)
    return ("ack", first, first + count - 1)


def send_ack(session: Session, ref: int, reply: Reply, now_ms: int) -> None:
    """Acknowledge ``session``'s command ``ref`` with an ``ack`` reply (see :func:`ack_reply`)."""
    # Every field is a counter the server keeps: built without re-checking.
    ack = protocol.Ack.trusted(
        seq=session.next_seq(), ref=ref, first_event=reply[1], last_event=reply[2]
    )
    session.send(ack, now_ms)


def resend(metrics: Metrics, session: Session, ref: int, reply: Reply, now_ms: int) -> None:
    """Answer a retransmitted message ``ref`` with the reply it was given the first time."""
    kind = reply[0]
    if kind == "ack":
        send_ack(session, ref, reply, now_ms)
    elif kind == "error":
        send_error(metrics, session, ref, reply[1], reply[2], reply[3], now_ms)
    elif kind == "token_issued":
        session.send(
            protocol.TokenIssued(
                seq=session.next_seq(), ref=ref, token=reply[1], participant=reply[2], role=reply[3]
            ),
            now_ms,
        )
    else:
        assert kind == "token_revoked", reply
        session.send(protocol.TokenRevoked(seq=session.next_seq(), ref=ref, token=reply[1]), now_ms)


def send_error(
    metrics: Metrics,
    session: Session,
    ref: int | None,
    code: str,
    message: str,
    path: str | None,
    now_ms: int,
) -> None:
    """Refuse ``session``'s message ``ref`` with ``code``, counting the refusal."""
    metrics.refused(code)
    session.send(
        protocol.ErrorMessage(
            seq=session.next_seq(), ref=ref, code=code, message=message, path=path
        ),
        now_ms,
    )


def prompt_message(
    session: Session, prompt: engine.model.Prompt, deadline_ms: int, now_ms: int
) -> protocol.Prompt | protocol.PromptWaiting:
    """What ``session`` is told of an open prompt: the ``prompt`` to answer when it is
    the prompt's controller, else ``prompt_waiting`` (whom the table waits on, till
    when); ``deadline_ms`` on the server's wall clock, with the time left until then."""
    return _prompt_for(
        session,
        prompt.id,
        prompt.kind,
        prompt.controller,
        prompt.attacker,
        prompt.target,
        prompt.at,
        prompt.exit_point,
        deadline_ms,
        now_ms,
    )


def opened_prompt(
    session: Session, opened: engine.events.PromptOpened, deadline_ms: int, now_ms: int
) -> protocol.Prompt | protocol.PromptWaiting:
    """:func:`prompt_message` for a prompt a command just opened, read off its event."""
    return _prompt_for(
        session,
        opened.prompt,
        opened.prompt_kind,
        opened.controller,
        opened.attacker,
        opened.target,
        opened.at,
        opened.exit_point,
        deadline_ms,
        now_ms,
    )


def _prompt_for(
    session: Session,
    prompt: str,
    kind: str,
    controller: str,
    attacker: str,
    target: str,
    at: tuple[int | float, int | float],
    exit_point: tuple[float, float],
    deadline_ms: int,
    now_ms: int,
) -> protocol.Prompt | protocol.PromptWaiting:
    remaining_ms = max(0, deadline_ms - now_ms)
    if session.participant != controller:
        # Everyone else sees whom the fight waits on and the countdown, never the
        # answer: the question itself is in the broadcast ``prompt_opened`` event.
        return protocol.PromptWaiting(
            seq=session.next_seq(),
            prompt=prompt,
            kind=kind,
            controller=controller,
            deadline_ms=deadline_ms,
            remaining_ms=remaining_ms,
        )
    return protocol.Prompt(
        seq=session.next_seq(),
        prompt=prompt,
        kind=kind,
        attacker=attacker,
        target=target,
        at=at,
        exit_point=exit_point,
        deadline_ms=deadline_ms,
        remaining_ms=remaining_ms,
    )


def broadcast(
    table: Table,
    first: int,
    events: list[dict[str, Any]],
    now_ms: int,
    opened: dict[str, int],
    prompts: tuple[engine.events.PromptOpened, ...] = (),
) -> None:
    """Send committed ``events`` (numbered from ``first``) to every member of ``table``,
    then each prompt they opened: to its controller the ``prompt`` to answer, to every
    other member ``prompt_waiting`` (its countdown).  ``opened`` is the deadline of each
    prompt they opened and ``prompts`` those still open, as the command's application
    found them (not re-read from the events or the state)."""
    # Each event is built once, then renumbered per member.  Its data is the engine's
    # own plain output, already in wire form, so it is not scanned again (see
    # ``protocol.ServerWire.trusted``).
    trusted = protocol.Event.trusted
    built = [
        Shared(trusted(seq=0, index=first + offset, kind=event["kind"], data=event["data"]))
        for offset, event in enumerate(events)
    ]

    def deliver(session: Session) -> None:
        for event in built:
            session.send_shared(event, now_ms)
        for prompt in prompts:
            deadline = opened[prompt.prompt]
            session.send(opened_prompt(session, prompt, deadline, now_ms), now_ms)

    for session in list(table.sessions):
        if session.held is not None:  # catching up: sent once it has caught up
            session.held.append(functools.partial(deliver, session))
        else:
            deliver(session)
