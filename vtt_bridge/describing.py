"""The server describes its rulesets: ``list_rulesets``, ``describe_ruleset``, and what a
member that joins with ``describe`` gets right after its ``welcome``.

The description is the engine's (:func:`engine.describe.describe`, read from the
ruleset's own declarations), in the wire shape :mod:`protocol.describe` declares; the
bridge adds nothing of its own and names no game.  It never changes while the server
runs, so each ruleset's is built once.
"""

from __future__ import annotations

import functools
from typing import Any

from engine import UnsupportedRuleset
from engine.describe import catalogue, core_words, describe, holds_of
from engine.serial import to_plain
from protocol.describe import DescribeRuleset, ListRulesets, RulesetDescription, RulesetList
from protocol.wire import read
from vtt_bridge.metrics import Metrics
from vtt_bridge.replies import send_error
from vtt_bridge.tables import Session


@functools.cache
def _plain(name: str) -> dict[str, Any]:
    plain = to_plain(describe(name))
    assert isinstance(plain, dict)
    return plain


def description(name: str, ref: int | None) -> RulesetDescription:
    """The ``ruleset`` message for ``name`` answering ``ref`` (``UnsupportedRuleset``
    for a name no ruleset is registered as)."""
    return read(RulesetDescription, {"seq": 0, "ref": ref, **_plain(name)})


def ruleset_list(ref: int | None) -> RulesetList:
    """The ``rulesets`` message answering ``ref``."""
    names = [
        {"name": name, "title": title, "holds": to_plain(holds_of(name))}
        for name, title in catalogue()
    ]
    events, prompts = to_plain(core_words())
    body = {"seq": 0, "ref": ref, "rulesets": names, "events": events, "prompts": prompts}
    return read(RulesetList, body)


def answer_list(session: Session, message: ListRulesets, now_ms: int) -> None:
    """Every ruleset the server plays."""
    session.send(ruleset_list(message.seq).renumbered(session.next_seq()), now_ms)


def answer_describe(
    session: Session, message: DescribeRuleset, metrics: Metrics, now_ms: int
) -> None:
    """One ruleset's description, or ``unknown_ruleset`` naming the ones played."""
    try:
        reply = description(message.ruleset, message.seq)
    except UnsupportedRuleset as refusal:
        send_error(
            metrics, session, message.seq, "unknown_ruleset", str(refusal), "body.ruleset",
            now_ms,
        )  # fmt: skip
        return
    session.send(reply.renumbered(session.next_seq()), now_ms)


def send_at_join(session: Session, now_ms: int) -> None:
    """After a ``welcome`` asked for with ``describe``: the rulesets, then the running
    fight's description (none when no fight runs)."""
    table = session.table
    assert table is not None
    session.send(ruleset_list(None).renumbered(session.next_seq()), now_ms)
    combat = table.committed.combat
    if combat is not None:
        session.send(description(combat.ruleset, None).renumbered(session.next_seq()), now_ms)
