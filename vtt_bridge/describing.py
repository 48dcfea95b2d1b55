"""The server describes its rulesets: ``list_rulesets``, ``describe_ruleset``, and what a
member that joins with ``describe`` gets right after its ``welcome``.

The description is the engine's (:func:`engine.describe.describe`, read from the
ruleset's own declarations), in the wire shape :mod:`protocol.describe` declares; the
bridge adds nothing of its own and names no game.  It never changes while the server
runs, so each ruleset's is built once.
"""

from __future__ import annotations

import copy
import functools
from typing import TypeVar

import msgspec

from engine import UnsupportedRuleset
from engine.describe import catalogue, core_words, describe, holds_of
from engine.serial import to_plain
from protocol.describe import DescribeRuleset, ListRulesets, RulesetDescription, RulesetList
from protocol.wire import read
from vtt_bridge.metrics import Metrics
from vtt_bridge.replies import send_error
from vtt_bridge.tables import Session


def description(name: str, ref: int | None) -> RulesetDescription:
    """The ``ruleset`` message for ``name`` answering ``ref`` (``UnsupportedRuleset``
    for a name no ruleset is registered as)."""
    return _answering(_description(name), ref)


def ruleset_list(ref: int | None) -> RulesetList:
    """The ``rulesets`` message answering ``ref``."""
    return _answering(_ruleset_list(), ref)


def prepare() -> None:
    """Build every ruleset's description and the list now, at start: built on first
    use, they cost a join that asks for them (the JavaScript client's every join) 2 to
    8 ms of the loop, the first of each as much as 35 ms."""
    _ruleset_list()
    for name, _ in catalogue():
        _description(name)


# Built once each and checked once: the engine's declarations do not change while the
# server runs, and reading them (type hints, every path checked) cost milliseconds.
@functools.cache
def _description(name: str) -> RulesetDescription:
    plain = to_plain(describe(name))
    assert isinstance(plain, dict)
    return read(RulesetDescription, {"seq": 0, "ref": None, **plain})


@functools.cache
def _ruleset_list() -> RulesetList:
    names = [
        {"name": name, "title": title, "holds": to_plain(holds_of(name))}
        for name, title in catalogue()
    ]
    events, prompts = to_plain(core_words())
    body = {"seq": 0, "ref": None, "rulesets": names, "events": events, "prompts": prompts}
    return read(RulesetList, body)


M = TypeVar("M", RulesetDescription, RulesetList)


def _answering(message: M, ref: int | None) -> M:
    """``message`` answering ``ref`` (a seq already read from the client's envelope): a
    copy sharing the checked fields, as :meth:`protocol.wire.ClientWire.renumbered`."""
    twin = copy.copy(message)
    msgspec.structs.force_setattr(twin, "ref", ref)
    return twin


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
