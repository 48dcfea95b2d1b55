"""Table administration messages: the GM issues and revokes join tokens, sets table options.

Same shape as :mod:`protocol.messages`: frozen dataclasses that check themselves, with
``from_body`` / ``to_body`` for the wire body.  Client -> server: ``issue_token``,
``revoke_token``, ``configure_table``, ``list_tokens``.  Server -> client:
``token_issued``, ``token_revoked``, ``token_list``.  Only a table's GM may send the
client ones; the server decides that, not this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from protocol.errors import ProtocolError
from protocol.validate import (
    SEQ_MAX,
    at,
    check_bool,
    check_choice,
    check_int,
    check_keys,
    check_str,
    check_tuple,
    index_segment,
)

__all__ = [
    "DICE_POLICIES",
    "ISSUABLE_ROLES",
    "LIST_TOKENS_PAGE",
    "TOKEN_ROLES",
    "ConfigureTable",
    "IssueToken",
    "ListTokens",
    "ListedToken",
    "RevokeToken",
    "TokenIssued",
    "TokenList",
    "TokenRevoked",
]

#: Roles a GM may hand out: a table has one GM, made with the table.
ISSUABLE_ROLES: Final[frozenset[str]] = frozenset({"player", "spectator"})
#: Every role a join token may carry.
TOKEN_ROLES: Final[frozenset[str]] = ISSUABLE_ROLES | {"gm"}
#: The most tokens one ``token_list`` holds; ``list_tokens.offset`` pages through more.
LIST_TOKENS_PAGE: Final = 256
#: ``server``: the server rolls every die; ``gm``: the GM's client may supply rolls.
DICE_POLICIES: Final[frozenset[str]] = frozenset({"server", "gm"})
#: Bounds of a table's prompt deadline, in milliseconds.
MIN_PROMPT_TIMEOUT_MS: Final = 1_000
MAX_PROMPT_TIMEOUT_MS: Final = 3_600_000


def _seq(value: object) -> int:
    return check_int(value, "seq", lo=0, hi=SEQ_MAX)


@dataclass(frozen=True, slots=True, kw_only=True)
class IssueToken:
    """GM: make a new join token for ``participant`` with ``role`` (player or spectator)."""

    TYPE: ClassVar[str] = "issue_token"
    seq: int
    participant: str
    role: str

    def __post_init__(self) -> None:
        _seq(self.seq)
        check_str(self.participant, "participant", min_len=1, max_len=64)
        check_choice(self.role, "role", ISSUABLE_ROLES)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> IssueToken:
        """Read the wire body."""
        obj = check_keys(body, ("participant", "role"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"participant": self.participant, "role": self.role}


@dataclass(frozen=True, slots=True, kw_only=True)
class RevokeToken:
    """GM: revoke a join token; connections that joined with it are closed."""

    TYPE: ClassVar[str] = "revoke_token"
    seq: int
    token: str

    def __post_init__(self) -> None:
        _seq(self.seq)
        check_str(self.token, "token", min_len=1, max_len=128)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> RevokeToken:
        """Read the wire body."""
        obj = check_keys(body, ("token",))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token}


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigureTable:
    """GM: change table options; a ``None`` field is left as it is.

    ``dice`` is who may supply dice (``"server"``: nobody, the server rolls; ``"gm"``:
    the GM's client may send ``rolls``; players never may).  ``prompt_timeout_ms`` is
    how long a prompt waits before it counts as declined."""

    TYPE: ClassVar[str] = "configure_table"
    seq: int
    dice: str | None = None
    prompt_timeout_ms: int | None = None

    def __post_init__(self) -> None:
        _seq(self.seq)
        if self.dice is not None:
            check_choice(self.dice, "dice", DICE_POLICIES)
        if self.prompt_timeout_ms is not None:
            check_int(
                self.prompt_timeout_ms,
                "prompt_timeout_ms",
                lo=MIN_PROMPT_TIMEOUT_MS,
                hi=MAX_PROMPT_TIMEOUT_MS,
            )

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> ConfigureTable:
        """Read the wire body."""
        obj = check_keys(body, ("dice", "prompt_timeout_ms"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"dice": self.dice, "prompt_timeout_ms": self.prompt_timeout_ms}


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenIssued:
    """Reply to ``issue_token`` (client seq ``ref``): the new join ``token``."""

    TYPE: ClassVar[str] = "token_issued"
    seq: int
    ref: int
    token: str
    participant: str
    role: str

    def __post_init__(self) -> None:
        _seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_str(self.token, "token", min_len=1, max_len=128)
        check_str(self.participant, "participant", min_len=1, max_len=64)
        check_choice(self.role, "role", ISSUABLE_ROLES)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> TokenIssued:
        """Read the wire body."""
        obj = check_keys(body, ("ref", "token", "participant", "role"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "ref": self.ref,
            "token": self.token,
            "participant": self.participant,
            "role": self.role,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenRevoked:
    """Reply to ``revoke_token`` (client seq ``ref``): ``token`` no longer joins."""

    TYPE: ClassVar[str] = "token_revoked"
    seq: int
    ref: int
    token: str

    def __post_init__(self) -> None:
        _seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_str(self.token, "token", min_len=1, max_len=128)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> TokenRevoked:
        """Read the wire body."""
        obj = check_keys(body, ("ref", "token"))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"ref": self.ref, "token": self.token}


@dataclass(frozen=True, slots=True, kw_only=True)
class ListTokens:
    """GM: list the table's join tokens, in the order they were issued, from ``offset``
    on (at most :data:`LIST_TOKENS_PAGE`); answered with ``token_list``."""

    TYPE: ClassVar[str] = "list_tokens"
    seq: int
    offset: int = 0

    def __post_init__(self) -> None:
        _seq(self.seq)
        check_int(self.offset, "offset", lo=0, hi=SEQ_MAX)

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> ListTokens:
        """Read the wire body."""
        obj = check_keys(body, (), optional=("offset",))
        return cls(seq=seq, **obj)

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"offset": self.offset}


@dataclass(frozen=True, slots=True, kw_only=True)
class ListedToken:
    """One join token of a ``token_list``: its value, who it makes its holder, and
    whether it was revoked."""

    token: str
    participant: str
    role: str
    revoked: bool

    def __post_init__(self) -> None:
        check_str(self.token, "token", min_len=1, max_len=128)
        check_str(self.participant, "participant", min_len=1, max_len=64)
        check_choice(self.role, "role", TOKEN_ROLES)
        check_bool(self.revoked, "revoked")

    @classmethod
    def from_wire(cls, value: object) -> ListedToken:
        """Read one item of the wire list."""
        obj = check_keys(value, ("token", "participant", "role", "revoked"))
        return cls(**obj)

    def to_wire(self) -> dict[str, Any]:
        """The wire item."""
        return {
            "token": self.token,
            "participant": self.participant,
            "role": self.role,
            "revoked": self.revoked,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenList:
    """Reply to ``list_tokens`` (client seq ``ref``): ``tokens`` from ``offset`` on, of
    ``total`` the table has (revoked ones included)."""

    TYPE: ClassVar[str] = "token_list"
    seq: int
    ref: int
    offset: int
    total: int
    tokens: tuple[ListedToken, ...]

    def __post_init__(self) -> None:
        _seq(self.seq)
        check_int(self.ref, "ref", lo=0, hi=SEQ_MAX)
        check_int(self.offset, "offset", lo=0, hi=SEQ_MAX)
        check_int(self.total, "total", lo=0, hi=SEQ_MAX)
        check_tuple(self.tokens, "tokens", max_items=LIST_TOKENS_PAGE)
        for i, item in enumerate(self.tokens):
            if not isinstance(item, ListedToken):
                raise ProtocolError("bad_type", "expected a listed token", path=f"tokens[{i}]")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> TokenList:
        """Read the wire body."""
        obj = check_keys(body, ("ref", "offset", "total", "tokens"))
        items = check_tuple(obj["tokens"], "tokens", max_items=LIST_TOKENS_PAGE)
        tokens = []
        for i, item in enumerate(items):
            with at("tokens"), at(index_segment(i)):
                tokens.append(ListedToken.from_wire(item))
        return cls(
            seq=seq, ref=obj["ref"], offset=obj["offset"], total=obj["total"], tokens=tuple(tokens)
        )

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {
            "ref": self.ref,
            "offset": self.offset,
            "total": self.total,
            "tokens": [t.to_wire() for t in self.tokens],
        }
