"""The shape shared by client messages whose whole body is one token id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from protocol.validate import check_id, check_keys, check_seq


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenMessage:
    """A client message whose body is ``{"token": <token id>}``; subclasses set ``TYPE``."""

    TYPE: ClassVar[str]
    seq: int
    token: str

    def __post_init__(self) -> None:
        check_seq(self.seq)
        check_id(self.token, "token")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> Self:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("token",)))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"token": self.token}
