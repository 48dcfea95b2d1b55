"""Small field checkers shared by the message dataclasses and the codec.

Each checker takes the value and its path (relative to the object being built,
e.g. ``"x"`` or ``"path[3][1]"``), returns the value normalised (ints for floats
become floats, lists become tuples) and raises :class:`ProtocolError` naming the
path otherwise. Nested objects wrap their children with :func:`at`, so a bad field
deep in a scene reports ``body.scene.tokens[2].x`` without any checker knowing
where it sits.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

from protocol.errors import ProtocolError

__all__ = [
    "INT_MAX",
    "INT_MIN",
    "MAX_ARRAY_LEN",
    "MAX_DEPTH",
    "MAX_MAP_LEN",
    "SEQ_MAX",
    "Rejected",
    "at",
    "check_bool",
    "check_choice",
    "check_float",
    "check_id",
    "check_int",
    "check_keys",
    "check_map",
    "check_str",
    "check_tuple",
    "index_segment",
    "json_safe",
    "key_segment",
    "show",
]

#: Largest seq / event index: the biggest integer a JavaScript client holds exactly.
SEQ_MAX: Final = 2**53 - 1
#: Integers must satisfy ``|i| < 2**63`` so that every message packs as msgpack int64.
INT_MAX: Final = 2**63 - 1
INT_MIN: Final = -(2**63 - 1)
#: Deepest nesting of maps and lists in a whole frame (the envelope counts as 1).
MAX_DEPTH: Final = 32
#: Largest list / map in any frame. The msgpack decoder enforces the same numbers, so
#: the JSON decoder and the message constructors do too: what builds also decodes.
MAX_ARRAY_LEN: Final = 4096
MAX_MAP_LEN: Final = 1024

_TOKEN_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def show(value: object) -> str:
    """``repr(value)``, cut short so an error about a 60 KiB string stays readable."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def key_segment(key: str) -> str:
    """Path segment for a map key: ``hp`` for identifiers, ``["max hp"]`` otherwise."""
    if _IDENT.fullmatch(key):
        return key
    # JSON-style quoting keeps the path unambiguous for keys with dots or brackets.
    escaped = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'["{escaped}"]'


def index_segment(index: int) -> str:
    """Path segment for a list index: ``[3]``."""
    return f"[{index}]"


@contextmanager
def at(segment: str) -> Iterator[None]:
    """Prefix the path of any :class:`ProtocolError` raised inside the block with ``segment``."""
    try:
        yield
    except ProtocolError as exc:
        exc.prefix(segment)
        raise


def _bad_type(path: str, expected: str, value: object) -> ProtocolError:
    return ProtocolError("bad_type", f"expected {expected}, got {show(value)}", path=path)


def _valid_unicode(text: str) -> bool:
    # A lone surrogate (possible from JSON "\ud800" escapes) cannot be UTF-8 encoded,
    # so it could never be re-sent as msgpack; refuse it at the door.
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_seq(value: object) -> int:
    """An envelope ``seq``: an int in ``0..2**53-1``."""
    return check_int(value, "seq", lo=0, hi=SEQ_MAX)


def check_str(value: object, path: str, *, min_len: int = 0, max_len: int) -> str:
    """A ``str`` of ``min_len..max_len`` characters, valid Unicode."""
    if not isinstance(value, str):
        raise _bad_type(path, "a string", value)
    if not min_len <= len(value) <= max_len:
        raise ProtocolError(
            "bad_value",
            f"expected {min_len}..{max_len} characters, got {len(value)}: {show(value)}",
            path=path,
        )
    if not _valid_unicode(value):
        raise ProtocolError("bad_value", f"string is not valid Unicode: {show(value)}", path=path)
    return value


def check_id(value: object, path: str) -> str:
    """A token id: 1..64 characters from ``A-Z a-z 0-9 _ . : -``."""
    if not isinstance(value, str):
        raise _bad_type(path, "a token id string", value)
    if not _TOKEN_ID.fullmatch(value):
        raise ProtocolError(
            "bad_value",
            f"expected a token id (1..64 of A-Z a-z 0-9 _ . : -), got {show(value)}",
            path=path,
        )
    return value


def check_int(value: object, path: str, *, lo: int = INT_MIN, hi: int = INT_MAX) -> int:
    """An ``int`` in ``lo..hi``. ``bool`` is refused although Python calls it an int."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad_type(path, "an integer", value)
    if not lo <= value <= hi:
        raise ProtocolError("bad_value", f"expected {lo}..{hi}, got {show(value)}", path=path)
    return int(value)


#: The largest distance, size or pixel coordinate a message may carry.  Generous for any
#: map, and far enough from overflow that doubling or summing one stays finite.
MAX_MAGNITUDE: Final = 1e9


def check_float(
    value: object,
    path: str,
    *,
    minimum: float,
    exclusive: bool = False,
    maximum: float = MAX_MAGNITUDE,
) -> float:
    """A finite number ``>= minimum`` (``> minimum`` if ``exclusive``) and ``<= maximum``;
    ints become floats."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _bad_type(path, "a number", value)
    if isinstance(value, int) and not INT_MIN <= value <= INT_MAX:
        raise ProtocolError("bad_value", f"number out of range: {show(value)}", path=path)
    number = float(value)
    if not math.isfinite(number):
        raise ProtocolError("non_finite", f"expected a finite number, got {show(value)}", path=path)
    if number < minimum or (exclusive and number == minimum):
        relation = ">" if exclusive else ">="
        raise ProtocolError(
            "bad_value", f"expected a number {relation} {minimum}, got {show(value)}", path=path
        )
    if number > maximum:
        raise ProtocolError(
            "bad_value", f"expected a number <= {maximum:g}, got {show(value)}", path=path
        )
    return number


def check_bool(value: object, path: str) -> bool:
    """A ``bool`` (``0``/``1`` are not booleans)."""
    if not isinstance(value, bool):
        raise _bad_type(path, "a boolean", value)
    return value


def check_choice(value: object, path: str, choices: Collection[str]) -> str:
    """A string from ``choices``."""
    if not isinstance(value, str):
        raise _bad_type(path, "a string", value)
    if value not in choices:
        allowed = ", ".join(sorted(choices))
        raise ProtocolError("bad_value", f"expected one of {allowed}, got {show(value)}", path=path)
    return value


def check_tuple(value: object, path: str, *, min_items: int = 0, max_items: int) -> tuple[Any, ...]:
    """A list or tuple of ``min_items..max_items`` items, returned as a tuple (hashable)."""
    if not isinstance(value, list | tuple):
        raise _bad_type(path, "a list", value)
    if not min_items <= len(value) <= max_items:
        raise ProtocolError(
            "bad_value", f"expected {min_items}..{max_items} items, got {len(value)}", path=path
        )
    return tuple(value)


def check_map(value: object, path: str) -> Mapping[str, Any]:
    """A mapping (the keys are checked by whoever reads it)."""
    if not isinstance(value, Mapping):
        raise _bad_type(path, "a map", value)
    return value


def check_keys(
    value: object, names: Collection[str], optional: Collection[str] = ()
) -> Mapping[str, Any]:
    """A map holding exactly the keys ``names``: extra keys are ``unknown_field``,
    absent ones ``missing_field``. Nullable fields must still be present (as null).

    ``optional`` keys may also appear, or be left out: they are the fields added to a
    message after version 1 shipped, so older clients' frames stay valid."""
    obj = value if type(value) is dict else check_map(value, "")
    for key in obj:
        if key not in names and key not in optional:
            segment = key_segment(key) if isinstance(key, str) else f"[{show(key)}]"
            raise ProtocolError("unknown_field", f"unknown field {show(key)}", path=segment)
    for name in names:
        if name not in obj:
            raise ProtocolError("missing_field", f"missing field {name!r}", path=name)
    return obj


class Rejected:
    """A placeholder the JSON parser leaves where it met something it refuses
    (a duplicate key, a 5,000-digit integer). The parser's hooks do not know where
    they are in the document; :func:`json_safe` does, and raises with the path."""

    __slots__ = ("code", "detail", "key")

    def __init__(self, code: str, detail: str, key: str | None = None) -> None:
        self.code = code
        self.detail = detail
        self.key = key


def json_safe(value: object, path: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Check a JSON-safe value and return a fresh copy of it (tuples become lists).

    JSON-safe: ``None``, ``bool``, ``int`` with ``|i| < 2**63``, finite ``float``,
    valid-Unicode ``str``, and lists / str-keyed maps nested at most ``max_depth``
    deep (a scalar is depth 0, ``[]`` depth 1), lists up to :data:`MAX_ARRAY_LEN`
    items and maps up to :data:`MAX_MAP_LEN` keys.
    """
    with at(path):
        return _copy(value, max_depth)


def _copy(value: object, budget: int) -> Any:
    # Recursion is bounded by ``budget`` (at most MAX_DEPTH frames), so no RecursionError.
    # This runs over every inbound frame and every event a server sends, so the exact
    # built-in types (all a parser produces) are dispatched on ``type()`` first; anything
    # else (subclasses, other mappings, markers, bytes) takes the general path.  Paths
    # are built only when an error propagates (``except`` below), never per node.
    kind = type(value)
    if kind is str:
        if not (value.isascii() or _valid_unicode(value)):  # type: ignore[attr-defined, arg-type]
            raise ProtocolError("bad_value", f"string is not valid Unicode: {show(value)}")
        return value
    if kind is int:
        if not INT_MIN <= value <= INT_MAX:  # type: ignore[operator]
            raise ProtocolError("bad_value", f"integer out of range |i| < 2**63: {show(value)}")
        return value
    if kind is dict:
        return _copy_map(value, budget)  # type: ignore[arg-type]
    if kind is list:
        return _copy_list(value, budget)  # type: ignore[arg-type]
    if value is None or kind is bool:
        return value
    if kind is float:
        if not math.isfinite(value):  # type: ignore[arg-type]
            raise ProtocolError("non_finite", f"expected a finite number, got {show(value)}")
        return value
    return _copy_other(value, budget)


def _copy_list(value: list[Any] | tuple[Any, ...], budget: int) -> list[Any]:
    if budget <= 0:
        raise ProtocolError("too_deep", "nesting too deep")
    if len(value) > MAX_ARRAY_LEN:
        raise ProtocolError("too_large", f"list of {len(value)} items > {MAX_ARRAY_LEN}")
    out: list[Any] = []
    for i, item in enumerate(value):
        try:
            out.append(_copy(item, budget - 1))
        except ProtocolError as exc:
            exc.prefix(index_segment(i))
            raise
    return out


def _copy_map(value: Mapping[Any, Any], budget: int) -> dict[str, Any]:
    if budget <= 0:
        raise ProtocolError("too_deep", "nesting too deep")
    if len(value) > MAX_MAP_LEN:
        raise ProtocolError("too_large", f"map of {len(value)} keys > {MAX_MAP_LEN}")
    copy: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise ProtocolError("bad_type", f"map keys must be strings, got {show(key)}")
        if not _valid_unicode(key):
            raise ProtocolError("bad_value", f"key is not valid Unicode: {show(key)}")
        try:
            copy[key] = _copy(item, budget - 1)
        except ProtocolError as exc:
            exc.prefix(key_segment(key))
            raise
    return copy


def _copy_other(value: object, budget: int) -> Any:
    # Everything but the exact built-in JSON types: subclasses pass as they are (a
    # ``str`` enum encodes as its value), an ``int`` subclass becomes a plain int;
    # markers and bytes are refused.
    if isinstance(value, bool | str):
        if isinstance(value, str) and not _valid_unicode(value):
            raise ProtocolError("bad_value", f"string is not valid Unicode: {show(value)}")
        return value
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise ProtocolError("bad_value", f"integer out of range |i| < 2**63: {show(value)}")
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ProtocolError("non_finite", f"expected a finite number, got {show(value)}")
        return value
    if isinstance(value, Rejected):
        raise ProtocolError(
            value.code, value.detail, path="" if value.key is None else key_segment(value.key)
        )
    if isinstance(value, list | tuple):
        return _copy_list(value, budget)
    if isinstance(value, Mapping):
        return _copy_map(value, budget)
    if isinstance(value, bytes | bytearray | memoryview):
        raise ProtocolError("bad_type", f"binary values are not allowed, got {show(value)}")
    raise ProtocolError("bad_type", f"expected a JSON value, got {show(value)}")
