"""Questions a member asks of the committed state, answered without changing anything.

Asking and doing are separate: ``ask_options``, ``ask_path``, ``ask_threat`` and
``ask_exits`` are answered from the committed state (what members have been told) and
change nothing.  The hub answers them
once every command of the table submitted before them is answered (at once when none
is waiting), so a member hears them in the order a replay produces.
"""

from __future__ import annotations

from typing import cast

import engine
import protocol
from engine import CommandRejected
from protocol.threat import AskExits, AskThreat, ExitKind, Exits, PathExit, Threat, ThreatRegion
from vtt_bridge.metrics import Metrics
from vtt_bridge.replies import send_error
from vtt_bridge.tables import Session


def answer_options(session: Session, message: protocol.AskOptions, now_ms: int) -> None:
    """What may this token do now: asked of the committed state, changing nothing."""
    table = session.table
    assert table is not None
    found = engine.options_for(table.committed, message.token, session.participant)
    session.send(
        protocol.Options(
            seq=session.next_seq(),
            ref=message.seq,
            token=found.token,
            can_act=found.can_act,
            reason=found.reason,
            movement_left=found.movement_left,
            available=found.available,
            unavailable=tuple(
                protocol.Unavailable(action=u.action, code=u.code, reason=u.reason)
                for u in found.unavailable
            ),
            prompts=found.open_prompts,
            clock=None
            if found.clock is None
            else protocol.Clock(at=found.clock.at, label=found.clock.label),
        ),
        now_ms,
    )


def answer_path(session: Session, message: protocol.AskPath, now_ms: int) -> None:
    """The cheapest path to a cell, planned on the committed state, changing nothing."""
    table = session.table
    assert table is not None
    plan = table.encounter.plan_path(
        message.token, message.to, session.participant, state=table.committed
    )
    session.send(
        protocol.PathPlan(
            seq=session.next_seq(),
            ref=message.seq,
            token=plan.token,
            to=plan.goal,
            path=plan.path,
            cost=plan.cost,
            budget=plan.budget,
            reason=plan.reason,
        ),
        now_ms,
    )


def answer_geometry(
    session: Session, message: AskThreat | AskExits, metrics: Metrics, now_ms: int
) -> None:
    """``ask_threat`` (the cells a token threatens, its reach area) or ``ask_exits``
    (where a move along a path would be stopped), on the committed state.

    Any member may ask about any token: the answers follow from the scene and the
    fight's events, which every member holds (:mod:`engine.threat`).  What a command
    naming the same token or path would be refused for (no scene, no such token, a path
    a ``move`` could not walk) is refused the same way."""
    table = session.table
    assert table is not None
    reply: Threat | Exits
    try:
        if isinstance(message, AskThreat):
            found = table.encounter.threat(message.token, state=table.committed)
            reply = Threat(
                seq=0,
                ref=message.seq,
                token=found.token,
                cells=found.cells,
                outline=found.outline,
                foes=found.foes,
                attacks=found.attacks,
                reason=found.reason,
                region=None
                if found.region is None
                else ThreatRegion(
                    center=found.region[0], radius=found.region[1], elevation=found.region[2]
                ),
            )
        else:
            exits, reason = table.encounter.path_exits(
                message.token,
                message.path,
                message.mode,
                session.participant,
                table.committed,
                message.elevations,
            )
            reply = Exits(
                seq=0,
                ref=message.seq,
                token=message.token,
                exits=tuple(
                    PathExit(
                        kind=cast(ExitKind, e.kind), by=e.by, step=e.step, at=e.at, point=e.point
                    )
                    for e in exits
                ),
                reason=reason,
            )
    except CommandRejected as refusal:
        where = "body.token" if refusal.code == "unknown_token" else None
        send_error(metrics, session, message.seq, refusal.code, refusal.message, where, now_ms)
        return
    session.send(reply.renumbered(session.next_seq()), now_ms)
