"""Table administration messages: the GM issues and revokes join tokens, sets table options.

Client -> server: ``issue_token``, ``revoke_token``, ``configure_table``,
``list_tokens``.  Server -> client: ``token_issued``, ``token_revoked``, ``token_list``.
Only a table's GM may send the client ones; the server decides that, not this module.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, get_args

from msgspec import Meta

from protocol.wire import ClientWire, LongName, Name, Seq, ServerWire, Wire

#: Roles a GM may hand out: a table has one GM, made with the table.
IssuableRole = Literal["player", "spectator"]
Role = Literal["gm", "player", "spectator"]
#: ``server``: the server rolls every die; ``gm``: the GM's client may supply rolls;
#: ``players``: the GM's too, and each player's for the tokens it controls.
DicePolicy = Literal["server", "gm", "players"]
ISSUABLE_ROLES: Final[frozenset[str]] = frozenset(get_args(IssuableRole))
DICE_POLICIES: Final[frozenset[str]] = frozenset(get_args(DicePolicy))
#: The most tokens one ``token_list`` holds; ``list_tokens.offset`` pages through more.
LIST_TOKENS_PAGE: Final = 256
#: Bounds of a table's prompt deadline, in milliseconds.
MIN_PROMPT_TIMEOUT_MS: Final = 1_000
MAX_PROMPT_TIMEOUT_MS: Final = 3_600_000


class IssueToken(ClientWire, frozen=True, kw_only=True):
    """GM: make a new join token for ``participant`` with ``role`` (player or spectator)."""

    TYPE = "issue_token"
    participant: Name
    role: IssuableRole


class RevokeToken(ClientWire, frozen=True, kw_only=True):
    """GM: revoke a join token; connections that joined with it are closed."""

    TYPE = "revoke_token"
    token: LongName


class ConfigureTable(ClientWire, frozen=True, kw_only=True):
    """GM: change table options; a ``None`` field is left as it is.

    ``dice`` is who may supply dice (``"server"``: nobody, the server rolls; ``"gm"``:
    the GM's client may send ``rolls``; ``"players"``: the GM's, and each player's for
    the tokens it controls, its own attacks, answers and so on).  ``prompt_timeout_ms`` is
    how long a prompt waits before it counts as declined."""

    TYPE = "configure_table"
    dice: DicePolicy | None = None
    prompt_timeout_ms: (
        Annotated[int, Meta(ge=MIN_PROMPT_TIMEOUT_MS, le=MAX_PROMPT_TIMEOUT_MS)] | None
    ) = None


class ListTokens(ClientWire, frozen=True, kw_only=True):
    """GM: list the table's join tokens, in the order they were issued, from ``offset``
    on (at most :data:`LIST_TOKENS_PAGE`); answered with ``token_list``."""

    TYPE = "list_tokens"
    LATER = ("offset",)
    offset: Seq = 0


class TokenIssued(ServerWire, frozen=True, kw_only=True):
    """Reply to ``issue_token`` (client seq ``ref``): the new join ``token``."""

    TYPE = "token_issued"
    ref: Seq
    token: LongName
    participant: Name
    role: IssuableRole


class TokenRevoked(ServerWire, frozen=True, kw_only=True):
    """Reply to ``revoke_token`` (client seq ``ref``): ``token`` no longer joins."""

    TYPE = "token_revoked"
    ref: Seq
    token: LongName


class ListedToken(Wire, frozen=True, kw_only=True):
    """One join token of a ``token_list``: its value, who it makes its holder, and
    whether it was revoked."""

    token: LongName
    participant: Name
    role: Role
    revoked: bool


class TokenList(ServerWire, frozen=True, kw_only=True):
    """Reply to ``list_tokens`` (client seq ``ref``): ``tokens`` from ``offset`` on, of
    ``total`` the table has (revoked ones included)."""

    TYPE = "token_list"
    ref: Seq
    offset: Seq
    total: Seq
    tokens: Annotated[tuple[ListedToken, ...], Meta(max_length=LIST_TOKENS_PAGE)]
