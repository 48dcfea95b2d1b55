"""The scan every frame passes before its envelope is read: JSON-safe values only.

:func:`json_safe` checks a parsed tree (finite floats, int64 ints, valid Unicode,
string keys, bounded depth and sizes) and reports the path of the first bad value;
the parsers' hooks leave :class:`Rejected` markers where they refused something.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from protocol.errors import ProtocolError

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

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SURROGATE = re.compile("[\ud800-\udfff]")


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


def _valid_unicode(text: str) -> bool:
    # A lone surrogate (possible from JSON "\ud800" escapes), the one code point UTF-8
    # cannot encode, could never be re-sent as msgpack; refuse it at the door.
    return text.isascii() or _SURROGATE.search(text) is None


def check_seq(value: object, path: str = "seq") -> int:
    """An envelope ``seq``: an int in ``0..2**53-1``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("bad_type", f"expected an integer, got {show(value)}", path=path)
    if not 0 <= value <= SEQ_MAX:
        raise ProtocolError("bad_value", f"expected 0..{SEQ_MAX}, got {show(value)}", path=path)
    return value


@dataclass(frozen=True, slots=True)
class Rejected:
    """A placeholder the JSON parser leaves where it met something it refuses
    (a duplicate key, a 5,000-digit integer). The parser's hooks do not know where
    they are in the document; :func:`json_safe` does, and raises with the path."""

    code: str
    detail: str
    key: str | None = None


def check_one_each(
    items: tuple[Any, ...] | None, name: str, per: tuple[Any, ...], what: str
) -> None:
    """``items`` (the field ``name``; None: none given) hold one item per item of
    ``per`` (``what`` names those: a move's elevations, one per waypoint)."""
    if items is not None and len(items) != len(per):
        raise ProtocolError(
            "bad_value", f"{len(items)} {name} for {len(per)} {what}: one each", path=name
        )


def json_safe(value: object, path: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Check a JSON-safe value and return a fresh copy of it (tuples become lists).

    JSON-safe: ``None``, ``bool``, ``int`` with ``|i| < 2**63``, finite ``float``,
    valid-Unicode ``str``, and lists / str-keyed maps nested at most ``max_depth``
    deep (a scalar is depth 0, ``[]`` depth 1), lists up to :data:`MAX_ARRAY_LEN`
    items and maps up to :data:`MAX_MAP_LEN` keys.
    """
    try:
        return _copy(value, max_depth)
    except ProtocolError as exc:
        exc.prefix(path)
        raise


def checked_tree(tree: object, *, max_depth: int = MAX_DEPTH) -> Any:
    """``tree``, a parser's output, if :func:`json_safe` finds nothing wrong in it, else
    its :class:`ProtocolError` (with the path).

    The same verdict as :func:`json_safe`, for a tree nobody else holds: a valid one is
    returned as it is, not copied, after a walk that calls no function per scalar (a
    large scene is some 300,000 nodes, most of them numbers and short strings); one the
    walk doubts goes through :func:`json_safe`, which names what is wrong."""
    if _fine(tree, max_depth):
        return tree
    return json_safe(tree, "", max_depth=max_depth)


def _fine(value: object, budget: int) -> bool:
    # Exact built-in types only (all a parser makes); anything else, a subclass, a
    # ``Rejected`` marker, bytes, is left for ``json_safe`` to judge and name.
    kind = type(value)
    if kind is dict or kind is list:
        if budget <= 0:
            return False
        items: Any = value.values() if kind is dict else value  # type: ignore[attr-defined]
        if kind is dict:
            if len(value) > MAX_MAP_LEN:  # type: ignore[arg-type]
                return False
            for key in value:  # type: ignore[attr-defined]
                if type(key) is not str or not (key.isascii() or _SURROGATE.search(key) is None):
                    return False
        elif len(value) > MAX_ARRAY_LEN:  # type: ignore[arg-type]
            return False
        inner = budget - 1
        for item in items:
            of = type(item)
            if of is str:
                if not item.isascii() and _SURROGATE.search(item) is not None:
                    return False
            elif of is float:
                if not math.isfinite(item):
                    return False
            elif of is int:
                if not INT_MIN <= item <= INT_MAX:
                    return False
            elif of is bool or item is None:
                continue
            elif not _fine(item, inner):
                return False
        return True
    return _fine_scalar(value)


def _fine_scalar(value: object) -> bool:
    kind = type(value)
    if kind is str:
        return _valid_unicode(value)  # type: ignore[arg-type]
    if kind is float:
        return math.isfinite(value)  # type: ignore[arg-type]
    if kind is int:
        return INT_MIN <= value <= INT_MAX  # type: ignore[operator]
    return kind is bool or value is None


def _copy(value: object, budget: int, kind: type | None = None) -> Any:
    # Recursion is bounded by ``budget`` (at most MAX_DEPTH frames), so no RecursionError.
    # This runs over every inbound frame and every event a server sends, so the exact
    # built-in types (all a parser produces) are dispatched on ``type()`` first; anything
    # else (subclasses, other mappings, markers, bytes) takes the general path.  Paths
    # are built only when an error propagates (``except`` below), never per node.
    # ``kind``: the built-in base a subclass is checked as (:func:`_copy_other`).
    kind = kind or type(value)
    if kind is str:
        if not _valid_unicode(value):  # type: ignore[arg-type]
            raise ProtocolError("bad_value", f"string is not valid Unicode: {show(value)}")
        return value
    if kind is int:
        if not INT_MIN <= value <= INT_MAX:  # type: ignore[operator]
            raise ProtocolError("bad_value", f"integer out of range |i| < 2**63: {show(value)}")
        return value
    if (kind is dict or kind is list) and budget <= 0:
        raise ProtocolError("too_deep", "nesting too deep")
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
    if len(value) > MAX_ARRAY_LEN:
        raise ProtocolError("too_large", f"list of {len(value)} items > {MAX_ARRAY_LEN}")
    out: list[Any] = []
    for i, item in enumerate(value):
        try:
            out.append(_copy(item, budget - 1))
        except ProtocolError as exc:
            exc.prefix(f"[{i}]")
            raise
    return out


def _copy_map(value: Mapping[Any, Any], budget: int) -> dict[str, Any]:
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
    # Everything but the exact built-in JSON types: subclasses are checked as their base
    # and pass as they are (a ``str`` enum encodes as its value), except that an ``int``
    # subclass becomes a plain int; markers and bytes are refused.
    for base in (bool, str, int, float):
        if isinstance(value, base):
            _copy(value, budget, base)
            return int(value) if base is int else value
    if isinstance(value, Rejected):
        raise ProtocolError(
            value.code, value.detail, path="" if value.key is None else key_segment(value.key)
        )
    if isinstance(value, list | tuple):
        return _copy(value, budget, list)
    if isinstance(value, Mapping):
        return _copy(value, budget, dict)
    if isinstance(value, bytes | bytearray | memoryview):
        raise ProtocolError("bad_type", f"binary values are not allowed, got {show(value)}")
    raise ProtocolError("bad_type", f"expected a JSON value, got {show(value)}")
