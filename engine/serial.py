"""Plain-value conversion for engine dataclasses (commands, events, state).

``to_plain`` turns a dataclass tree into JSON-safe dicts and lists; ``from_plain``
rebuilds a dataclass from them using its type hints.  The event log stores commands
this way, and ``state_hash`` hashes the canonical JSON of a state.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")


def to_plain(value: Any) -> Any:
    """A JSON-safe copy of ``value``: dataclasses become dicts, tuples become lists."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _CONVERTERS[kind] = _converter(kind)
    return convert(value)


#: Values ``to_plain`` returns as they are (exact types: a subclass goes the long way).
_LEAVES: frozenset[type] = frozenset({str, int, float, bool, type(None)})
# One converter per class, made once: ``to_plain`` runs over every command and event the
# bridge logs.  A dataclass's is generated code that reads each field and converts it
# only when it is not a leaf, so a command of a dozen plain fields costs one call, not
# a dozen (a generic walk with ``dataclasses.fields`` per node was most of its cost).
_CONVERTERS: dict[type, Callable[[Any], Any]] = {}


def _converter(kind: type) -> Callable[[Any], Any]:
    if dataclasses.is_dataclass(kind):
        fields = dataclasses.fields(kind)
        sparse = frozenset(getattr(kind, "PLAIN_OMITS_DEFAULT", ()))
        return _dataclass_converter(
            tuple(f.name for f in fields if f.name not in sparse),
            {f.name: f.default for f in fields if f.name in sparse},
        )
    if issubclass(kind, (tuple, list)):
        return _sequence
    if issubclass(kind, dict):
        return _mapping
    return _same


def _dataclass_converter(
    names: tuple[str, ...], sparse: dict[str, Any] | None = None
) -> Callable[[Any], Any]:
    """The converter of a dataclass with fields ``names``; a field of ``sparse`` (a class's
    ``PLAIN_OMITS_DEFAULT``: added after states and logs were written) is written only
    when it differs from its default there, so what was written before still reads,
    hashes and compares the same."""
    sparse = sparse or {}
    reads = "".join(f"    f_{name} = value.{name}\n" for name in (*names, *sparse))
    items = ", ".join(
        f"{name!r}: f_{name} if type(f_{name}) in leaves else plain(f_{name})" for name in names
    )
    extra = "".join(
        f"    if f_{name} != default_{name}:\n"
        f"        out[{name!r}] = f_{name} if type(f_{name}) in leaves else plain(f_{name})\n"
        for name in sparse
    )
    if extra:
        source = f"def convert(value):\n{reads}    out = {{{items}}}\n{extra}    return out\n"
    else:
        source = f"def convert(value):\n{reads}    return {{{items}}}\n"
    scope: dict[str, Any] = {"leaves": _LEAVES, "plain": to_plain}
    scope.update({f"default_{name}": default for name, default in sparse.items()})
    exec(source, scope)  # our own field names, as dataclasses builds its own __init__
    convert: Callable[[Any], Any] = scope["convert"]
    return convert


def _sequence(value: Any) -> list[Any]:
    leaves = _LEAVES
    return [v if type(v) in leaves else to_plain(v) for v in value]


def _mapping(value: dict[Any, Any]) -> dict[str, Any]:
    leaves = _LEAVES
    return {str(k): v if type(v) in leaves else to_plain(v) for k, v in value.items()}


def _same(value: Any) -> Any:
    return value


def canonical_json(value: Any) -> str:
    """Sorted-key, compact JSON of ``to_plain(value)``: the same bytes for equal values."""
    return json.dumps(to_plain(value), sort_keys=True, separators=(",", ":"), allow_nan=False)


def state_hash(value: Any) -> str:
    """A SHA-256 hex digest of the canonical JSON of ``value``."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def from_plain(cls: type[T], data: Any) -> T:
    """Rebuild a ``cls`` dataclass from ``to_plain`` output, converting by type hints."""
    return typing.cast(T, _convert(cls, data, cls.__name__))


def _convert(hint: Any, data: Any, path: str) -> Any:
    origin = get_origin(hint)
    if hint is Any:
        return data
    if origin in (Union, types.UnionType):
        options = get_args(hint)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _convert(option, data, path)
            except (TypeError, ValueError) as exc:
                errors.append(str(exc))
        raise TypeError(f"{path}: {data!r} matches none of {hint}: {errors}")
    if origin is typing.Literal:
        if data not in get_args(hint):
            raise ValueError(f"{path}: {data!r} is not one of {get_args(hint)}")
        return data
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(data, (list, tuple)):
            raise TypeError(f"{path}: expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise TypeError(f"{path}: expected {len(args)} items, got {len(data)}")
        return tuple(
            _convert(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=False))
        )
    if origin is dict:
        if not isinstance(data, dict):
            raise TypeError(f"{path}: expected a map, got {data!r}")
        value_hint = get_args(hint)[1] if get_args(hint) else Any
        return {str(k): _convert(value_hint, v, f"{path}.{k}") for k, v in data.items()}
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        if not isinstance(data, dict):
            raise TypeError(f"{path}: expected a map, got {data!r}")
        hints, names = _hints(hint)
        unknown = set(data) - names
        if unknown:
            raise TypeError(f"{path}: unknown fields {sorted(unknown)}")
        kwargs = {k: _convert(hints[k], v, f"{path}.{k}") for k, v in data.items()}
        built = hint(**kwargs)
        finish = _FINISHERS.get(hint)
        return built if finish is None else finish(built)
    if hint is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise TypeError(f"{path}: expected a number, got {data!r}")
        return float(data)
    if hint in (int, str, bool):
        if not isinstance(data, hint) or (hint is int and isinstance(data, bool)):
            raise TypeError(f"{path}: expected {hint.__name__}, got {data!r}")
        return data
    raise TypeError(f"{path}: cannot convert to {hint!r}")


#: Per-class steps run after ``from_plain`` builds an instance: a field typed ``Any``
#: whose class only the value itself knows (a ruleset's state, named by the combat's
#: ruleset) is decoded there.
_FINISHERS: dict[type, Callable[[Any], Any]] = {}


def register_finisher(cls: type[T], finish: Callable[[T], T]) -> None:
    """Run ``finish`` on every ``cls`` that ``from_plain`` builds."""
    _FINISHERS[cls] = finish


@functools.cache
def _hints(cls: type) -> tuple[dict[str, Any], frozenset[str]]:
    """A dataclass's resolved field types and its ``__init__`` field names, worked out
    once per class: resolving string annotations is most of ``from_plain``'s cost."""
    names = frozenset(f.name for f in dataclasses.fields(cls) if f.init)
    return get_type_hints(cls), names
