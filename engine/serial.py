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
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    names = _FIELD_NAMES.get(kind, _UNKNOWN)
    if names is _UNKNOWN:
        names = _FIELD_NAMES[kind] = _field_names(kind)
    if names is not None:
        return {name: to_plain(getattr(value, name)) for name in names}
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    return value


# Field names per class (None: not a dataclass), looked up once: ``to_plain`` runs over
# every command and event the bridge logs, and ``dataclasses.fields`` per node was most
# of its cost.
_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}
_UNKNOWN: tuple[str, ...] = ("<unknown>",)


def _field_names(kind: type) -> tuple[str, ...] | None:
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind))


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
