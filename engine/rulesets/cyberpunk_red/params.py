"""Building an action's typed parameters from plain data (a held action's ``params``).

Each action declares its parameters once, as a frozen dataclass in :mod:`.actions`; this
turns a plain map into one, checking every field's type, so a held action is checked
when declared exactly as it would be if taken directly.
"""

from __future__ import annotations

import types
from dataclasses import MISSING, fields
from typing import Any, Union, get_args, get_origin, get_type_hints


class ParamError(ValueError):
    """Parameters that do not fit an action's declaration."""


def build_params(cls: type, data: dict[str, Any]) -> Any:
    """An instance of the parameter class ``cls`` from ``data``; ParamError if it does not fit."""
    hints = get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    extra = sorted(set(data) - known)
    if extra:
        raise ParamError(f"{cls.__name__}: unknown parameter(s) {', '.join(extra)}")
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise ParamError(f"{cls.__name__}: missing parameter {f.name!r}")
            continue
        values[f.name] = _coerce(hints[f.name], data[f.name], f"{cls.__name__}.{f.name}")
    return cls(**values)


def _coerce(hint: Any, value: Any, where: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        for option in get_args(hint):
            try:
                return _coerce(option, value, where)
            except ParamError:
                continue
        raise ParamError(f"{where}: {value!r} is not a {hint}")
    if hint is type(None):
        if value is None:
            return None
        raise ParamError(f"{where}: {value!r} is not null")
    if hint is Any:
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ParamError(f"{where}: {value!r} is not a list")
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(args[0], v, where) for v in value)
        if len(args) != len(value):
            raise ParamError(f"{where}: needs {len(args)} items, got {len(value)}")
        return tuple(_coerce(a, v, where) for a, v in zip(args, value, strict=True))
    if (
        (hint is bool and isinstance(value, bool))
        or (hint is int and isinstance(value, int) and not isinstance(value, bool))
        or (hint is str and isinstance(value, str))
    ):
        return value
    raise ParamError(f"{where}: {value!r} is not a {getattr(hint, '__name__', hint)}")
