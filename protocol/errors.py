"""The one exception this package raises for bad input: :class:`ProtocolError`.

Whose fault: a ``ProtocolError`` from ``decode_client``/``decode_server`` is the
remote peer's fault (it sent a bad frame); one from building a message dataclass
in Python is the local caller's fault. Either way the error names the input.
"""

from __future__ import annotations

from typing import Final

#: Every value :attr:`ProtocolError.code` can take. Clients may switch on these.
ERROR_CODES: Final[frozenset[str]] = frozenset(
    {
        "invalid_json",
        "invalid_msgpack",
        "not_a_map",
        "unsupported_version",
        "unknown_type",
        "missing_field",
        "unknown_field",
        "bad_type",
        "bad_value",
        "too_large",
        "too_deep",
        "duplicate_key",
        "non_finite",
    }
)


def join_path(prefix: str, rest: str) -> str:
    """Join two field paths: ``("body", "x")`` -> ``"body.x"``, ``("a", "[3]")`` -> ``"a[3]"``."""
    if not prefix:
        return rest
    if not rest:
        return prefix
    if rest.startswith("["):
        return prefix + rest
    return f"{prefix}.{rest}"


class ProtocolError(ValueError):
    """A frame or message that breaks the protocol.

    Attributes:
        code: one of :data:`ERROR_CODES`, stable and machine readable.
        path: where the bad value sits, e.g. ``"body.path[3][1]"``; ``""`` means the
            whole frame.
        detail: the human readable part, without the path.
        seq: the envelope's ``seq`` if it could be read before the error was found,
            so a server can reference it in its ``error`` reply; else ``None``.

    ``str(err)`` is ``"<path>: <detail>"`` (just the detail when the path is empty).
    """

    def __init__(self, code: str, detail: str, *, path: str = "", seq: int | None = None) -> None:
        # An unknown code is a bug in this package, not bad input: fail loudly.
        if code not in ERROR_CODES:
            raise AssertionError(f"unknown ProtocolError code {code!r}")
        super().__init__(detail)
        self.code = code
        self.path = path
        self.detail = detail
        self.seq = seq

    def __str__(self) -> str:
        return f"{self.path}: {self.detail}" if self.path else self.detail

    def __repr__(self) -> str:
        return f"ProtocolError(code={self.code!r}, path={self.path!r}, detail={self.detail!r})"

    def prefix(self, segment: str) -> None:
        """Prepend ``segment`` to :attr:`path` (used while the error climbs out of a nested value).

        Mutating in place keeps the original traceback, which is what a reader of a
        failing test wants to see.
        """
        self.path = join_path(segment, self.path)
