"""Client messages that act on the map or in combat beyond a plain move.

Kept apart from :mod:`protocol.messages` so the core session messages stay short;
they are registered with the others in ``CLIENT_MESSAGE_TYPES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from protocol.features import check_feature_id
from protocol.validate import SEQ_MAX, check_bool, check_int, check_keys


def _check_seq(value: object) -> int:
    return check_int(value, "seq", lo=0, hi=SEQ_MAX)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetDoor:
    """Open or close the door ``wall`` (a wall of the scene whose ``door`` is not "none")."""

    TYPE: ClassVar[str] = "set_door"
    seq: int
    wall: str
    open: bool

    def __post_init__(self) -> None:
        _check_seq(self.seq)
        check_feature_id(self.wall, "wall")
        check_bool(self.open, "open")

    @classmethod
    def from_body(cls, body: object, *, seq: int) -> SetDoor:
        """Read the wire body."""
        return cls(seq=seq, **check_keys(body, ("wall", "open")))

    def to_body(self) -> dict[str, Any]:
        """The wire body."""
        return {"wall": self.wall, "open": self.open}
