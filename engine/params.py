"""Typed parameters of ruleset actions: declared once, checked before the engine acts.

A ruleset action's ``params`` are a frozen dataclass declared in the ruleset's folder.
Its fields' annotations are the whole declaration: the bridge validates a wire
``act`` body's ``params`` map against it (:func:`decode_params`, errors with a code
and a field path, as :mod:`protocol` reports them), the engine decodes the logged map
the same way, and :func:`describe_params` renders it for the README's tables.

What a field may be:

* ``bool``, ``int``, ``float``, ``str`` (``float`` accepts integers; ``bool`` is never
  an integer);
* ``Literal["a", "b"]``: one of the words (a ruleset's vocabulary);
* ``TokenRef``: a token id (a string of 1..64 characters, not checked against the scene
  here: the handler does that);
* ``CellRef``: a grid cell ``[x, y]``;
* ``tuple[X, ...]``: a list of up to :data:`MAX_ITEMS` items;
* a nested frozen dataclass (a map with the same rules);
* ``X | None`` for an optional value, with a default;
* ``Annotated[X, Range(lo, hi)]`` bounds a number, ``Annotated[str, Length(lo, hi)]``
  bounds a string (a plain ``str`` is 0..1024 characters, and a *required* one may not
  be empty: a parameter a player must give is never meaningfully blank), and
  ``Annotated[tuple[int, ...] | None, DICE]`` marks dice the table may roll itself
  (the bridge applies the table's dice policy to them).

Every string parameter is free text some member's screen may show: it may not hold
control characters (C0, C1), U+2028/2029 or bidirectional formatting (U+202A..202E,
U+2066..2069, U+200E/200F/061C), as :mod:`protocol.text` refuses on the wire.  The
engine cannot import :mod:`protocol`, so the class is restated here (a test compares).

A dataclass's own ``__post_init__`` may check more (one field against another); it
raises :class:`ParamError` too.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, NewType, TypeVar, Union, get_args, get_origin, get_type_hints

P = TypeVar("P")

#: Longest list a parameter may hold.
MAX_ITEMS = 1024
#: Deepest nesting of dataclasses and lists a parameter may have.
MAX_DEPTH = 8
#: Largest magnitude of an integer parameter without its own ``Range``.
MAX_INT = 1_000_000_000

#: What a string parameter may not hold (the same class as ``protocol.text``'s).
FORBIDDEN_TEXT = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]"
)

TokenRef = NewType("TokenRef", str)
"""A token id parameter."""

CellRef = tuple[int, int]
"""A grid cell parameter, ``[x, y]`` on the wire."""

#: The codes a :class:`ParamError` carries: the same words :mod:`protocol` uses.
PARAM_ERROR_CODES = frozenset(
    {"missing_field", "unknown_field", "bad_type", "bad_value", "too_large", "too_deep"}
)


class ParamError(ValueError):
    """A parameter that breaks its declaration: ``code`` (one of
    :data:`PARAM_ERROR_CODES`), ``path`` inside the params (``"area[2][0]"``) and a
    message a player can read."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        assert code in PARAM_ERROR_CODES, code
        super().__init__(f"{path}: {message}" if path else message)
        self.code = code
        self.path = path
        self.detail = message


@dataclass(frozen=True, slots=True)
class Range:
    """``Annotated`` bound of a number: ``lo <= value <= hi`` (``above``: ``lo < value``,
    a size that may not be 0)."""

    lo: float
    hi: float
    above: bool = False


@dataclass(frozen=True, slots=True)
class Length:
    """``Annotated`` bound of a string's length."""

    lo: int
    hi: int


@dataclass(frozen=True, slots=True)
class Dice:
    """``Annotated`` marker: the field holds dice the table rolled itself."""


DICE = Dice()


@dataclass(frozen=True, slots=True)
class Ident:
    """``Annotated`` mark of a command's string that is an id or a word (a token's, a
    wall's or an effect's id, a word of a ruleset's vocabulary): 1..64 of
    ``A-Za-z0-9_.:-`` on the wire.  A plain ``str`` in Python (unlike ``TokenRef``), so
    code building the command passes its strings as they are."""


#: A command's id or word (see :class:`Ident`).
Id = Annotated[str, Ident()]


@dataclass(frozen=True, slots=True)
class Unique:
    """``Annotated`` mark of a command's list whose items must all differ (a fight's
    ``aware`` token ids): the wire refuses a repeat, naming it as ``what`` (``"token
    id"``) at its index; ``key``: the items' field that must differ (a scene's tokens
    by ``id``), the path then naming it (``tokens[2].id``)."""

    what: str
    key: str = ""


@dataclass(frozen=True, slots=True)
class AsMap:
    """``Annotated`` mark of sorted ``(name, value)`` pairs the wire carries as a map
    (a token's ``stats``: a map on the wire, ``{}`` when none)."""


AS_MAP = AsMap()


@dataclass(frozen=True, slots=True)
class Json:
    """``Annotated`` mark of a command's field holding a small map the ruleset reads
    (a move's or an answer's ``maneuver``): checked only as JSON-safe, nested at most
    ``depth`` deep (the bridge's wire struct checks it; the ruleset reads the fields)."""

    depth: int


@dataclass(frozen=True, slots=True)
class OnePer:
    """``Annotated`` mark of a command's list holding one item per item of the list
    ``field`` (a move's ``elevations``: one per waypoint of its ``path``); the wire
    refuses another count, naming those items ``what`` (``"waypoints"``)."""

    field: str
    what: str


def decode_params(cls: type[P], data: object) -> P:
    """Build the ``cls`` params from a plain map, or raise :class:`ParamError`."""
    if data is None:
        data = {}
    return typing.cast(P, _decode(cls, data, "", 0))


def encode_params(params: object) -> dict[str, Any]:
    """The plain map of a params value (what the log stores and the wire carries)."""
    plain = _encode(params)
    assert isinstance(plain, dict)
    return plain


def dice_fields(cls: type) -> tuple[str, ...]:
    """The top-level fields of ``cls`` marked :data:`DICE`."""
    hints = _hints(cls)
    return tuple(name for name, hint in hints.items() if DICE in _extras(hint))


@dataclass(frozen=True, slots=True)
class ParamDoc:
    """One row of a params table: name, type in words, default (``None``: required)."""

    name: str
    type: str
    default: str | None
    doc: str


def describe_params(cls: type) -> tuple[ParamDoc, ...]:
    """The rows of ``cls``'s params table, in declaration order."""
    rows = []
    for f in dataclasses.fields(cls):
        hint = _hints(cls)[f.name]
        if f.default is not dataclasses.MISSING:
            default: str | None = repr(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = repr(f.default_factory())
        else:
            default = None
        doc = str(f.metadata.get("doc", ""))
        rows.append(ParamDoc(f.name, _words(hint), default, doc))
    return tuple(rows)


# -- decoding ---------------------------------------------------------------------------


def _decode(hint: Any, data: object, path: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise ParamError("too_deep", f"nested deeper than {MAX_DEPTH}", path)
    extras = _extras(hint)
    hint = _strip(hint)
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [o for o in get_args(hint) if o is not type(None)]
        if data is None and len(options) < len(get_args(hint)):
            return None
        if len(options) == 1:
            return _decode(_with(options[0], extras), data, path, depth)
        for option in options:
            try:
                return _decode(_with(option, extras), data, path, depth)
            except ParamError:
                continue
        raise ParamError("bad_type", f"{_show(data)} is none of {_words(hint)}", path)
    if origin is typing.Literal:
        words = get_args(hint)
        if data not in words or type(data) is not type(words[0]):
            raise ParamError("bad_value", f"{_show(data)} is not one of {', '.join(words)}", path)
        return data
    if hint is TokenRef:
        return _string(data, path, Length(1, 64))
    if origin is tuple:
        return _tuple(hint, data, path, depth, extras)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _dataclass(hint, data, path, depth)
    if hint is bool:
        if not isinstance(data, bool):
            raise ParamError("bad_type", f"expected true or false, got {_show(data)}", path)
        return data
    if hint is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise ParamError("bad_type", f"expected an integer, got {_show(data)}", path)
        _bounded(data, path, extras, Range(-MAX_INT, MAX_INT))
        return data
    if hint is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ParamError("bad_type", f"expected a number, got {_show(data)}", path)
        if data != data or data in (float("inf"), float("-inf")):
            raise ParamError("bad_value", "expected a finite number", path)
        _bounded(data, path, extras, Range(-float(MAX_INT), float(MAX_INT)))
        return float(data)
    if hint is str:
        length = next((e for e in extras if isinstance(e, Length)), Length(0, 1024))
        return _string(data, path, length)
    raise TypeError(f"{path or 'params'}: cannot declare a parameter of type {hint!r}")


def _tuple(hint: Any, data: object, path: str, depth: int, extras: tuple[Any, ...]) -> Any:
    args = get_args(hint)
    if not isinstance(data, list | tuple):
        raise ParamError("bad_type", f"expected a list, got {_show(data)}", path)
    if len(args) == 2 and args[1] is Ellipsis:
        if len(data) > MAX_ITEMS:
            raise ParamError("too_large", f"more than {MAX_ITEMS} items", path)
        return tuple(_decode(args[0], v, f"{path}[{i}]", depth + 1) for i, v in enumerate(data))
    if len(data) != len(args):
        raise ParamError("bad_value", f"expected {len(args)} items, got {len(data)}", path)
    return tuple(
        _decode(a, v, f"{path}[{i}]", depth + 1)
        for i, (a, v) in enumerate(zip(args, data, strict=True))
    )


def _dataclass(cls: type, data: object, path: str, depth: int) -> Any:
    if not isinstance(data, dict):
        raise ParamError("bad_type", f"expected a map, got {_show(data)}", path)
    hints = _hints(cls)
    unknown = sorted(str(k) for k in data if k not in hints)
    if unknown:
        where = _join(path, unknown[0])
        raise ParamError("unknown_field", f"{cls.__name__} has no field {unknown[0]!r}", where)
    kwargs = {}
    for f in dataclasses.fields(cls):
        where = _join(path, f.name)
        if f.name in data:
            kwargs[f.name] = _decode(hints[f.name], data[f.name], where, depth + 1)
            if kwargs[f.name] == "" and _required_text(f, hints[f.name]):
                raise ParamError("bad_value", f"{f.name!r} may not be empty", where)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ParamError("missing_field", f"{f.name!r} is required", where)
    try:
        return cls(**kwargs)
    except ParamError as exc:
        raise ParamError(exc.code, exc.detail, _join(path, exc.path)) from None


def _string(data: object, path: str, length: Length) -> str:
    if not isinstance(data, str):
        raise ParamError("bad_type", f"expected a string, got {_show(data)}", path)
    if not length.lo <= len(data) <= length.hi:
        raise ParamError("bad_value", f"length must be {length.lo}..{length.hi}", path)
    bad = FORBIDDEN_TEXT.search(data)
    if bad is not None:
        raise ParamError(
            "bad_value",
            f"character U+{ord(bad.group()):04X} at {bad.start()} is not allowed in text "
            "(control, line separator or bidirectional formatting)",
            path,
        )
    return data


def _required_text(f: dataclasses.Field[Any], hint: Any) -> bool:
    """A required plain ``str`` field (no default, no ``Length`` of its own)."""
    required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    return (
        required and _strip(hint) is str and not any(isinstance(e, Length) for e in _extras(hint))
    )


def _bounded(value: float, path: str, extras: tuple[Any, ...], default: Range) -> None:
    bound = next((e for e in extras if isinstance(e, Range)), default)
    if not bound.lo <= value <= bound.hi or (bound.above and value == bound.lo):
        raise ParamError("bad_value", f"{value!r} is outside {bound.lo:g}..{bound.hi:g}", path)


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


# -- type helpers -----------------------------------------------------------------------


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls, include_extras=True)


def _extras(hint: Any) -> tuple[Any, ...]:
    return tuple(get_args(hint)[1:]) if get_origin(hint) is Annotated else ()


def _strip(hint: Any) -> Any:
    return get_args(hint)[0] if get_origin(hint) is Annotated else hint


def _with(hint: Any, extras: tuple[Any, ...]) -> Any:
    return Annotated[(hint, *extras)] if extras else hint


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _words(hint: Any) -> str:
    """A type in a reader's words (for the README's tables)."""
    extras = _extras(hint)
    hint = _strip(hint)
    origin = get_origin(hint)
    suffix = ""
    for extra in extras:
        if isinstance(extra, Range):
            suffix += f" {extra.lo:g}..{extra.hi:g}"
        elif isinstance(extra, Dice):
            suffix += " (dice)"
    if origin in (Union, types.UnionType):
        parts = [_words(o) for o in get_args(hint) if o is not type(None)]
        optional = " or null" if type(None) in get_args(hint) else ""
        return " or ".join(parts) + optional + suffix
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{w}`" for w in get_args(hint))
    if hint is TokenRef:
        return "token id"
    if hint == CellRef:
        return "cell [x, y]"
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"list of {_words(args[0])}{suffix}"
        return "[" + ", ".join(_words(a) for a in args) + "]"
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return f"map ({hint.__name__})"
    names = {bool: "boolean", int: "integer", float: "number", str: "string"}
    return names.get(hint, repr(hint)) + suffix
