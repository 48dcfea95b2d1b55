"""Who may send what: each message's row in the message table says (its ``roles``).

Theory of operation.  A connection's role comes from its join token alone (``gm``,
``player`` or ``spectator``; before a join it has none).  Every client message class has
a row (:mod:`vtt_bridge.rows`) that says which roles may send it.  The bridge checks that
row first;
what the row cannot know (does this player own that token, is it its turn, is the prompt
addressed to it) the engine checks behind it and refuses with its own codes, named in
the row's ``engine`` column.  Field rules that depend on the table's settings, such as
who may supply dice, are in :func:`field_refusal`.

Fail closed: a message class with no row, or a row naming no role, is refused
(``not_permitted``), so a command type added to the protocol does nothing until someone
writes its row, and ``tests/bridge/test_permissions.py`` fails until they do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

import protocol
from engine import UnsupportedRuleset, find_ruleset
from engine.model import EncounterState
from engine.params import ParamError, decode_params, dice_fields
from vtt_bridge.registry import ROWS, MessageRow

GM: Final = "gm"
PLAYER: Final = "player"
SPECTATOR: Final = "spectator"
#: The role of a connection that has not joined.
NOBODY: Final = ""
JOINED: Final = frozenset({GM, PLAYER, SPECTATOR})
ACTORS: Final = frozenset({GM, PLAYER})
GM_ONLY: Final = frozenset({GM})

#: Codes the bridge itself refuses with, beside the protocol's and the engine's.
BRIDGE_ERROR_CODES: Final = frozenset(
    {
        "not_joined",  # anything but join before a join
        "already_joined",  # a second join on one connection
        "bad_token",  # a join token no table has (or one revoked)
        "table_archived",  # a join token of an archived table
        "spectator",  # a spectator sent something other than ping / resync
        "gm_only",  # a player sent a GM-only message (the engine uses this code too)
        "not_permitted",  # a message type with no row in the permission table
        "dice_refused",  # rolls the dice policy does not take (a player's for another's token)
        "unknown_join_token",  # revoke_token naming no token of this table
        "internal",  # the log could not be written; nothing changed
        "shutting_down",  # the server is stopping; send it again after reconnecting
        "seq_reused",  # a seq this client already used, for a different message
        "too_many_connections",  # a join beyond --max-connections-per-token
    }
)


#: Every client message the bridge accepts, to its row (who may send it is its
#: ``roles``; the codes the engine still refuses it with, its ``engine``): the message
#: table itself, :data:`vtt_bridge.registry.ROWS`.
PERMISSIONS: Final = ROWS


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the bridge refuses a message before it reaches the engine."""

    code: str
    message: str
    path: str | None = None


def rule_for(message: protocol.ClientMessage) -> MessageRow | None:
    """The row for ``message``'s class, or None (which means: refuse)."""
    return ROWS.get(type(message))


def refusal(
    role: str, message: protocol.ClientMessage, row: MessageRow | None = None
) -> Refusal | None:
    """None if ``role`` may send ``message`` at all, else the typed reason it may not
    (``row``: its row, when the caller has looked it up)."""
    rule = row or ROWS.get(type(message))
    name = message.TYPE
    if rule is None:
        return Refusal("not_permitted", f"{name!r} has no permission row; refused")
    if role in rule.roles:
        return None
    if not rule.roles:
        return Refusal("not_permitted", f"{name!r} names no role that may send it; refused")
    if role == NOBODY:
        return Refusal("not_joined", "the first message must be a join")
    if isinstance(message, protocol.Join):
        return Refusal("already_joined", "this connection has joined")
    if role == SPECTATOR:
        return Refusal("spectator", f"spectators only watch; {name!r} refused")
    if rule.roles == GM_ONLY:
        return Refusal("gm_only", f"only the GM may send {name!r}")
    return Refusal("not_permitted", f"a {role} may not send {name!r}")


#: ``message`` -> the participant controlling the token the message's dice are for
#: (its ``token``'s owner, or an answered prompt's addressee), or None.
RollsFor = Callable[[protocol.ClientMessage], str | None]


def _nobody(message: protocol.ClientMessage) -> str | None:
    return None


def dice_owner(state: EncounterState) -> RollsFor:
    """Whose token a message's dice are for in ``state``: the owner of the ``token`` it
    names, or for ``answer_prompt`` the participant the prompt is addressed to."""

    def owner(message: protocol.ClientMessage) -> str | None:
        if message.TYPE == "answer_prompt":  # a struct the bridge derives (rows.py)
            asked: str = cast(Any, message).prompt
            prompt = state.combat.prompt(asked) if state.combat is not None else None
            return None if prompt is None else prompt.controller
        name = getattr(message, "token", None)
        token = state.scene.token(name) if isinstance(name, str) and state.scene else None
        return None if token is None else token.owner

    return owner


def field_refusal(
    role: str,
    message: protocol.ClientMessage,
    dice: str,
    ruleset: str | None = None,
    row: MessageRow | None = None,
    *,
    participant: str = "",
    rolls_for: RollsFor = _nobody,
) -> Refusal | None:
    """Rules on a message's fields that depend on the table's settings (``dice``) and,
    for ``act``, on the fight's ``ruleset``: its params checked against the action's
    declaration before the engine sees them, and its dice fields (its row's ``dice``)
    under the dice policy.  Under ``players`` a player's dice are taken for the tokens
    it controls: ``rolls_for`` says whose token the message's dice are for, and any
    other's are refused (``dice_refused``)."""
    rule = row or ROWS.get(type(message))
    # The sender is built only when there are dice or params to judge: most commands
    # (a move without dice) have none, and building it was most of this check's cost.
    for name in rule.dice if rule is not None else ():
        if getattr(message, name) is not None:
            sender = _Sender(role, participant, lambda: rolls_for(message))
            return _dice_refusal(sender, dice, f"body.{name}")
    if message.TYPE == "act" and ruleset is not None:  # derived from engine.Act (rows.py)
        sender = _Sender(role, participant, lambda: rolls_for(message))
        return _act_refusal(sender, message, dice, ruleset)
    return None


@dataclass(frozen=True, slots=True)
class _Sender:
    """Who sent a message's dice: its ``role``, its ``participant`` and, asked only when
    a player sends dice under ``players``, whose token the dice are for."""

    role: str
    participant: str
    whose: Callable[[], str | None]


def _dice_refusal(sender: _Sender, dice: str, path: str) -> Refusal | None:
    if dice == "server":
        return Refusal("dice_refused", "this table's server rolls every die", path)
    if sender.role == GM:
        return None
    if dice != "players":
        return Refusal("dice_refused", "at this table only the GM's client sends dice", path)
    owner = sender.whose()
    if owner != sender.participant:
        whose = "no one's token" if owner is None else f"a token {owner!r} controls"
        return Refusal(
            "dice_refused",
            f"a player rolls only for the tokens it controls; these dice are for {whose}",
            path,
        )
    return None


def _act_refusal(sender: _Sender, message: Any, dice: str, ruleset: str) -> Refusal | None:
    """An ``act``'s params against its action's declaration (an unknown ruleset or
    action is left to the engine, which refuses it with its own code)."""
    try:
        found = find_ruleset(ruleset)
    except UnsupportedRuleset:
        return None
    spec = getattr(found, "actions", {}).get(message.action)
    if spec is None:
        return None
    try:
        decode_params(spec.params, message.params)
    except ParamError as error:
        where = f"body.params.{error.path}" if error.path else "body.params"
        return Refusal(error.code, error.detail, where.replace(".[", "["))
    for name in dice_fields(spec.params):
        if message.params.get(name) is not None:
            refusal = _dice_refusal(sender, dice, f"body.params.{name}")
            if refusal is not None:
                return refusal
    return None
