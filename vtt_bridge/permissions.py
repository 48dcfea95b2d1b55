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

from dataclasses import dataclass
from typing import Final

import protocol
from engine import UnsupportedRuleset, find_ruleset
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
        "dice_refused",  # rolls from a player, or from the GM when the server rolls
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


def field_refusal(
    role: str,
    message: protocol.ClientMessage,
    dice: str,
    ruleset: str | None = None,
    row: MessageRow | None = None,
) -> Refusal | None:
    """Rules on a message's fields that depend on the table's settings (``dice``) and,
    for ``act``, on the fight's ``ruleset``: its params checked against the action's
    declaration before the engine sees them, and its dice fields (its row's ``dice``)
    under the dice policy."""
    rule = row or ROWS.get(type(message))
    for name in rule.dice if rule is not None else ():
        if getattr(message, name) is not None:
            return _dice_refusal(role, dice, f"body.{name}")
    if isinstance(message, protocol.Act) and ruleset is not None:
        return _act_refusal(role, message, dice, ruleset)
    return None


def _dice_refusal(role: str, dice: str, path: str) -> Refusal | None:
    if role != GM:
        return Refusal("dice_refused", "players' rolls are never accepted", path)
    if dice != "gm":
        return Refusal("dice_refused", "this table's server rolls every die", path)
    return None


def _act_refusal(role: str, message: protocol.Act, dice: str, ruleset: str) -> Refusal | None:
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
            refusal = _dice_refusal(role, dice, f"body.params.{name}")
            if refusal is not None:
                return refusal
    return None
