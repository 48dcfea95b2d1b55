"""Table administration messages: the GM issues and revokes join tokens, sets table options.

Same shape as :mod:`protocol.messages`: frozen dataclasses that check themselves, with
``from_body`` / ``to_body`` for the wire body.  Client -> server: ``issue_token``,
``revoke_token``, ``configure_table``.  Server -> client: ``token_issued``,
``token_revoked``.  Only a table's GM may send the client ones; the server decides that,
not this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from protocol.validate import SEQ_MAX, check_choice, check_int, check_keys, check_str

__all__ = [
    "DICE_POLICIES",
    "ISSUABLE_ROLES",
    "ConfigureTable",
    "IssueToken",
    "RevokeToken",
    "TokenIssued",
    "TokenRevoked",
]

#: Roles a GM may hand out: a table has one GM, made with the table.
ISSUABLE_ROLES: Final[frozenset[str]] = frozenset({"player", "spectator"})
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
